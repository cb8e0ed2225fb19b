// The one path for bottle traffic, live and replayed (docs/design.md 1): the live session and replay
// both hand it what the bottle said, through the one `BottleObserver` protocol — Current States, its configuration, the battery, each
// chunk to store, the end of each sync — and it does everything the bridge does with that:
// keeps the bottle's row current, leaves out the all-zero placeholder the bottle sends after
// waking, stores a chunk in one write transaction (an id reset noticed inside it), reports the
// sync's outcome, feeds the reminders, and says what happened as `BridgeEvent`s (replay prints
// them; the daemon logs them). Because both paths go through here, a recording replays to the
// same history, the same events and the same notifications as the live run that made it.

import AquavateProtocol
import Timekeeping
import BottleSession
import History
import Locking
import Logging
import Reports

package final class BottleIngest: BottleObserver, Sendable {
    package let history: DrinkHistory
    /// The bottle's key: its address until Device Information gives its serial.
    package var bottleID: String { state.withLock { $0.bottleID } }
    /// How the log names the bottle: its advertised name when known (one name although the key
    /// changes from address to serial), else its key.
    package let name: String?
    var bottleName: String { name ?? bottleID }
    let logger: Logger
    private let emit: @Sendable (BridgeEvent) -> Void
    private let remind: @Sendable (ReminderInput) -> Void
    private let state: Locked<IngestState>

    private struct IngestState {
        var bottleID: String
        /// The last Current State not yet written to the bottle's row (written at most once a
        /// second of bottle-traffic time: a bottle that floods Current State made one synchronous
        /// database write each).
        var pendingState: (state: CurrentState, time: WallInstant)?
        var lastStateWritten = WallInstant(secondsSince1970: -.infinity)
        /// The low-battery flag last told to the reminders, and when.
        var lastLowBattery: Bool?
        var lastReminderState = WallInstant(secondsSince1970: -.infinity)
        /// New records committed by the sync in progress (the after-sync rules need them).
        var newRecordsInSync = 0
        /// Records quarantined by the sync in progress (its `sync` event says how many).
        var quarantinedInSync = 0
        /// When the last chunk was stored (its records' arrival).
        var lastStoredAt: WallInstant = .epoch
        /// Seconds the bottle's stamps run ahead by a whole-hour zone offset, from this
        /// connection's clock comparison; nil until one was made (then the last stored one).
        var timeShift: Int?
        /// What this connection's syncs ended with: a structural refusal, or a complete sync.
        var connectionRefusal: String?
        var connectionCompleted = false
        /// `unsynced_count` of this connection's last Current State (a bottle synced elsewhere,
        /// by the phone app, has nothing left to refuse).
        var lastUnsynced: Int?
    }

    /// - Parameters:
    ///   - emit: what happened, as the JSON events of docs/design.md 3.4.
    ///   - remind: what the reminder side must hear.
    package init(history: DrinkHistory, bottleID: String, name: String? = nil, logger: Logger,
                emit: @escaping @Sendable (BridgeEvent) -> Void, remind: @escaping @Sendable (ReminderInput) -> Void) {
        self.history = history
        self.name = name.flatMap { $0.isEmpty ? nil : $0 }
        self.state = Locked(IngestState(bottleID: bottleID))
        self.logger = logger
        self.emit = emit
        self.remind = remind
    }

    // MARK: What the bottle says

    /// A Current State, read or notified. The all-zero value a bottle holds right after it wakes
    /// (docs/protocol.md B6, TV2) says nothing: it is reported as heard, but neither kept nor shown to the
    /// reminders (it would clear the low-battery flag, and the next real state alert again).
    package func heard(_ current: CurrentState, at time: WallInstant) {
        emit(.state(.init(time: time, dailyTotalML: Int(current.dailyTotalML), bottleLevelML: Int(current.bottleLevelML),
                          battery: Int(current.batteryPercent), unsynced: Int(current.unsyncedCount), flags: current.flags.names)))
        guard !current.isPlaceholder else { return }
        let low = current.flags.contains(.lowBattery)
        let (write, tell) = state.withLock { state -> (Bool, Bool) in
            state.pendingState = (current, time)
            state.lastUnsynced = Int(current.unsyncedCount)
            let tell = state.lastLowBattery != low || time - state.lastReminderState >= .seconds(1)
            if tell {
                state.lastLowBattery = low
                state.lastReminderState = time
            }
            return (time - state.lastStateWritten >= .seconds(1), tell)
        }
        if write { writePendingState() }
        if tell { remind(.currentState(lowBattery: low, batteryPercent: Int(current.batteryPercent), at: time)) }
    }

    /// The bottle's configuration. Returns false when its goal is not one the bottle can hold
    /// (1000–4000 ml; a goal of 0 would switch the reminders off): then nothing is taken from it.
    @discardableResult
    package func heard(_ config: BottleConfig, at time: WallInstant) -> Bool {
        guard let goal = config.plausibleGoalML else {
            logger.warning("\(bottleName): the bottle's goal of \(config.dailyGoalML) ml is outside \(BottleGoal.rangeText); ignored")
            return false
        }
        updateRow {
            $0.goalML = goal
            $0.calibrated = config.isWritableScale
            $0.scale = config.isWritableScale ? Double(config.scaleFactor) : nil
        }
        remind(.bottleGoal(goal, at: time))
        return true
    }

    /// The battery percentage (Battery1 or the GATT Battery Level), kept with the bottle. Both
    /// sources say 0 % until the bottle's first state rebuild after a wake (docs/protocol.md 2.1),
    /// so a 0 is not taken as a figure.
    package func heardBattery(_ percent: Int, at time: WallInstant) {
        guard (1...100).contains(percent) else { return }
        updateRow { $0.battery = percent }
    }

    /// Device Information: the serial becomes the bottle's key, and everything stored under its
    /// address moves to it (one transaction; a drink stored under both is kept once).
    package func heard(_ identity: BottleIdentity, at time: WallInstant) {
        if let serial = identity.serial {
            let old = bottleID
            if serial != old {
                writePendingState()
                do {
                    if try history.bottles.move(from: old, toSerial: serial) {
                        logger.info("\(name ?? old) has the serial number \(serial) (it was known by its address \(old)): its history is kept under the serial")
                    }
                    state.withLock { $0.bottleID = serial }
                    remind(.identified(previous: old, serial: serial, at: time))
                } catch {
                    logger.warning("could not move bottle \(old) to its serial \(serial): \(error); it stays under \(old)")
                }
            }
        }
        updateRow { bottle in
            if let serial = identity.serial, bottle.id == serial { bottle.serial = serial }
            bottle.firmware = identity.firmware ?? bottle.firmware
            bottle.model = identity.model ?? bottle.model
        }
    }

    /// Device Settings: the shake-to-empty switch.
    package func heard(_ settings: DeviceSettings, at time: WallInstant) {
        updateRow { $0.shakeToEmpty = settings.shakeToEmptyEnabled }
    }

    /// How far the bottle's clock was from the bridge's at connection (docs/protocol.md 5.2). A
    /// whole-hour offset is a time-zone offset set over USB: every stamp the bottle makes is that
    /// far ahead, so drinks are stored that much earlier (their own stamp kept), and a person's
    /// days stay their days. A drift is mended by SET_TIME and shifts nothing.
    package func heard(_ offset: BottleClockOffset, at time: WallInstant) {
        updateRow { $0.clockOffset = offset.seconds }
        let shift: Int
        if case .zone = offset { shift = offset.seconds } else { shift = 0 }
        state.withLock { $0.timeShift = shift }
    }

    /// The zone shift to take off this bottle's stamps: this connection's comparison, else the
    /// last one stored (a connection whose Current State was still the all-zero placeholder).
    private func timeShift() -> Int {
        if let shift = state.withLock({ $0.timeShift }) { return shift }
        let stored = (try? history.bottles.bottle(id: bottleID))?.clockOffset.map(BottleClockOffset.init(storedSeconds:))
        let shift: Int
        if case .zone(let hours)? = stored { shift = hours * 3600 } else { shift = 0 }
        state.withLock { $0.timeShift = shift }
        return shift
    }

    /// What an activity fetch returned.
    package func heardActivity(motion: [MotionEvent], backpack: [BackpackSession], at time: WallInstant) {
        do {
            let new = try history.bottles.storeActivity(bottle: bottleID, motion: motion, backpack: backpack)
            if new.motion + new.backpack > 0 {
                logger.info("\(bottleName): \(new.motion) new wake-up(s), \(new.backpack) new backpack session(s)")
            }
        } catch {
            logger.warning("could not store the bottle's activity: \(error)")
        }
    }

    // MARK: Storing

    /// One chunk's records, in one write transaction committed when this returns (the session
    /// ACKs after it); what they mean is said by
    /// `committed`, which the session calls once the ACK is written.
    ///
    /// A record that cannot be a drink (`RecordBounds`, at `storedAt`: the session's clock live,
    /// the capture's in replay) is quarantined in the same transaction; the chunk is still
    /// acknowledged, so one odd record never holds the bottle's later drinks back.
    package func store(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant) throws -> [StoreResult] {
        let stored = try history.drinks.storeChunk(records, bottle: bottle, at: storedAt,
                                            bounds: RecordBounds(now: storedAt.secondsSince1970), timeShift: timeShift())
        if stored.idsRestarted {
            logger.notice("\(name ?? bottle): record ids restarted at #\(records[0].recordID) (the bottle's history was cleared)")
        }
        let new = stored.results.count { $0.isNew }
        let quarantined = stored.results.count { $0.outcome.isQuarantined }
        state.withLock {
            $0.newRecordsInSync += new
            $0.quarantinedInSync += quarantined
            $0.lastStoredAt = storedAt
        }
        return stored.results
    }

    /// A committed chunk said: a drink event for each record (the journal's lines, replay's
    /// output), and one input for the reminders with the chunk's new drinks, so that the reminder
    /// side wakes once a chunk, not once a drink.
    package func committed(_ results: [StoreResult], bottle: String) {
        for result in results {
            if result.outcome == .conflicting {
                logger.warning("record #\(result.record.recordID) at \(result.record.timestamp) differs from the stored copy; the first copy is kept")
            }
            let record = result.record
            switch result.outcome {
            case .quarantined(let problems, let isNew):
                let reason = RecordBounds.reason(problems, of: record)
                if isNew {
                    logger.warning("\(name ?? bottle): record #\(record.recordID) cannot be a drink (\(problems.map(\.rawValue).joined(separator: ", "))); quarantined, the rest of its chunk is stored; `aquavate-bridge history --quarantined` lists it")
                }
                emit(.quarantined(.init(bottle: bottle, recordID: record.recordID, time: state.withLock { $0.lastStoredAt },
                                        reason: reason, problems: problems, raw: record.encoded(), isNew: isNew)))
                continue
            case .strayTombstone:
                logger.info("\(name ?? bottle): a deleted record #\(record.recordID) that names no drink (erased flash, docs/protocol-vectors.md TV11); nothing to delete")
                continue
            default:
                break
            }
            emit(.drink(.init(Drink(record, bottle: bottle), isNew: result.isNew)))
        }
        let new = results.filter(\.isNew)
        if !new.isEmpty { remind(.stored(newDrinks: new.map(\.record).filter { !$0.isDeleted })) }
    }

    /// A sync ended (its outcome from `SyncProgress.outcome`, the one rule).
    ///
    /// `refusal`: why a chunk was refused unacknowledged (a structural fault, docs/design.md
    /// 3.4), when one was; the connection's end counts it towards "stuck".
    package func syncEnded(_ outcome: SyncOutcome, records: Int, chunks: Int, refusal: String? = nil, at time: WallInstant) {
        writePendingState()
        let (added, quarantined) = state.withLock { state -> (Int, Int) in
            defer {
                state.newRecordsInSync = 0
                state.quarantinedInSync = 0
            }
            if outcome == .complete { state.connectionCompleted = true }
            if let refusal { state.connectionRefusal = refusal }
            return (state.newRecordsInSync, state.quarantinedInSync)
        }
        emit(.sync(.init(time: time, records: records, chunks: chunks, outcome: outcome, quarantined: quarantined)))
        if outcome == .complete { updateRow { $0.lastSync = time } }
        remind(.syncEnded(at: time, newRecords: added))
    }

    /// The connection ended (or the capture did): what is pending is written, and the
    /// connection counts towards the bottle being stuck, or clears it.
    package func disconnected(at time: WallInstant) {
        writePendingState()
        let (refusal, completed) = state.withLock { state -> (String?, Bool) in
            defer {
                state.connectionRefusal = nil
                state.connectionCompleted = false
                state.timeShift = nil
                state.lastUnsynced = nil
            }
            return (state.connectionRefusal, state.connectionCompleted || state.lastUnsynced == 0)
        }
        if let refusal {
            noteRefusal(refusal, at: time)
        } else if completed {
            var cleared: SyncRefusal?
            updateRow { bottle in
                cleared = bottle.refusal
                bottle.refusal = nil
            }
            if let cleared, cleared.isStuck {
                logger.notice("\(bottleName) is no longer stuck: a sync completed, or the bottle has nothing left to sync")
            }
        }
    }

    /// One more connection ended by a structural refusal: the same one as before counts on
    /// (3 in a row: the bottle is stuck, said in the journal at each such connection), a new
    /// one starts again at 1.
    private func noteRefusal(_ reason: String, at time: WallInstant) {
        var now: SyncRefusal?
        var unsynced: Int?
        updateRow { bottle in
            if var refusal = bottle.refusal, refusal.reason == reason {
                refusal.connections += 1
                bottle.refusal = refusal
            } else {
                bottle.refusal = SyncRefusal(reason: reason, since: time, connections: 1)
            }
            now = bottle.refusal
            unsynced = bottle.state?.unsyncedCount
        }
        guard let now, now.isStuck else { return }
        logger.error("\(now.line(bottle: bottleID, unsynced: unsynced, timeZone: .gmt))")
    }

    /// Says something as a `BridgeEvent` (the command results of BottleIngest+Commands).
    func emitEvent(_ event: BridgeEvent) { emit(event) }

    // MARK: The bottle's row

    private func writePendingState() {
        guard let (current, time) = state.withLock({ state -> (CurrentState, WallInstant)? in
            defer { state.pendingState = nil }
            if let pending = state.pendingState { state.lastStateWritten = pending.time }
            return state.pendingState
        }) else { return }
        let snapshot = CurrentStateSnapshot(
            receivedAt: time, bottleTime: current.timestamp, dailyTotalML: Int(current.dailyTotalML),
            bottleLevelML: Int(current.bottleLevelML), batteryPercent: Int(current.batteryPercent),
            unsyncedCount: Int(current.unsyncedCount), flagsRaw: current.flags.rawValue)
        updateRow { bottle in
            // A Current State says 0 % until the bottle's first rebuild after a wake (2.1).
            if snapshot.batteryPercent > 0 { bottle.battery = min(snapshot.batteryPercent, 100) }
            bottle.state = snapshot
            bottle.lastSeen = time
        }
    }

    /// A fact the bottle states again at every connection: committed without an fsync of its own
    /// (`BottleStore.update`); the next chunk's FULL commit syncs it along.
    func updateRow(_ change: (inout BottleRecord) -> Void) {
        do {
            _ = try history.bottles.update(id: bottleID, durability: .normal) { change(&$0) }
        } catch {
            logger.warning("could not update the bottle's record: \(error)")
        }
    }
}
