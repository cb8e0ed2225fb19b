// The host's clock: the one place the system time is read. Only the command line, the daemon's
// wiring and the simulator's executable hand it to the logic.

import Foundation

public struct SystemClock: WallClock {
    public init() {}

    public var now: Double { Date().timeIntervalSince1970 }
}
