// What a sink (the MQTT broker, where on a typical Home Assistant broker every login may publish)
// may change, and secrets never shown: not in `config list/get`, not in error lines, and a config
// file holding one is a `doctor` warning when others may read it (docs/home-assistant.md, "What
// the broker may change"). The desk is driven the way the daemon drives it; `config list/get` run
// the built binary.

import BusTestSupport
@testable import Daemon
@testable import Delivery
@testable import Diagnostics
import Foundation
import History
import Logging
@testable import Settings
import Sinks
import TestFixtures
import Testing

@Suite("Settings from outside and secrets")
struct SettingTrustTests {
    @Test("a sink may change only the person's settings: never a URL, a path, a secret, the bottle or the adapter")
    func allowList() {
        let person = SettingCatalog.keys.filter { $0.access == .person }.map(\.name)
        #expect(person.contains("reminders.daily_limit") && person.contains("goal_ml") && person.contains("timezone"))
        #expect(person.contains("messages.enabled") && person.contains("messages.locale"))
        #expect(person.contains("deadline.period") && person.contains("rituals.morning"))
        for key in ["push.url", "push.token", "push.action_url", "mqtt.url", "mqtt.ca_file", "mqtt.topic_prefix",
                    "messages.pool", "bottle.address", "bluetooth.adapter", "desktop.enabled"] {
            #expect(!person.contains(key), "\(key) must not be changeable from a sink")
            #expect(SettingCatalog.refusalFromSink(key: key, value: "x")?.contains("cannot be changed from outside") == true)
        }
        // No URL or free-text path setting is on the list.
        #expect(!SettingCatalog.keys.contains { key in
            if case .url = key.kind { return key.access == .person }
            return false
        })
        #expect(SettingCatalog.refusalFromSink(key: "reminders.daily_limit", value: "false") == nil)
        #expect(SettingCatalog.refusalFromSink(key: "goal_ml", value: "abc")?.contains("whole number") == true)
        #expect(SettingCatalog.refusalFromSink(key: "no.such", value: "1")?.contains("unknown setting") == true)
        #expect(SettingCatalog.sinkCommandGate.refusal(.log(type: "vitamin-d")) == nil)
    }

    @Test("the daemon's MQTT sink is built with the catalog's gate")
    func daemonSinkHasTheGate() throws {
        var configuration = Configuration()
        try configuration.applyOverride("mqtt.url=mqtt://127.0.0.1:1")
        try configuration.applyOverride("desktop.enabled=false")
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let sinks = SinkSetup.sinks(configuration: configuration, bottle: BottleRecord(id: "F4:12:FA:00:A3:F4", address: "F4:12:FA:00:A3:F4"), logger: logger)
        let mqtt = try #require(sinks.compactMap { $0 as? MQTTSink }.first)
        #expect(mqtt.gate.refusal(.configSet(key: "push.url", value: "http://attacker.example/")) != nil)
        #expect(mqtt.gate.refusal(.configSet(key: "messages.pool", value: "/etc/passwd")) != nil)
        #expect(mqtt.gate.refusal(.configSet(key: "reminders.daily_limit", value: "false")) == nil)
    }

    @Test("the desk refuses config commands from a sink for anything but the person's settings")
    func deskRefuses() async throws {
        let folder = TemporaryFolder()
        let history = try DrinkHistory(path: folder.path + "/h.sqlite")
        let lines = LogLines()
        let logger = Logger(label: "test") { _ in LineHandler(lines: lines) }
        let desk = ReminderDesk(history: history, configuration: Configuration(), logger: logger)
        let now = 1_795_330_800.0
        await desk.handle(.configSet(key: "push.url", value: "http://attacker.example/steal"), at: now)
        await desk.handle(.configSet(key: "messages.pool", value: "/etc/aquavate/bridge.toml"), at: now)
        await desk.handle(.configSet(key: "mqtt.url", value: "mqtt://attacker.example"), at: now)
        await desk.handle(.configSet(key: "push.token", value: "tk_stolen"), at: now)
        await desk.handle(.configSet(key: "goal_ml", value: "2200"), at: now)
        #expect(try history.allSettings() == ["goal_ml": "2200"])
        #expect(lines.all.filter { $0.contains("from a sink refused") }.count == 4)
        #expect(!lines.all.contains { $0.contains("tk_stolen") })
    }

    @Test("secrets are redacted: the token, a URL's password, an invalid value of a secret")
    func redaction() throws {
        let token = try #require(SettingCatalog.key(named: "push.token"))
        #expect(token.isSecret && token.shown("tk_abc") == "<redacted>")
        let mqtt = try #require(SettingCatalog.key(named: "mqtt.url"))
        #expect(mqtt.shown("mqtt://bridge:s3cret@broker.lan:1883") == "mqtt://bridge:<redacted>@broker.lan:1883")
        #expect(mqtt.shown("mqtt://broker.lan:1883") == "mqtt://broker.lan:1883")
        #expect(SettingKey("web.token", .text, default: nil, "x").isSecret)
        #expect(SettingKey("mqtt.password_file", .text, default: nil, "x").isSecret)
        do {
            _ = try mqtt.normalize("ftp://bridge:s3cret@broker.lan")
            Issue.record("ftp:// accepted")
        } catch {
            #expect(!error.description.contains("s3cret"))
        }
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

@Suite("Doctor: a config file holding a secret")
struct SecretFileDoctorTests {
    @Test("a world-readable config with push.token is a warning with chmod 600; 0600 is fine; no secret, no finding")
    func secretFileModes() throws {
        let folder = TemporaryFolder()
        let file = folder.write("bridge.toml", """
            [push]
            url = "https://ntfy.example/aquavate"
            token = "tk_abcdef"
            """)
        chmod(file, 0o644)
        let configuration = try Configuration.load(file: file, mustExist: true)
        let finding = try #require(SecretFileCheck.finding(path: file, configuration: configuration, ownGroups: [],
                                                           serviceGroup: nil))
        #expect(finding.status == .warn)
        #expect(finding.detail.contains("push.token") && finding.detail.contains("every user"))
        #expect(finding.fix == "chmod 600 \(file)")
        #expect(!finding.description.contains("tk_abcdef"))
        // Readable by a group that is not the bridge's.
        chmod(file, 0o640)
        let group = try #require(SecretFileCheck.finding(path: file, configuration: configuration, ownGroups: [],
                                                         serviceGroup: nil))
        #expect(group.detail.contains("group"))
        // The service's own group may read it (install.sh: root:aquavate 0640).
        let own = SecretFileCheck.groupName(getegid())
        #expect(SecretFileCheck.finding(path: file, configuration: configuration, ownGroups: [own], serviceGroup: nil) == nil)
        chmod(file, 0o600)
        #expect(SecretFileCheck.finding(path: file, configuration: configuration, ownGroups: [], serviceGroup: nil) == nil)

        let plain = folder.write("plain.toml", "goal_ml = 2500\n")
        chmod(plain, 0o644)
        #expect(SecretFileCheck.finding(path: plain, configuration: try Configuration.load(file: plain, mustExist: true),
                                        ownGroups: [], serviceGroup: nil) == nil)
        // A password inside mqtt.url is a secret too.
        let broker = folder.write("broker.toml", "[mqtt]\nurl = \"mqtt://bridge:s3cret@127.0.0.1\"\n")
        chmod(broker, 0o604)
        let brokerFinding = SecretFileCheck.finding(path: broker, configuration: try Configuration.load(file: broker, mustExist: true),
                                                    ownGroups: [], serviceGroup: nil)
        #expect(brokerFinding?.detail.contains("mqtt.url") == true)
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
        #expect(Redaction.assignment("goal_ml=2000") == "goal_ml=2000")
    }
}
