// The history holds tokens, so other local users must not read it: `config set web.token` run by
// hand wrote history.sqlite 0644 in a 0755 folder, so any local user could read the tokens stored
// in it, and `doctor` looked only at the config file. Now the history, its `-wal` and `-shm`, and
// the folders made for it are private whatever the umask (here the worst, 000), and `doctor` names
// an open history or folder with the fix. Real processes: the bridge's `config set`, `serve` and
// `doctor`.

import BusTestSupport
import Foundation
import ProcessSupport
import Testing

@Suite("history privacy")
struct HistoryPrivacyTests {
    /// The bridge run through `sh` with umask 000.
    private func bridgeWithOpenUmask(_ arguments: [String]) async throws -> ToolResult {
        try await runTool("/bin/sh", ["-c", "umask 000; exec \"$0\" \"$@\"", bridgeBinary] + arguments,
                          environment: environmentWithoutBuses())
    }

    /// The permission bits of `path`, -1 when it cannot be read.
    private func mode(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_mode & 0o777) : -1
    }

    @Test("config set and serve create the history, its -wal/-shm and its folders private under umask 000")
    func createdPrivate() async throws {
        let scratch = try ScratchFolder("privacy")
        defer { scratch.remove() }
        let db = scratch.file("data/aquavate/history.sqlite")
        let set = try await bridgeWithOpenUmask(["config", "set", "web.token", "stored-secret-1-of-a-long-web-token", "--db", db])
        #expect(set.status == 0, "\(set)")
        #expect(mode(db) == 0o600, "history.sqlite is \(String(mode(db), radix: 8))")
        #expect(mode(scratch.file("data/aquavate")) == 0o700)
        #expect(mode(scratch.file("data")) == 0o700)

        // The history opened by a long-running command: its -wal and -shm while it runs.
        let other = db
        let log = scratch.file("serve.log")
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let server = try ChildProcess.spawn("/bin/sh", ["-c", "umask 000; exec \"$0\" \"$@\"", bridgeBinary,
                                                        "serve", "--db", other, "--http", "127.0.0.1:0"],
                                            environment: environmentWithoutBuses(), output: try FileHandle(forWritingTo: URL(fileURLWithPath: log)),
                                            error: try FileHandle(forWritingTo: URL(fileURLWithPath: log)))
        defer { server.killNow() }
        try await waitUntil(.seconds(30), "serve to listen (\((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))") {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("serving http://")
        }
        for file in [other, other + "-wal", other + "-shm"] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file)")
            #expect(mode(file) == 0o600, "\(file) is \(String(mode(file), radix: 8))")
        }
    }

    @Test("doctor names a history and a folder other users can read, with the chmod that closes them")
    func doctorNamesAnOpenHistory() async throws {
        let scratch = try ScratchFolder("privacy-doctor")
        defer { scratch.remove() }
        let db = scratch.file("history/history.sqlite")
        let set = try await runTool(bridgeBinary, ["config", "set", "push.token", "stored-secret-2", "--db", db],
                                    environment: environmentWithoutBuses())
        #expect(set.status == 0, "\(set)")
        let folder = scratch.file("history")
        let closed = try await runTool(bridgeBinary, ["doctor", "--db", db, "--set", "desktop.enabled=false"],
                                       environment: environmentWithoutBuses(["XDG_CONFIG_HOME": scratch.path]))
        #expect(closed.lines.contains("ok    history privacy: \(db) and its folder are closed to other users"), "\(closed)")

        // As an older bridge (or a copy) left it.
        chmod(db, 0o644)
        chmod(folder, 0o755)
        let open = try await runTool(bridgeBinary, ["doctor", "--db", db, "--set", "desktop.enabled=false"],
                                     environment: environmentWithoutBuses(["XDG_CONFIG_HOME": scratch.path]))
        let lines = open.lines.filter { $0.contains("history privacy") }
        #expect(lines.contains { $0.hasPrefix("warn  history privacy: other users can read the history") && $0.contains("\(db) (mode 644, every user)")
            && $0.hasSuffix("fix: chmod 600 \(db)") }, "\(open)")
        #expect(lines.contains("warn  history privacy: every user can enter the history's folder \(folder) (mode 755); fix: chmod 700 \(folder)"), "\(open)")
        #expect(!open.output.contains("stored-secret-2"))
    }
}
