// Helpers shared by the DBus tests: a private bus with connections on it, and waiting for
// things with a deadline (never sleeping to assert timing).
import DBus
import BusTestSupport
import Foundation
import Locking
import Testing

/// A new connection to `bus`.
func connect(_ bus: PrivateBus) async throws -> BusConnection {
    try await BusConnection.connect(.address(bus.address))
}


/// A value a handler sets on the owner thread and a test reads.
final class Box<T: Sendable>: Sendable {
    private let state: Locked<T>
    init(_ value: T) { state = Locked(value) }
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
