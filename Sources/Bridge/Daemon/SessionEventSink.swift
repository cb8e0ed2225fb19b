// What the daemon does with a session's events: keep the bottle's row current (state, goal,
// last sync), feed the reminder engine (REMINDERS.md: after-sync rules, low battery), and log
// the new drinks. Events are handled one at a time, in the order the session sent them.

import AquavateProtocol
import BottleSession
import Foundation
import History
import Logging

struct SessionEventSink: Sendable {
    let history: DrinkHistory
    let desk: ReminderDesk
    let bottleID: String
    let logger: Logger

    /// Starts the consumer; yield into the continuation, finish it, then await the task.
    func start() -> (AsyncStream<SessionEvent>.Continuation, Task<Void, Never>) {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream()
        let task = Task {
            var states = StateCoalescing()
            for await event in stream {
                if case .currentState(let state, let time) = event {
                    await heard(state, at: time, &states)
                    continue
                }
                if case .syncEnded = event { write(&states) }
                await handle(event)
            }
            write(&states)
        }
        return (continuation, task)
    }

    /// Current States come as fast as the bottle sends them (a bottle that floods them made one
    /// synchronous database write each, issue 11): the bottle's row is written at most once a
    /// second of session time, the last one always (at the end of a sync and of the session), and
    /// the reminder engine hears a state only when the low-battery flag differs from the last.
    struct StateCoalescing {
        var pending: (state: CurrentState, time: Double)?
        var lastWritten = -Double.infinity
        var lastLowBattery: Bool?
    }

    private func heard(_ state: CurrentState, at time: Double, _ states: inout StateCoalescing) async {
        states.pending = (state, time)
        if time - states.lastWritten >= 1 { write(&states) }
        let low = state.flags.contains(.lowBattery)
        if !state.isPlaceholder && states.lastLowBattery != low {
            states.lastLowBattery = low
            await desk.currentState(lowBattery: low, batteryPercent: Int(state.batteryPercent), at: time)
        }
    }

    private func write(_ states: inout StateCoalescing) {
        guard let (state, time) = states.pending else { return }
        states.pending = nil
        states.lastWritten = time
        let snapshot = CurrentStateSnapshot(
            receivedAt: time, bottleTime: state.timestamp, dailyTotalML: Int(state.dailyTotalML),
            bottleLevelML: Int(state.bottleLevelML), batteryPercent: Int(state.batteryPercent),
            unsyncedCount: Int(state.unsyncedCount), flagsRaw: state.flags.rawValue)
        update { $0.state = snapshot; $0.lastSeen = time }
    }

    private func handle(_ event: SessionEvent) async {
        switch event {
        case .currentState:
            break  // coalesced in `heard`
        case .battery(let percent, _):
            logger.debug("\(bottleID): battery \(percent) %")
        case .bottleConfig(let config, let time):
            update { $0.goalML = Int(config.dailyGoalML) }
            await desk.bottleGoal(Int(config.dailyGoalML), at: time)
        case .stored(let results, _):
            let new = results.filter(\.isNew)
            for result in new {
                let record = result.record
                let when = Date(timeIntervalSince1970: Double(record.timestamp)).ISO8601Format()
                logger.info("drink #\(record.recordID) at \(when): \(record.amountML) ml\(record.isDeleted ? " (deleted)" : "")")
            }
            for result in results where result.outcome == .conflicting {
                logger.warning("record #\(result.record.recordID) at \(result.record.timestamp) differs from the stored copy; the first copy is kept")
            }
            if !new.isEmpty { await desk.historyChanged() }
            for result in new where !result.record.isDeleted { await desk.drinkStored(result.record) }
        case .syncEnded(let round):
            logger.info("sync \(round.outcome.rawValue): \(round.records) record(s) in \(round.chunks) chunk(s), \(round.newRecords) new")
            if round.outcome == .complete { update { $0.lastSync = round.endedAt } }
            await desk.syncEnded(at: round.endedAt, newRecords: round.newRecords)
        }
    }

    private func update(_ change: (inout BottleRecord) -> Void) {
        do {
            _ = try history.updateBottle(id: bottleID) { change(&$0) }
        } catch {
            logger.warning("could not update the bottle's record: \(error)")
        }
    }
}
