// What the daemon tells the watchdog (LoopProgress): the bounds behind its marks and waits.

extension BridgeDaemon {
    /// The longest the daemon works after a mark before it marks again or declares a wait: a
    /// step whose own time-outs bound it. The longest such steps are a few D-Bus calls in a row
    /// (25 s each at most: connecting to bluetoothd, GetManagedObjects, starting discovery) and,
    /// inside a session, the quiet between two events (a GATT operation's 10 s, a chunk's 5 s,
    /// the StartNotify calls before the first Current State). Generous, because going past it
    /// costs a restart; a session that stops producing events for this long is stuck.
    package static let watchdogPatience: Duration = .seconds(120)
}
