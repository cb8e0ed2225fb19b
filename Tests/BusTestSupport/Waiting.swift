// Waiting with a deadline (never sleeping to assert timing), and a private bus per test.
import Foundation

/// Runs `body` with a fresh private bus; the bus is killed afterwards whatever happens.
package func withPrivateBus<T>(_ body: (PrivateBus) async throws -> T) async throws -> T {
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    return try await body(bus)
}

/// Returns the value of `operation`, or throws if it takes longer than `timeout`.
package func within<T: Sendable>(
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
package func waitUntil(
    _ timeout: Duration = .seconds(10), _ what: String, _ condition: @Sendable () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    throw HarnessFailure(description: "\(what) did not happen within \(timeout)")
}
