// Keeps the count of the commands the MQTT sink refused in the history, where `/metrics` and
// `doctor` (other processes too) read it. A flood of refused commands must not become a flood of
// writes: the first refusal after a quiet spell is saved at once, the rest at most every 10 s
// (a timer saves what came after the last save). Counts add to what earlier runs saved.

import History
import Locking
import Logging
import Sinks
import Timekeeping

package final class RefusedCommandLedger: Sendable {
    private struct State {
        var counts: [String: Int]
        var lastSave: MonotonicInstant?
        var savePending = false
    }

    /// The shortest time between two saves.
    static let saveInterval: Duration = .seconds(10)

    private let commands: CommandStore
    private let clock: any WallClock
    private let logger: Logger
    private let state: Locked<State>

    /// Starts from what the history holds, every reason present (a counter that appears at 0);
    /// saved at once when a reason was missing, so `/metrics` shows them before any refusal.
    package init(commands: CommandStore, clock: any WallClock, logger: Logger) {
        self.commands = commands
        self.clock = clock
        self.logger = logger
        var counts = commands.refused()
        let complete = SinkCommandRefusalReason.allCases.allSatisfy { counts[$0.rawValue] != nil }
        for reason in SinkCommandRefusalReason.allCases where counts[reason.rawValue] == nil { counts[reason.rawValue] = 0 }
        state = Locked(State(counts: counts))
        if !complete { save(counts) }
    }

    /// The tally to hand the MQTT sink: each refusal comes here.
    package var refusals: CommandRefusals {
        CommandRefusals { [self] reason in counted(reason) }
    }

    /// One refused command.
    package func counted(_ reason: SinkCommandRefusalReason) {
        let now = clock.instant
        let (saveNow, scheduleIn): ([String: Int]?, Duration?) = state.withLock { state in
            state.counts[reason.rawValue, default: 0] += 1
            if let last = state.lastSave, now - last < Self.saveInterval {
                guard !state.savePending else { return (nil, nil) }
                state.savePending = true
                return (nil, Self.saveInterval - (now - last))
            }
            state.lastSave = now
            return (state.counts, nil)
        }
        if let saveNow { save(saveNow) }
        if let scheduleIn {
            _ = clock.startTimer(after: scheduleIn) { [self] in
                let counts = state.withLock { state -> [String: Int] in
                    state.savePending = false
                    state.lastSave = clock.instant
                    return state.counts
                }
                save(counts)
            }
        }
    }

    /// The counts as now known (saved or about to be).
    package var snapshot: [String: Int] { state.withLock { $0.counts } }

    private func save(_ counts: [String: Int]) {
        do {
            try commands.saveRefused(counts)
        } catch {
            logger.warning("could not save the count of refused MQTT commands: \(error)")
        }
    }
}
