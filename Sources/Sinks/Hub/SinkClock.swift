// Time as the hub sees it: "now" for log lines and a sleep for back-off. Injected so that tests
// drive the back-off schedule without waiting minutes (CONTRIBUTING rule: no Date() in logic).

import Foundation

public protocol SinkClock: Sendable {
    /// UTC seconds since 1970.
    var now: Double { get }
    /// Suspends for `seconds`; throws `CancellationError` when the task is cancelled.
    func sleep(for seconds: Double) async throws
}

/// The real clock, for the daemon only.
public struct SystemSinkClock: SinkClock {
    public init() {}

    public var now: Double { Date().timeIntervalSince1970 }

    public func sleep(for seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1_000_000_000))
    }
}
