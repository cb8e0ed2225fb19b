// `doctor` on a config file that holds a secret (push.token, a password in mqtt.url): readable by
// every user or by a group other than the service's, it is a warning with the chmod that fixes
// it, and the finding never shows the secret.

@testable import Diagnostics
import Foundation
import Settings
import TestFixtures
import Testing

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

        let plain = folder.write("plain.toml", "daily_goal_ml = 2500\n")
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
