// The broker of docs/household.md, "The second wall", as the household's end-to-end suites set it
// up: the shipped ACL (docs/examples/mosquitto-household.acl) with its users made by
// mosquitto_passwd, `use_username_as_clientid` (a login has one connection), and each bridge with
// its two logins: Home Assistant's in `mqtt.url`, the household's set as the docs set it (the
// password from standard input, never on the command line).

import BusTestSupport
import Foundation
import TestFixtures
import Testing

enum HouseholdBrokerLogins {
    /// Each login's password is `pw-<login>`.
    static let users = ["kitchen", "kitchen-ha", "office", "office-ha", "homeassistant"]

    /// The broker's settings, made in `folder`; `extraACL` is appended to the shipped ACL (a test's
    /// own observer), `extraUsers` get a password too.
    static func settings(_ folder: TemporaryFolder, extraACL: String = "", extraUsers: [String] = []) async throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/examples/mosquitto-household.acl").path
        let acl = try String(contentsOfFile: source, encoding: .utf8)
        #expect(acl.contains("#     use_username_as_clientid true"), "the documented broker ties each session to its login")
        let aclPath = folder.write("aquavate.acl", acl + extraACL)
        let passwords = folder.path + "/aquavate.passwd"
        #expect(FileManager.default.createFile(atPath: passwords, contents: Data()))
        for user in users + extraUsers {
            let made = try await runTool("/usr/bin/mosquitto_passwd", ["-b", passwords, user, "pw-\(user)"], timeout: .seconds(10))
            #expect(made.status == 0, "\(made)")
        }
        return "per_listener_settings false\nuse_username_as_clientid true\npassword_file \(passwords)\nacl_file \(aclPath)\nlog_type all\n"
    }

    /// A bridge's `mqtt.url`: Home Assistant's login of bridge `id`.
    static func url(_ id: String, _ port: Int) -> String { "mqtt://\(id)-ha:pw-\(id)-ha@127.0.0.1:\(port)" }

    /// Each bridge's household login, as the docs set it: the password from standard input.
    static func setHouseholdLogins(_ parts: HouseholdOfTwo.Parts) async throws {
        for (db, id) in [(parts.kitchenDB, "kitchen"), (parts.officeDB, "office")] {
            let set = try await runTool("/bin/sh", ["-c", "'\(LiveCommandTests.bridge)' config set household.mqtt_username \(id) --db '\(db)' && "
                                                    + "printf '%s\\n' 'pw-\(id)' | '\(LiveCommandTests.bridge)' config set household.mqtt_password - --db '\(db)'"],
                                        timeout: .seconds(30))
            #expect(set.status == 0 && !set.output.contains("pw-\(id)"), "\(set)")
        }
    }
}
