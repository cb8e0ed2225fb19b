// Replay: turns recorded captures into the bottle traffic the live session reports, and feeds
// it to the same `BottleIngest` the live bridge uses (docs/design.md 1, 3.3), so a recording replays
// to the same history, events and notifications.
//
// The sync is reconstructed from what the capture shows on the wire: the START the client wrote,
// each Drink Data value, each ACK. A chunk's records are committed to the history when the chunk
// arrives, i.e. *before* the ACK that follows it, the same order as the live bridge.
// All the files of one replay form one timeline against one history.
//
// What counts as a rejected input line (and makes `replay` exit non-zero): a line that is not a
// valid capture event, and a value *from the bottle* (read or notification) that does not decode
// as its characteristic's structure. A value the *client* wrote that the bottle would ignore is
// replayed as ignored, with a warning: it is a faithful record of a client's mistake, not bad input.

import AquavateCapture
import AquavateProtocol
import BottleSession
import Foundation
import History
import Logging
import Reminders
import Reminding
import Reports
import Settings
import Timekeeping

// Used from one thread at a time; the ingest calls back synchronously from the replayer's own
// calls, which is why its callbacks may capture it (the ingest's callbacks are @Sendable for the
// daemon, whose session runs on another task than its reminders).
package final class Replayer: @unchecked Sendable {
    package let history: DrinkHistory
    package let configuration: Configuration
    private let emit: (BridgeEvent) -> Void
    private let logger: Logger

    /// Input lines that were rejected so far (malformed lines and undecodable bottle values).
    package private(set) var rejectedLines = 0
    /// Files that could not be opened or imported at all.
    package private(set) var failedFiles = 0

    private var bottleID = "unknown" {
        didSet {
            guard bottleID != oldValue else { return }
            ingestStorage?.disconnected(at: lastEventTime ?? .epoch)
            ingestStorage = nil
        }
    }
    /// The one ingest path, for the current bottle (made again when the capture names another).
    private var ingestStorage: BottleIngest?
    private var sync: SyncProgress?
    /// The activity fetch of the current connection, as the live session makes it.
    private var activity = ActivityReplies()
    /// Whether this connection wrote SET_TIME yet: a Current State read before it is the
    /// bottle's own clock, compared with the capture's as the live session does.
    private var setTimeWritten = false
    private var lastEventTime: WallInstant?
    /// Local days the replayed drinks fall on: one entry per day, however long the capture is.
    private var touchedDays = TouchedDays()
    private var bottleGoalML: Int?
    /// The reminder engine, with `--reminders`: driven on the capture's clock.
    package private(set) var reminders: ReminderRunner?

    package init(history: DrinkHistory, configuration: Configuration, logger: Logger,
                reminders withReminders: Bool = false, emit: @escaping (BridgeEvent) -> Void) {
        self.history = history
        self.configuration = configuration
        self.logger = logger
        self.emit = emit
        if withReminders {
            let storedGoal = (try? history.bottles.all())?.compactMap(\.goalML).first
            bottleGoalML = storedGoal
            // Replay's output is where deliveries go, so it counts as reaching a person (docs/reminders.md 1).
            let (settings, problems) = configuration.reminderSettings(
                bottleGoal: storedGoal, personReachable: true, storedSchedules: StoredSchedules.tables(in: history.schedules))
            for problem in problems { logger.warning("\(problem)") }
            reminders = ReminderRunner(history: history, settings: settings, logger: logger) { delivery in
                emit(.notification(.init(time: delivery.time, id: delivery.id, kind: delivery.kind.rawValue,
                                         title: delivery.title, body: delivery.body, actions: delivery.actions.map(\.id))))
            }
        }
    }

    // MARK: Files

    /// Replays one file: an `.aqcap` capture, or a btsnoop file (recognised by its magic).
    package func replay(path: String, handleMap: [UInt16: Characteristic] = [:]) {
        if BtsnoopImporter.looksLikeBtsnoop(path: path) {
            replayBtsnoop(path: path, handleMap: handleMap)
            return
        }
        let reader: CaptureReader
        do {
            reader = try CaptureReader(path: path)
        } catch {
            failedFiles += 1
            emit(.error(.init(message: "\(error)", file: path, line: nil)))
            return
        }
        for item in reader {
            switch item {
            case .header(let header):
                adopt(header)
            case .event(let event, let line):
                handle(event, file: path, line: line)
            case .error(let error):
                reject(error.message, file: error.file, line: error.line)
            }
        }
    }

    private func replayBtsnoop(path: String, handleMap: [UInt16: Characteristic]) {
        do {
            let imported = try BtsnoopImporter(handleMap: handleMap).importFile(path: path)
            adopt(imported.header)
            for error in imported.errors {
                reject(error.message, file: error.file, line: error.line)
            }
            if !imported.unmappedHandles.isEmpty {
                let handles = imported.unmappedHandles.map { String(format: "0x%04X", $0) }.joined(separator: ", ")
                logger.warning("\(path): ATT traffic on handles \(handles) could not be mapped to a characteristic; pass --handle NAME=0xHHHH")
            }
            for (index, event) in imported.events.enumerated() {
                handle(event, file: path, line: index + 1)
            }
        } catch {
            failedFiles += 1
            emit(.error(.init(message: "\(error)", file: path, line: nil)))
        }
    }

    private func adopt(_ header: CaptureHeader) {
        if let address = header.deviceAddress, !address.isEmpty {
            bottleID = address.uppercased()
        } else if let name = header.deviceName, !name.isEmpty {
            bottleID = name
        }
        updateBottle { bottle in
            bottle.name = header.deviceName ?? bottle.name
            bottle.address = header.deviceAddress?.uppercased() ?? bottle.address
        }
    }

    // MARK: Events

    private func handle(_ event: CaptureEvent, file: String, line: Int) {
        lastEventTime = event.time
        // Ticks at whole minutes up to this event's time run before it (docs/reminders.md 0).
        reminders?.advance(to: event.time)
        switch event.op {
        case .connect:
            finishSync(at: event.time, reason: "reconnected")
            finishActivity(at: event.time)
            setTimeWritten = false
        case .disconnect:
            finishSync(at: event.time, reason: "disconnected")
            finishActivity(at: event.time)
            observer.disconnected(at: event.time)
        case .read, .notify:
            guard let characteristic = event.characteristic, let value = event.value else { return }
            fromBottle(characteristic, value: value, viaRead: event.op == .read, time: event.time, file: file, line: line)
        case .write:
            guard let characteristic = event.characteristic, let value = event.value else { return }
            fromClient(characteristic, value: value, time: event.time, file: file, line: line)
        case .note:
            break
        case .log:
            // A manual intake (docs/reminders.md 3): for the reminder rules only.
            guard let reminders, let type = event.intakeType else { return }
            do {
                try reminders.logIntake(type: type, at: event.time)
            } catch {
                reject("log: \(error)", file: file, line: line)
            }
        case .action:
            guard let reminders, let id = event.notificationID, let action = event.action else { return }
            do {
                let outcome = try reminders.actionInvoked(notificationID: id, actionID: action, at: event.time)
                if case .startRitual(let notificationID) = outcome {
                    logger.info("Start Ritual on \(notificationID): the bridge would open the status view / publish the event")
                }
            } catch {
                reject("action: \(error)", file: file, line: line)
            }
        }
    }

    private func fromBottle(_ reference: CharacteristicRef, value: [UInt8], viaRead: Bool, time: WallInstant, file: String, line: Int) {
        guard case .known(let characteristic) = reference else {
            // Device Information, as the live session reads it: the serial becomes the key.
            if case .uuid(let uuid) = reference, let field = DeviceInformationField(uuid: uuid) {
                if bottleID == "unknown" { bottleID = DeviceInformation.cleanString(value) }
                var identity = BottleIdentity()
                identity.take(field, value)
                observer.heard(identity, at: time)
            }
            return
        }
        do {
            switch characteristic {
            case .drinkData:
                receiveChunk(value, viaRead: viaRead, time: time, file: file, line: line)
            case .currentState:
                let state = try CurrentState(decoding: value)
                if viaRead, !setTimeWritten, let offset = BottleClockOffset(bottleTime: state.timestamp, bridgeTime: time.secondsSince1970) {
                    observer.heard(offset, at: time)
                }
                observer.heard(state, at: time)
            case .bottleConfig:
                let config = try BottleConfig(decoding: value)
                if !observer.heard(config, at: time) {
                    // A goal the bottle cannot hold (0 would switch the reminders off).
                    reject("bottle-config: a goal of \(config.dailyGoalML) ml is outside \(BottleGoal.rangeText); ignored", file: file, line: line)
                }
            case .syncControl:
                _ = try SyncControl(decoding: value)
            case .deviceSettings:
                observer.heard(try DeviceSettings(decoding: value), at: time)
            case .calibrationState:
                _ = try CalibrationState(decoding: value)
            case .batteryLevel:
                guard value.count == 1, value[0] <= 100 else {
                    throw ProtocolError.wrongLength(structure: "Battery Level", expected: "1 byte, 0 to 100", actual: value.count)
                }
            case .activityStats:
                // Not self-describing (B16): only the request decides its shape. Check the bounds.
                guard (4...84).contains(value.count) else {
                    throw ProtocolError.wrongLength(structure: "Activity Stats", expected: "4 to 84 bytes", actual: value.count)
                }
                if !viaRead { activity.received(value) }
            case .command:
                reject("the Command characteristic is write-only, but the capture shows the bottle sending a value", file: file, line: line)
            }
        } catch {
            reject("\(characteristic.captureName): \(error)", file: file, line: line)
        }
    }

    private func fromClient(_ reference: CharacteristicRef, value: [UInt8], time: WallInstant, file: String, line: Int) {
        guard case .known(let characteristic) = reference else { return }
        switch characteristic {
        case .syncControl:
            guard let control = try? SyncControl(decoding: value) else {
                logger.warning("\(file):\(line): a \(value.count)-byte Sync Control write is ignored by the bottle (it takes exactly 8)")
                return
            }
            switch control.command {
            case .start:
                finishSync(at: time, reason: "restarted")
                sync = SyncProgress(start: control)
            case .ack:
                guard var progress = sync else { return }
                let verdict = progress.acknowledged()
                sync = progress
                if verdict == .complete {
                    sync = nil
                    observer.syncEnded(progress.outcome, records: progress.acceptedRecords, chunks: progress.acceptedChunks,
                                       refusal: nil, at: time)
                } else if verdict == .surplus {
                    logger.warning("\(file):\(line): an ACK with no chunk waiting for it; the bottle runs one chunk ahead (docs/protocol.md B3)")
                }
            case .query:
                finishSync(at: time, reason: "aborted by QUERY")
            default:
                break
            }
        case .command:
            guard let command = Command.parse(value) else {
                logger.warning("\(file):\(line): the bottle ignores this \(value.count)-byte command write")
                return
            }
            if case .setTime = command { setTimeWritten = true }
            activity.requested(command)
        default:
            break
        }
    }

    private func receiveChunk(_ value: [UInt8], viaRead: Bool, time: WallInstant, file: String, line: Int) {
        guard var progress = sync else {
            if !viaRead {
                logger.notice("\(file):\(line): a Drink Data notification outside a sync is ignored")
            }
            return
        }
        let verdict = progress.receive(value, viaRead: viaRead)
        sync = progress
        switch verdict {
        case .accept(let chunk, let skipped):
            if skipped > 0 {
                logger.warning("\(file):\(line): \(skipped) chunk(s) never arrived; their records come again in the next sync")
            }
            commit(chunk.records, at: time, file: file, line: line)
        case .rejected(let error):
            reject("drink-data: \(error)", file: file, line: line)
        case .implausible(let problem):
            // As live: refused whole, nothing stored, and the sync is over (no ACK follows).
            // Records that cannot be drinks do not come here: the ingest quarantines them.
            reject("drink-data: \(problem); refused (a firmware fault, or a device that is not the bottle)", file: file, line: line)
            finishSync(at: time, reason: "refused")
        case .duplicate, .placeholder, .staleRead, .afterCompletion:
            break
        }
    }

    /// Stores one chunk's records through the ingest (one transaction, reported as drink events).
    private func commit(_ records: [DrinkRecord], at time: WallInstant, file: String, line: Int) {
        do {
            try observer.storeAndSay(records, bottle: ingest.bottleID, at: time)
        } catch {
            reject("could not store the chunk: \(error)", file: file, line: line)
        }
    }

    private func updateBottle(_ change: (inout BottleRecord) -> Void) {
        do {
            _ = try history.bottles.update(id: ingest.bottleID) { change(&$0) }
        } catch {
            logger.warning("could not update the bottle's record: \(error)")
        }
    }

    /// What the connection's activity fetch gathered goes to the ingest, as the live session's does.
    private func finishActivity(at time: WallInstant) {
        guard !activity.isEmpty else { return }
        observer.heardActivity(motion: activity.motion, backpack: activity.backpack, at: time)
        activity = ActivityReplies()
    }

    private func finishSync(at time: WallInstant, reason: String) {
        guard let progress = sync else { return }
        sync = nil
        logger.debug("sync ended (\(reason)): \(progress.outcome.rawValue)")
        observer.syncEnded(progress.outcome, records: progress.acceptedRecords, chunks: progress.acceptedChunks,
                         refusal: progress.refusal, at: time)
    }

    // MARK: The ingest

    /// The ingest, as the live session sees it: replay tells it what the bottle said through the
    /// same protocol (`BottleObserver`), so the two cannot take different paths into it.
    private var observer: any BottleObserver { ingest }

    private var ingest: BottleIngest {
        if let ingestStorage { return ingestStorage }
        let made = BottleIngest(history: history, bottleID: bottleID, logger: logger,
                                emit: { [weak self] in self?.ingested($0) }, remind: { [weak self] in self?.remind($0) })
        ingestStorage = made
        return made
    }

    /// What the ingest reports: printed, and the local days of the drinks remembered.
    private func ingested(_ event: BridgeEvent) {
        if case .drink(let drink) = event { touchedDays.insert(drink.timestamp, timeZone: configuration.timeZone) }
        emit(event)
    }

    /// What the ingest tells the reminders, on the capture's clock.
    private func remind(_ input: ReminderInput) {
        if case .bottleGoal(let goal, _) = input { bottleGoalML = goal }
        guard let reminders else { return }
        switch input {
        case .currentState(let low, let percent, let time):
            reminders.currentState(lowBattery: low, batteryPercent: percent, at: time)
        case .bottleGoal(_, let time):
            var settings = reminders.engine.reminderSettings
            settings.hydration = configuration.hydrationSettings(bottleGoal: bottleGoalML)
            reminders.updateSettings(settings, at: time)
        case .stored:
            reminders.historyChanged()
        case .identified:
            break
        case .syncEnded(let time, let newRecords):
            reminders.syncEnded(at: time, newRecords: newRecords)
        }
    }

    private func reject(_ message: String, file: String, line: Int?) {
        rejectedLines += 1
        emit(.error(.init(message: message, file: file, line: line)))
    }

    // MARK: End

    /// Closes an unfinished sync and reports the day totals of every local day the replayed
    /// drinks fall on (docs/reminders.md 0: local calendar days, from the bridge's own history).
    package func finish() {
        if let time = lastEventTime {
            finishSync(at: time, reason: "end of input")
            finishActivity(at: time)
            ingestStorage?.disconnected(at: time)
        }
        guard let first = touchedDays.earliest, let last = touchedDays.latest else { return }
        let timeZone = configuration.timeZone
        let goal = configuration.dailyGoalML(bottleGoal: bottleGoalML)
        do {
            let touched = touchedDays.dates(timeZone: timeZone)
            let bottles = try history.drinks.drinkBottles()
            guard bottles.count > 1 else {
                let totals = try history.drinks.dayTotals(timeZone: timeZone, from: first - .seconds(86_400 * 2), to: last + .seconds(86_400 * 2))
                var byDate: [LocalDay: DayTotal] = [:]
                for total in totals { byDate[total.date] = total }
                for date in touched {
                    let total = byDate[date]
                    emit(.day(.init(date: date.description, totalML: total?.totalML ?? 0, drinks: total?.drinks ?? 0, goalML: goal)))
                }
                return
            }
            // A history of several bottles: one day per bottle and day (docs/design.md 3.4), each
            // against its bottle's goal.
            var byBottle: [String: (goal: Int, days: [LocalDay: DayTotal])] = [:]
            for key in bottles {
                let row = try history.bottles.bottle(id: key)
                let totals = try history.drinks.dayTotals(timeZone: timeZone, from: first - .seconds(86_400 * 2), to: last + .seconds(86_400 * 2), bottle: key)
                let own = configuration.effective(for: row ?? BottleRecord(id: key))
                byBottle[key] = (own.dailyGoalML(bottleGoal: row?.goalML), Dictionary(uniqueKeysWithValues: totals.map { ($0.date, $0) }))
            }
            for date in touched {
                for key in bottles {
                    let (bottleGoal, days) = byBottle[key]!
                    let total = days[date]
                    emit(.day(.init(date: date.description, totalML: total?.totalML ?? 0, drinks: total?.drinks ?? 0,
                                    goalML: bottleGoal, bottle: key)))
                }
            }
        } catch {
            emit(.error(.init(message: "could not compute day totals: \(error)", file: nil, line: nil)))
        }
    }
}
