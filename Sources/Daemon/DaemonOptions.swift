// What `aquavate-bridge run` was asked to do.

import BlueZ
import BottleSession
import DBus
import HostClock

package struct DaemonOptions: Sendable {
    /// The bus BlueZ is on (tests and `demo`: a private bus).
    package var bus: BusAddress = .system
    /// A connection to BlueZ on `bus` begun before the daemon was (`run`: while the history
    /// opened); the loop's first pass takes it instead of connecting.
    package var bluezHeadStart: BlueZHeadStart?
    /// `--adapter hciN`; nil: the first powered LE-central adapter.
    package var adapter: String?
    /// `--once`: sync once and stop.
    package var once = false
    /// With `--once`: the whole run ends by then, synced or not (`run --once` sets 120 s).
    package var onceTimeout: Duration?
    /// With `--once`: failed sessions (or connects) to retry before giving up (`demo` with
    /// faults); `run --once` gives up at the first.
    package var onceRetries = 0
    /// With `--once`: failed sessions (the bottle slept mid-sync, the link dropped, bluetoothd
    /// restarted) to retry when the bottle advertises again, within `onceTimeout`.
    package var onceSessionRetries = 3
    /// `--record FILE`: a capture of every session.
    package var recordPath: String?
    /// `--bottle ADDRESS`: only this bottle.
    package var bottleAddress: String?
    /// `--adopt`: take the next bottle seen, even if another was adopted before.
    package var adoptAny = false
    /// After a session, leave the bottle alone this long (it stays awake while we talk to it;
    /// reading Sync Control counts as activity, docs/protocol.md 1.4).
    package var cooldown: Duration = .seconds(60)
    /// After a failed session, wait this long before looking again (the link dropped or the
    /// bottle slept; it was all stored, and the bottle will send the rest again).
    package var failedSessionPause: Duration = .seconds(5)
    /// Discovery is restarted after this long without an advertisement (docs/bluez.md F16: a scanner
    /// can go silent while `Discovering` stays true). The bottle advertises only when picked up,
    /// so hours of silence are normal; a restart every few minutes costs two D-Bus calls.
    package var scanRefresh: Duration = .seconds(300)
    /// Fetch the bottle's activity statistics after each sync (docs/protocol.md 6.6, `bottle activity`).
    package var fetchActivity = true
    package var connectPolicy: ConnectPolicy = .standard
    package var sessionTiming: SessionTiming = .standard
    /// Whether this machine's clock is synchronised: SET_TIME is withheld while it is not.
    /// The kernel's answer; tests and `demo` give a fixed one.
    package var clockSync: any ClockSyncSource = KernelClockSync()
    /// What writes the capture header's `source`.
    package var source = "aquavate-bridge"

    package init() {}
}

/// How `run` ended.
package enum DaemonOutcome: Sendable, Equatable {
    /// A session ended well (synced, nothing to sync, or wedged): the summary line.
    case succeeded(String)
    /// The one-line reason.
    case failed(String)
    /// Stopped by a signal before anything was decided.
    case stopped
}
