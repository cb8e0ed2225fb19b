// Throw-away users for the D-Bus policy tests, and the `bluetooth` group they need.
//
// useradd/groupadd/userdel lock /etc/passwd; two at once fail with "cannot lock /etc/passwd", so
// every call here goes through one queue, one tool at a time. The tools are awaited without
// blocking a thread (ProcessSupport's ChildProcess says why that matters).
import BusTestSupport
import Foundation

enum SystemAccounts {
    private static let queue = OneAtATime()

    struct AccountToolFailed: Error, CustomStringConvertible {
        var command: String
        var status: Int32
        var description: String { "\(command) exited with status \(status); the tests run as root in CI" }
    }

    /// Runs an account tool (one at a time) and waits for it.
    @discardableResult
    private static func run(_ executable: String, _ arguments: [String], allowFailure: Bool = false) async throws -> Int32 {
        try await queue.run {
            let status = try await runTool(executable, arguments).status
            if status != 0, !allowFailure {
                throw AccountToolFailed(command: ([executable] + arguments).joined(separator: " "), status: status)
            }
            return status
        }
    }

    /// A user name no one else has: `aqt` + 8 hex digits + `suffix`.
    static func uniqueName(_ suffix: String) -> String {
        "aqt\(UUID().uuidString.prefix(8).lowercased())\(suffix)"
    }

    /// Creates the `bluetooth` group unless it exists (bluez's package creates it on a real system).
    static func ensureBluetoothGroup() async throws {
        try await run("/usr/sbin/groupadd", ["--force", "--system", "bluetooth"])
    }

    /// Creates a user with its own group and no home, optionally in more groups.
    static func createUser(_ name: String, groups: [String] = []) async throws {
        var arguments = ["--no-create-home", "--user-group", "--shell", "/usr/sbin/nologin"]
        if !groups.isEmpty { arguments += ["--groups", groups.joined(separator: ",")] }
        try await run("/usr/sbin/useradd", arguments + [name])
    }

    /// Deletes a user (and its group); a user already gone is fine.
    static func deleteUser(_ name: String) async {
        _ = try? await run("/usr/sbin/userdel", [name], allowFailure: true)
    }

    static func userExists(_ name: String) -> Bool {
        getpwnam(name) != nil
    }

    /// The command prefix that runs a program as `user` with its groups from /etc/group.
    static func asUser(_ user: String) -> [String] {
        ["--reuid=\(user)", "--regid=\(user)", "--init-groups", "--"]
    }
}

/// Runs async operations strictly one after another, in the order they were asked for.
private actor OneAtATime {
    private var last: Task<Void, Never>?

    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let previous = last
        let task = Task {
            await previous?.value
            return try await operation()
        }
        last = Task { _ = try? await task.value }
        return try await task.value
    }
}
