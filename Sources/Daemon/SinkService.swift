// The sinks as a service of the daemon: started and stopped with it, their commands handed to
// the reminder desk in order.

import ServiceLifecycle
import Sinks
import Timekeeping

/// Runs the sinks for the daemon and hands the person's commands to the desk.
package struct SinkService: Service {
    let hub: SinkHub
    let desk: ReminderDesk
    let clock: any WallClock

    package init(hub: SinkHub, desk: ReminderDesk, clock: any WallClock) {
        self.hub = hub
        self.desk = desk
        self.clock = clock
    }

    package func run() async throws {
        await hub.start()
        let hub = self.hub, desk = self.desk, clock = self.clock
        await withGracefulShutdownHandler {
            for await command in hub.commands {
                await desk.handle(command, at: clock.now)
            }
        } onGracefulShutdown: {
            Task { await hub.stop() }
        }
        await hub.stop()
    }
}
