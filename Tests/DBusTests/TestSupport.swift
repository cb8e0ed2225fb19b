// Helpers shared by the DBus tests: a private bus with connections on it, and waiting for
// things with a deadline (never sleeping to assert timing).
import DBus
import Foundation
import Synchronization
import Testing

/// Runs `body` with a fresh private bus; the bus is killed afterwards whatever happens.
func withPrivateBus<T>(_ body: (PrivateBus) async throws -> T) async throws -> T {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    return try await body(bus)
}

/// A new connection to `bus`.
func connect(_ bus: PrivateBus) async throws -> BusConnection {
    try await BusConnection.connect(.address(bus.address))
}

/// Returns the value of `operation`, or throws if it takes longer than `timeout`.
func within<T: Sendable>(
    _ timeout: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        defer { group.cancelAll() }
        guard let value = try await group.next() ?? nil else {
            throw HarnessFailure(description: "\(what) did not happen within \(timeout)")
        }
        return value
    }
}

/// Polls `condition` until it holds, failing after `timeout`.
func waitUntil(
    _ timeout: Duration = .seconds(10), _ what: String, _ condition: @Sendable () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw HarnessFailure(description: "\(what) did not happen within \(timeout)")
}

/// A value a handler sets on the owner thread and a test reads.
final class Box<T: Sendable>: Sendable {
    private let state: Mutex<T>
    init(_ value: T) { state = Mutex(value) }
    var value: T {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }
    func update<R>(_ body: (inout T) -> R) -> R { state.withLock { body(&$0) } }
}

/// A test interface used by several tests: methods of each handler kind, properties, signals.
enum Example {
    static let interface = "org.example.Test1"
    static let path: DBusObjectPath = "/org/example/object"
}
