// Throw-away users for the D-Bus policy tests, and the `bluetooth` group they need.
//
// useradd/groupadd/userdel lock /etc/passwd; two at once fail with "cannot lock /etc/passwd", so
// every call here goes through one lock. The tools are short-lived and are waited for in place.
import BusTestSupport
import Foundation
import Synchronization

enum SystemAccounts {
    private static let lock = Mutex(())

    struct AccountToolFailed: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var description: String { "\(command) exited with status \(status); the tests run as root in CI" }
    }

    /// Runs an account tool and waits for it (under the lock).
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String], allowFailure: Bool = false) throws -> Int32 {
        try lock.withLock { _ in
            let tool = Process()
            tool.executableURL = URL(fileURLWithPath: executable)
            tool.arguments = arguments
            tool.standardOutput = FileHandle.nullDevice
            tool.standardError = FileHandle.nullDevice
            try tool.run()
            tool.waitUntilExit()
            if tool.terminationStatus != 0, !allowFailure {
                throw AccountToolFailed(command: ([executable] + arguments).joined(separator: " "),
                                        status: tool.terminationStatus)
            }
            return tool.terminationStatus
        }
    }

    /// A user name no one else has: `aqt` + 8 hex digits + `suffix`.
    static func uniqueName(_ suffix: String) -> String {
        "aqt\(UUID().uuidString.prefix(8).lowercased())\(suffix)"
    }

    /// Creates the `bluetooth` group unless it exists (bluez's package creates it on a real system).
    static func ensureBluetoothGroup() throws {
        try run("/usr/sbin/groupadd", ["--force", "--system", "bluetooth"])
    }

    /// Creates a user with its own group and no home, optionally in more groups.
    static func createUser(_ name: String, groups: [String] = []) throws {
        var arguments = ["--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin"]
        if !groups.isEmpty { arguments += ["--groups", groups.joined(separator: ",")] }
        try run("/usr/sbin/useradd", arguments + [name])
    }

    /// Deletes a user (and its group); a user already gone is fine.
    static func deleteUser(_ name: String) {
        _ = try? run("/usr/sbin/userdel", [name], allowFailure: true)
    }

    static func userExists(_ name: String) -> Bool {
        getpwnam(name) != nil
    }

    /// The command prefix that runs a program as `user` with its groups from /etc/group.
    static func asUser(_ user: String) -> [String] {
        ["--reuid=\(user)", "--regid=\(user)", "--init-groups", "--"]
    }
}
