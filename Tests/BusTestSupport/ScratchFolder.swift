// Helpers for tests that run the built tools and keep files: the repository's files, the built
// aquavate-bridge binary, scratch folders readable by every user (the policy tests run tools as
// other users in them), a child's environment without buses, and whether the test runs as root.
import Foundation

/// The repository root (this file is Tests/BusTestSupport/ScratchFolder.swift).
package let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

package func repositoryFile(_ relativePath: String) -> String {
    repositoryRoot.appendingPathComponent(relativePath).path
}

/// The `aquavate-bridge` built next to the test bundle.
package let bridgeBinary: String = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("aquavate-bridge").path


/// A fresh folder under the temporary directory, readable by every user (the policy tests run
/// tools as other users in it). Removed by `remove()`.
package struct ScratchFolder: Sendable {
    package let url: URL
    package var path: String { url.path }

    package init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
    }

    package func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    package func write(_ text: String, to name: String) throws -> String {
        let path = file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }
}


/// The environment for a child that must see no bus unless the test gives one.
package func environmentWithoutBuses(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for key in ["DBUS_SYSTEM_BUS_ADDRESS", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "JOURNAL_STREAM"] {
        environment.removeValue(forKey: key)
    }
    environment.merge(extra) { $1 }
    return environment
}

/// True when this process runs as root (CI does; the policy, udev and user tests need it).
package var runningAsRoot: Bool { geteuid() == 0 }

/// Fails the current test with a clear reason when not root.
package func requireRoot(_ what: String) throws {
    guard runningAsRoot else {
        throw HarnessFailure(description: "\(what) needs root (it creates users / mount namespaces); CI runs the tests as root")
    }
}
