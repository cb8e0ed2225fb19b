// The reminder engine's clock in the daemon: a tick at every whole minute, none in between.

import Foundation
import ServiceLifecycle
import Timekeeping

/// Wakes the reminder engine at every whole minute (and at a notification due between them),
/// and at no other time: an idle daemon sleeps (docs/design.md 5).
package struct ReminderTicker: Service {
    let desk: ReminderDesk
    let clock: any WallClock
    /// Each tick is progress for the watchdog; each sleep a declared wait.
    let heartbeat: Heartbeat

    package init(desk: ReminderDesk, clock: any WallClock, heartbeat: Heartbeat = .unobserved) {
        self.desk = desk
        self.clock = clock
        self.heartbeat = heartbeat
    }

    package func run() async throws {
        let desk = self.desk
        let clock = self.clock
        let heartbeat = self.heartbeat
        try? await cancelWhenGracefulShutdown {
            await desk.advance(to: clock.now)
            heartbeat.mark("reminder tick")
            // Progress: each pass sleeps until the next whole minute (or the next due reminder,
            // always in the future) and advances the desk once.
            while !Task.isCancelled {
                let now = clock.now
                var wake = WallInstant(secondsSince1970: ((now.secondsSince1970 / 60).rounded(.down) + 1) * 60)
                if let due = await desk.nextFireTime, due > now { wake = min(wake, due) }
                let sleep = Duration.milliseconds(Int64(((wake - now).inSeconds * 1000).rounded(.up)))
                heartbeat.waiting(for: sleep, "waiting for the next reminder tick")
                try await clock.sleep(for: sleep)
                await desk.advance(to: clock.now)
                heartbeat.mark("reminder tick")
            }
        }
    }
}
