// What ends an `EventQueue` wait when its time is up, handed to the queue by whoever makes it.
//
// Why injected, and why here: only the Timekeeping module reads the clock or waits on it, so
// that tests and replay drive time (Tests/ArchitectureTests, OneClockTests). Timekeeping sits on
// this module (its manual clock locks with `Locked`), so the queue cannot take Timekeeping's
// clock; it asks for a timer through this protocol instead, and Timekeeping's clocks implement
// it (`SystemClock` with a libdispatch timer, `ManualClock` when a test moves it). The queue
// itself reads no clock, and a test that steps its clock steps the queue's time-outs with it.

package protocol WaitTimer: Sendable {
    /// Calls `expire` once, `timeout` from now, unless the returned cancel is called first.
    /// The cancel is called as soon as the wait ends: a timer left pending until its deadline
    /// holds its memory all that while (the daemon waits up to minutes, thousands of times).
    func startTimer(after timeout: Duration, _ expire: @escaping @Sendable () -> Void) -> () -> Void
}
