// What the daemon's loop does between two passes, as two values the loop consults (BridgeDaemon):
//
// * `OnceRetries`: `run --once` ends after its first good session, and gives up after a bounded
//   number of tries: a lost link or a failure once the bottle was seen is waited for (the bottle
//   advertises again when it wakes) a few times, anything else `onceRetries` times.
// * `DaemonBackoff`: how long to wait. What the machine lacks (bluetoothd, permission, an adapter)
//   is tried again after 2 s, doubling to 60 s until it is there; a failed connect or session
//   waits as ConnectPolicy says; a session is followed by its cool-down or pause. Never less than
//   `minimumPause`, so a failure that comes back at once cannot make the loop spin.
//
// Both are plain values: the loop sleeps what they say on its injected clock.

import BlueZ

/// `--once`'s tries.
struct OnceRetries: Equatable {
    /// Failures that are not waited for (what the machine lacks, or a session that failed when
    /// the waits for the bottle are used up).
    var retriesLeft: Int
    /// Lost links and transient failures waited for (docs/bluez.md 7.8).
    var sessionRetriesLeft: Int

    enum Decision: Equatable {
        /// Go round again; `notice` says why, when there is something to say.
        case again(notice: String?)
        case finish(DaemonOutcome)
    }

    /// After a session that ended with `summary`.
    mutating func afterSession(succeeded: Bool, summary: String) -> Decision {
        if succeeded { return .finish(.succeeded(summary)) }
        // A lost link (the bottle slept mid-sync) is the ordinary case, and a failed call often
        // is one that BlueZ answered before it said the link went: what was stored stays, and
        // the bottle advertises again when it wakes, so `--once` waits for it as the daemon would.
        if sessionRetriesLeft > 0 {
            sessionRetriesLeft -= 1
            return .again(notice: "\(summary); waiting for the bottle to advertise again")
        }
        return spend(failing: summary)
    }

    /// After a failure (`line`, one line) outside a session.
    /// - Parameters:
    ///   - isSetUp: what the machine lacks (bluetoothd, permission, an adapter): fails at once
    ///     with its fix, unless `bottleSeen`.
    ///   - bottleSeen: the bottle was seen, so a failed connect or bluetoothd going away (a
    ///     restart) is transient.
    ///   - restarting: bluetoothd is gone from the bus, or back without an adapter yet: what a
    ///     restart of bluetoothd looks like from here.
    mutating func afterFailure(_ line: String, isSetUp: Bool, bottleSeen: Bool, restarting: Bool = false) -> Decision {
        // bluetoothd restarted after the bottle was seen comes back, but on a slow or busy
        // machine later than the few seconds the tries below would give it: it is waited for,
        // the set-up back-off spacing the looks, until --once's time-out ends the run.
        if bottleSeen, restarting { return .again(notice: "\(line); waiting for bluetoothd and its adapter to come back") }
        if bottleSeen || !isSetUp, sessionRetriesLeft > 0 {
            sessionRetriesLeft -= 1
            return .again(notice: "\(line); trying again")
        }
        return spend(failing: line)
    }

    private mutating func spend(failing line: String) -> Decision {
        guard retriesLeft > 0 else { return .finish(.failed(line)) }
        retriesLeft -= 1
        return .again(notice: nil)
    }
}

/// The daemon's waits.
struct DaemonBackoff: Equatable {
    /// The next wait for what the machine lacks.
    private(set) var setUpDelay = Self.firstSetUpDelay

    static let firstSetUpDelay: Duration = .seconds(2)
    static let longestSetUpDelay: Duration = .seconds(60)
    /// The shortest pause between two passes, whatever the error.
    static let minimumPause: Duration = .milliseconds(250)

    /// What the machine lacks: bluetoothd, the permission to use it, an adapter, a central one.
    static func isSetUp(_ error: any Error) -> Bool {
        error is BluetoothServiceUnavailable || error is BluetoothAccessDenied || error is NoBluetoothAdapter
            || error is AdapterNotFound || error is AdapterNotCentral
    }

    /// An adapter was reached: the next set-up failure starts the doubling again.
    mutating func reachedAdapter() { setUpDelay = Self.firstSetUpDelay }

    /// The wait after `error`, and whether it was a set-up failure (logged as an error).
    mutating func wait(after error: any Error, connectPolicy: ConnectPolicy) -> (wait: Duration, isSetUp: Bool) {
        guard Self.isSetUp(error) else { return (max(connectPolicy.backoff(after: error), Self.minimumPause), false) }
        let wait = setUpDelay
        setUpDelay = min(setUpDelay * 2, Self.longestSetUpDelay)
        return (max(wait, Self.minimumPause), true)
    }

    /// The pause after a session: leave the bottle alone for a while (talking keeps it awake);
    /// with several bottles only that one rests (`restsBottle`), and the others may be synced
    /// after the short pause.
    static func pause(afterSession succeeded: Bool, severalBottles: Bool, cooldown: Duration,
                      failedSessionPause: Duration) -> (pause: Duration, restsBottle: Bool) {
        guard succeeded else { return (failedSessionPause, false) }
        return severalBottles ? (failedSessionPause, true) : (cooldown, false)
    }
}
