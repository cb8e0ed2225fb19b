// Secrets off the command line, as a user runs the commands: `household join -` and
// `config set web.token -` read the secret from standard input (here through the shell's own
// printf, which makes no process whose arguments another user could read), `--from-file` from a
// file; and a web token shorter than 16 bytes of entropy is refused with one line that says so.

import BusTestSupport
import Foundation
import History
import TestFixtures
import Testing

@Suite("secrets off the command line")
struct SecretInputTests {
    static let key = HouseholdTestKey.text

    func shell(_ script: String) async throws -> ToolResult {
        try await runTool("/bin/sh", ["-c", script], timeout: .seconds(30))
    }

    @Test("household join - reads the key from standard input; --from-file from a file")
    func joinReadsTheKeyFromStandardInput() async throws {
        let folder = TemporaryFolder()
        let config = folder.path + "/bridge.toml"
        let joined = try await shell("printf '%s\\n' '\(Self.key)' | '\(LiveCommandTests.bridge)' household join - --config '\(config)'")
        #expect(joined.status == 0, "\(joined)")
        #expect(try String(contentsOfFile: config, encoding: .utf8).contains(Self.key))
        #expect(!joined.output.contains(Self.key) && !joined.error.contains(Self.key), "the key is not echoed")

        let other = folder.path + "/other.toml", keyFile = folder.write("key", Self.key + "\n")
        let fromFile = try await runTool(LiveCommandTests.bridge, ["household", "join", "--from-file", keyFile, "--config", other])
        #expect(fromFile.status == 0, "\(fromFile)")
        #expect(try String(contentsOfFile: other, encoding: .utf8).contains(Self.key))

        let none = try await shell("printf '' | '\(LiveCommandTests.bridge)' household join - --config '\(folder.path)/none.toml'")
        #expect(none.status == 2 && none.error.contains("one non-empty line"), "\(none)")
    }

    @Test("config set web.token - reads the token from standard input; a weak token is refused with one clear line")
    func webTokenFromStandardInputAndStrong() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/history.sqlite"
        let token = "9f3c1a7e5b2d4c6e8a0b1d3f5e7c9a2b"  // 32 hex digits: 128 bits
        let set = try await shell("printf '%s\\n' '\(token)' | '\(LiveCommandTests.bridge)' config set web.token - --db '\(db)'")
        #expect(set.status == 0, "\(set)")
        #expect(try DrinkHistory(path: db).settings.value("web.token") == token)
        #expect(!set.output.contains(token), "the token is shown redacted")

        for weak in ["abc", "password1234", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"] {
            let refused = try await runTool(LiveCommandTests.bridge, ["config", "set", "web.token", weak, "--db", db])
            #expect(refused.status != 0, "\(weak): \(refused)")
            #expect(refused.error.contains("16 bytes of entropy"), "\(refused)")
            #expect(refused.error.split(separator: "\n").count == 1, "one line: \(refused.error)")
            #expect(!refused.error.contains(weak), "the refused secret is not repeated")
        }
        #expect(try DrinkHistory(path: db).settings.value("web.token") == token, "a refused token changes nothing")
    }
}
