// What a sink (the MQTT broker, where on a typical Home Assistant broker every login may publish)
// may change, and secrets never shown, through the program: the reminder desk, driven the way the
// daemon drives it, refuses a sink's config command for anything but the person's settings; the
// built binary's `config list/get` and a refused `--set` never print a secret
// (docs/home-assistant.md, "What the broker may change"). The catalog's own rules are in
// SettingsTests, the gate the sinks are given in DeliveryTests, the doctor's in DiagnosticsTests.

import BusTestSupport
@testable import Daemon
import Foundation
import History
import Logging
@testable import Settings
import Sinks
import TestFixtures
import Testing
import Timekeeping

@Suite("Settings from outside and secrets")
struct SettingTrustTests {
    @Test("the desk refuses config commands from a sink for anything but the person's settings")
    func deskRefuses() async throws {
        let folder = TemporaryFolder()
        let history = try DrinkHistory(path: folder.path + "/h.sqlite")
        let lines = LogLines()
        let logger = Logger(label: "test") { _ in LineHandler(lines: lines) }
        let desk = ReminderDesk(history: history, configuration: Configuration(), logger: logger)
        let now: WallInstant = WallInstant(secondsSince1970: 1_795_330_800)
        await desk.handle(.configSet(key: "push.url", value: "http://attacker.example/steal"), at: now)
        await desk.handle(.configSet(key: "messages.pool", value: "/etc/aquavate/bridge.toml"), at: now)
        await desk.handle(.configSet(key: "mqtt.url", value: "mqtt://attacker.example"), at: now)
        await desk.handle(.configSet(key: "push.token", value: "tk_stolen"), at: now)
        await desk.handle(.configSet(key: "daily_goal_ml", value: "2200"), at: now)
        #expect(try history.settings.all() == ["daily_goal_ml": "2200"])
        #expect(lines.all.filter { $0.contains("from a sink refused") }.count == 4)
        #expect(!lines.all.contains { $0.contains("tk_stolen") })
    }

    @Test("config list and config get redact secrets unless --show-secrets")
    func configListRedacts() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let file = folder.write("bridge.toml", """
            [mqtt]
            url = "mqtt://bridge:s3cret@127.0.0.1:1883"
            [push]
            url = "https://ntfy.example/aquavate"
            token = "tk_abcdef"
            """)
        let list = try await runBridge(["config", "list", "--config", file, "--db", db])
        #expect(list.status == 0)
        #expect(!list.out.contains("s3cret") && !list.out.contains("tk_abcdef"))
        #expect(list.out.contains("push.token = <redacted>"))
        #expect(list.out.contains("mqtt.url = mqtt://bridge:<redacted>@127.0.0.1:1883"))
        let get = try await runBridge(["config", "get", "push.token", "--config", file, "--db", db])
        #expect(get.out == "<redacted>\n")
        let shown = try await runBridge(["config", "get", "push.token", "--show-secrets", "--config", file, "--db", db])
        #expect(shown.out == "tk_abcdef\n")
        let all = try await runBridge(["config", "list", "--show-secrets", "--config", file, "--db", db])
        #expect(all.out.contains("tk_abcdef") && all.out.contains("s3cret"))
        // `config set` echoes the value: not a secret's.
        let set = try await runBridge(["config", "set", "push.token", "tk_new", "--db", db])
        #expect(set.status == 0 && !set.out.contains("tk_new"))
    }
}

@Suite("Secrets in error lines")
struct SecretErrorLineTests {
    @Test("a refused --set of a secret URL does not print its password")
    func overrideErrorRedacted() async throws {
        let folder = TemporaryFolder()
        let result = try await runBridge(["config", "list", "--db", folder.path + "/h.sqlite",
                                          "--set", "mqtt.url=ftp://bridge:s3cret@broker.lan"])
        #expect(result.status != 0)
        #expect(result.err.contains("mqtt.url") && !result.err.contains("s3cret"))
        #expect(Redaction.assignment("push.token=tk_abc") == "push.token=<redacted>")
        #expect(Redaction.assignment("daily_goal_ml=2000") == "daily_goal_ml=2000")
    }
}
