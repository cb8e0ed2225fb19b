// The demo's accelerated clock: its reading is what the demo last set (a simulated day passes
// in seconds, and every run reads the same instants), while a wait on it takes real time — the
// daemon's connection back-offs and the simulator's radio must still happen.

import Locking
import Timekeeping

final class DemoClock: WallClock {
    private let reading: Locked<WallInstant>

    init(_ start: WallInstant) {
        reading = Locked(start)
    }

    var now: WallInstant { reading.withLock { $0 } }

    /// Moves the reading to `instant`; nothing else happens until the demo asks.
    func set(_ instant: WallInstant) {
        reading.withLock { $0 = instant }
    }
}
