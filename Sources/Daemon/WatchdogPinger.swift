// The watchdog service of `run` (a Type=notify unit with WatchdogSec=): says READY=1
// once the daemon is up, STOPPING=1 on shutdown, and WATCHDOG=1 every half watchdog time-out, but
// only when `LoopProgress.check()` says every loop got somewhere. (STATUS= goes out from
// LoopProgress's callback whenever the daemon's phase changes; `run` wires it.) A loop that spins
// without progress, or a cooperative pool starved by spinning tasks (this service sleeps and
// wakes on the same pool), stops the pings, and systemd kills the daemon (SIGABRT: a core dump
// shows where it spun) and restarts it.

import Locking
import Logging
import ServiceLifecycle
import Timekeeping

/// One half-interval's decision, apart from the sleeping (tests call `tick` directly).
package final class WatchdogPinger: Sendable {
    private let progress: LoopProgress
    private let manager: any ServiceManager
    private let logger: Logger
    /// The stall being reported, so a stall is logged once and its end once.
    private let reported = Locked<[Stall]?>(nil)

    package init(progress: LoopProgress, manager: any ServiceManager, logger: Logger) {
        self.progress = progress
        self.manager = manager
        self.logger = logger
    }

    /// Pings when the loops made progress; returns whether it pinged.
    @discardableResult
    package func tick() -> Bool {
        switch progress.check() {
        case .ping:
            manager.notify("WATCHDOG=1")
            if reported.withLock({ $0.take() }) != nil { logger.notice("watchdog: progress again; pinging systemd again") }
            return true
        case .stalled(let stalls):
            let first = reported.withLock { old in
                defer { old = stalls }
                return old == nil
            }
            if first {
                let what = stalls.map(\.description).joined(separator: "; ")
                logger.error("watchdog: not pinging systemd, which restarts the service unless progress resumes: \(what)")
            }
            return false
        }
    }
}

/// The pinger as a service of `run`'s group (last in the group, so it starts after the others
/// and is the first told to shut down).
package struct WatchdogService: Service {
    let pinger: WatchdogPinger
    let manager: any ServiceManager
    /// What the pings are spaced on.
    let clock: any WallClock

    package init(progress: LoopProgress, manager: any ServiceManager, logger: Logger, clock: any WallClock = SystemClock()) {
        self.pinger = WatchdogPinger(progress: progress, manager: manager, logger: logger)
        self.manager = manager
        self.clock = clock
    }

    package func run() async throws {
        // The database is open (run opened it before starting the group) and the services run.
        manager.notify("READY=1")
        let pinger = self.pinger
        let clock = self.clock
        if let timeout = manager.watchdogTimeout {
            // Half the time-out, as sd_watchdog_enabled(3) advises: one late wake-up is not fatal.
            let interval = timeout / 2
            try? await cancelWhenGracefulShutdown {
                while true {
                    try await clock.sleep(for: interval)
                    pinger.tick()
                }
            }
        } else {
            try? await gracefulShutdown()
        }
        manager.notify("STOPPING=1")
    }
}
