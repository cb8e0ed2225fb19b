// Time as a session sees it: injected, so that tests drive it and nothing reads the system clock
// inside the logic.

import Foundation

/// UTC seconds since 1970.
public protocol WallClock: Sendable {
    var now: Double { get }
}

/// The real clock, for the daemon.
public struct SystemWallClock: WallClock {
    public init() {}
    public var now: Double { Date().timeIntervalSince1970 }
}
