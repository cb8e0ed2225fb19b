// Is this machine's clock synchronised? The kernel's answer, as `timedatectl` gives it
// ("System clock synchronized"): adjtimex(2) with no change requested returns TIME_ERROR, or
// sets STA_UNSYNC, until an NTP client (systemd-timesyncd, chrony, ntpd) has disciplined the
// clock. A Raspberry Pi has no real-time clock: until then it shows the time it was shut down
// at (fake-hwclock), or 1970.

import CTimex
import Glibc

package enum ClockSync: Sendable, Equatable {
    case synchronised
    case notSynchronised
    /// The kernel could not be asked (a seccomp filter such as systemd's ProtectClock= refuses
    /// even a read-only adjtimex); why, in words.
    case unknown(String)
}

/// Where the answer comes from: the kernel for the bridge, a fixed answer in tests.
package protocol ClockSyncSource: Sendable {
    func read() -> ClockSync
}

/// The kernel's NTP state, read with adjtimex(2) (modes 0: reads, needs no privilege).
package struct KernelClockSync: ClockSyncSource {
    package init() {}

    package func read() -> ClockSync {
        var state = timex()
        state.modes = 0
        let result = adjtimex(&state)
        if result == -1 {
            return .unknown("adjtimex failed: \(String(cString: strerror(errno)))")
        }
        return result == TIME_ERROR || state.status & STA_UNSYNC != 0 ? .notSynchronised : .synchronised
    }
}

/// A fixed answer (tests, and `--assume-clock` style overrides).
package struct FixedClockSync: ClockSyncSource {
    package let answer: ClockSync
    package init(_ answer: ClockSync) { self.answer = answer }
    package func read() -> ClockSync { answer }
}
