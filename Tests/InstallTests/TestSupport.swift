// Helpers for the installation tests: the repository's files, short-lived tools with a time-out,
// scratch folders, and the built aquavate-bridge binary.
//
// These tests install nothing into the system. The only system state they touch is what the brief
// for the Raspberry Pi work requires for an honest D-Bus policy test: throw-away users (created
// and deleted by SystemAccounts) and the `bluetooth` group (created if missing, left in place,
// as bluez's package would have created it).
import Foundation
import Testing
import BusTestSupport

/// The repository root (this file is Tests/InstallTests/TestSupport.swift).
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func repositoryFile(_ relativePath: String) -> String {
    repositoryRoot.appendingPathComponent(relativePath).path
}

/// The `aquavate-bridge` built next to the test bundle.
let bridgeBinary: String = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("aquavate-bridge").path


/// A fresh folder under the temporary directory, readable by every user (the policy tests run
/// tools as other users in it). Removed by `remove()`.
struct ScratchFolder {
    let url: URL
    var path: String { url.path }

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    func write(_ text: String, to name: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}


/// The environment for a child that must see no bus unless the test gives one.
func environmentWithoutBuses(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in ["DBUS_SYSTEM_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "JOURNAL_STREAM"] {
        environment.removeValue(forKey: key)
    }
    environment.merge(extra) { $1 }
    return environment
}

/// True when this process runs as root (CI does; the policy, udev and user tests need it).
var runningAsRoot: Bool { geteuid() == 0 }

/// Fails the current test with a clear reason when not root.
func requireRoot(_ what: String) throws {
    try #require(runningAsRoot, "\(what) needs root (it creates users / mount namespaces); CI runs the tests as root")
}
