// The events of docs/design.md 3.4: one JSON object per line, each with "event" (written in
// BridgeEvent+JSON.swift), or one line of text for a person.
//
// `replay --json`, `history --json` and `status --json` all print these, so scripts and tests
// read one format. Field names are the contract; extra fields may be added, never renamed.

import AquavateCapture
import AquavateProtocol
import Foundation
import Timekeeping

package enum BridgeEvent: Sendable, Equatable {
    case drink(DrinkEvent)
    case state(StateEvent)
    case sync(SyncEvent)
    case day(DayEvent)
    case notification(NotificationEvent)
    case error(ErrorEvent)
    case command(CommandEvent)
    case bottle(BottleEvent)
    case quarantined(QuarantinedEvent)

    /// A drink, and whether this sync put it in the history (`new`).
    package struct DrinkEvent: DrinkCarrying, Sendable, Equatable {
        package var drink: Drink
        package var isNew: Bool

        package init(_ drink: Drink, isNew: Bool) {
            self.drink = drink
            self.isNew = isNew
        }

        /// A drink from its fields as the event shows them (the type byte from `kind`).
        package init(bottle: String, recordID: UInt32, timestamp: UInt32, amountML: Int, bottleLevelML: Int,
                    kind: DrinkKind, deleted: Bool, isNew: Bool) {
            self.init(Drink(bottle: bottle, recordID: recordID, timestamp: timestamp, amountML: amountML,
                            bottleLevelML: bottleLevelML, typeRaw: kind == .pour ? 1 : 0,
                            flagsRaw: deleted ? DrinkRecordFlags.deleted.rawValue : 0, deleted: deleted),
                      isNew: isNew)
        }
    }

    package struct StateEvent: Sendable, Equatable {
        package var time: WallInstant
        package var dailyTotalML: Int
        package var bottleLevelML: Int
        package var battery: Int
        package var unsynced: Int
        package var flags: [String]

        package init(time: WallInstant, dailyTotalML: Int, bottleLevelML: Int, battery: Int, unsynced: Int, flags: [String]) {
            self.time = time
            self.dailyTotalML = dailyTotalML
            self.bottleLevelML = bottleLevelML
            self.battery = battery
            self.unsynced = unsynced
            self.flags = flags
        }
    }

    package struct SyncEvent: Sendable, Equatable {
        package typealias Outcome = SyncOutcome
        package var time: WallInstant
        package var records: Int
        package var chunks: Int
        package var outcome: Outcome
        /// Records of this sync that could not be drinks, quarantined.
        package var quarantined: Int = 0

        package init(time: WallInstant, records: Int, chunks: Int, outcome: Outcome, quarantined: Int = 0) {
            self.time = time
            self.records = records
            self.chunks = chunks
            self.outcome = outcome
            self.quarantined = quarantined
        }
    }

    /// A record the bottle sent that cannot be a drink, kept aside (docs/design.md 3.4).
    package struct QuarantinedEvent: Sendable, Equatable {
        /// The quarantine's number (`bottle restore`/`discard` take it); nil as a sync reports it.
        package var id: Int64?
        package var bottle: String
        package var recordID: UInt32
        /// When it arrived (bridge clock).
        package var time: WallInstant
        package var reason: String
        package var problems: [RecordProblem]
        /// The 14 bytes as sent.
        package var raw: [UInt8]
        /// False when a sync re-sent a record already quarantined.
        package var isNew: Bool = true
        /// nil while it waits; set once a person restored or discarded it.
        package var resolution: String? = nil

        package init(id: Int64? = nil, bottle: String, recordID: UInt32, time: WallInstant, reason: String,
                    problems: [RecordProblem], raw: [UInt8], isNew: Bool = true, resolution: String? = nil) {
            self.id = id
            self.bottle = bottle
            self.recordID = recordID
            self.time = time
            self.reason = reason
            self.problems = problems
            self.raw = raw
            self.isNew = isNew
            self.resolution = resolution
        }

        /// Only a wrong time can be mended by a person.
        package var isRestorable: Bool { problems == [.time] && resolution == nil }
    }

    package struct DayEvent: Sendable, Equatable {
        package var date: String
        package var totalML: Int
        package var drinks: Int
        package var goalML: Int
        /// The bottle, where the history holds several (one `day` per bottle and day).
        package var bottle: String? = nil

        package init(date: String, totalML: Int, drinks: Int, goalML: Int, bottle: String? = nil) {
            self.date = date
            self.totalML = totalML
            self.drinks = drinks
            self.goalML = goalML
            self.bottle = bottle
        }
    }

    package struct NotificationEvent: Sendable, Equatable {
        /// When it was delivered.
        package var time: WallInstant
        package var id: String
        /// `reminder`, `back_on_track`, `goal_reached`, `low_battery`, `scheduled`,
        /// `daily_message`, `deadline`, `ritual`, `test`.
        package var kind: String
        package var title: String
        package var body: String
        package var actions: [String] = []

        package init(time: WallInstant, id: String, kind: String, title: String, body: String, actions: [String] = []) {
            self.time = time
            self.id = id
            self.kind = kind
            self.title = title
            self.body = body
            self.actions = actions
        }
    }

    /// A bottle command's state (docs/design.md 3.5): queued, applied or failed.
    package struct CommandEvent: Sendable, Equatable {
        package var id: Int64
        package var bottle: String
        /// `goal`, `delete`, `tare`, `shake-to-empty`.
        package var command: String
        package var argument: String?
        /// `pending`, `applied`, `failed` (a command being sent counts as pending).
        package var status: String
        package var message: String?
        package var time: WallInstant

        package init(id: Int64, bottle: String, command: String, argument: String? = nil, status: String, message: String? = nil, time: WallInstant) {
            self.id = id
            self.bottle = bottle
            self.command = command
            self.argument = argument
            self.status = status
            self.message = message
            self.time = time
        }

        /// What the command asks, as numbers (the JSON event's and the MQTT answer's
        /// `bottle_goal_ml`, `record_id` and `on`): parsed from the stored argument by `BottleAction`, never shown
        /// as that text.
        package var asked: (goalML: Int?, recordID: Int?, on: Bool?) {
            switch BottleAction(kind: command, argument: argument) {
            case .setGoal(let goal)?: return (goal, nil, nil)
            case .deleteDrink(let record, _)?: return (nil, Int(record), nil)
            case .shakeToEmpty(let on)?: return (nil, nil, on)
            case .tare?, nil: return (nil, nil, nil)
            }
        }
    }

    /// One adopted bottle, from its last connection (`bottle info --json`, docs/design.md 3.5).
    package struct BottleEvent: Sendable, Equatable {
        package var address: String?
        package var name: String?
        package var serial: String?
        package var firmware: String?
        package var model: String?
        package var goalML: Int?
        package var battery: Int?
        package var calibrated: Bool?
        package var shakeToEmpty: Bool?
        package var lastSeen: WallInstant?
        package var lastSync: WallInstant?
        package var unsynced: Int?
        /// Bottle clock minus bridge clock at the last connection, seconds.
        package var clockOffset: Int?
        package var pending: [CommandEvent]

        package init(address: String? = nil, name: String? = nil, serial: String? = nil, firmware: String? = nil, model: String? = nil, goalML: Int? = nil, battery: Int? = nil, calibrated: Bool? = nil, shakeToEmpty: Bool? = nil, lastSeen: WallInstant? = nil, lastSync: WallInstant? = nil, unsynced: Int? = nil, clockOffset: Int? = nil, pending: [CommandEvent]) {
            self.address = address
            self.name = name
            self.serial = serial
            self.firmware = firmware
            self.model = model
            self.goalML = goalML
            self.battery = battery
            self.calibrated = calibrated
            self.shakeToEmpty = shakeToEmpty
            self.lastSeen = lastSeen
            self.lastSync = lastSync
            self.unsynced = unsynced
            self.clockOffset = clockOffset
            self.pending = pending
        }
    }

    package struct ErrorEvent: Sendable, Equatable {
        package var message: String
        package var file: String?
        package var line: Int?

        package init(message: String, file: String? = nil, line: Int? = nil) {
            self.message = message
            self.file = file
            self.line = line
        }
    }
}

// MARK: - Text (the JSON lines are BridgeEvent+JSON.swift)

extension BridgeEvent {
    /// The event as one human-readable line (the default output of `replay` and `history`), its
    /// time local to `timeZone` (the `timezone` setting); JSON stays UTC (docs/design.md 3.4).
    /// - Parameter novelty: say whether a drink was new to the history or already known (replay
    ///   and sync); `history` lists what is stored, where the word would mean nothing.
    package func textLine(novelty: Bool = true, timeZone: TimeZone) -> String {
        func local(_ instant: WallInstant) -> String { LocalTimeText.format(instant, in: timeZone) }
        switch self {
        case .drink(let drink):
            let marker = novelty ? (drink.isNew ? "  new" : "  known") : ""
            let deleted = drink.deleted ? "  deleted" : ""
            // A drink added by hand has no kind or level: the bottle did not measure it.
            let measured = drink.manual ? "manual" : "\(drink.kind.rawValue)  level \(drink.bottleLevelML) ml"
            return "\(local(WallInstant(secondsSince1970: Double(drink.timestamp))))  drink #\(drink.recordID)  \(drink.amountML) ml  \(measured)\(marker)\(deleted)"
        case .state(let state):
            let flags = state.flags.isEmpty ? "-" : state.flags.joined(separator: ",")
            return "\(local(state.time))  state  today \(state.dailyTotalML) ml (bottle's day)  level \(state.bottleLevelML) ml  battery \(state.battery)%  unsynced \(state.unsynced)  flags \(flags)"
        case .sync(let sync):
            return "\(local(sync.time))  sync \(sync.outcome.rawValue): \(sync.records) records in \(sync.chunks) chunks"
                + (sync.quarantined > 0 ? ", \(sync.quarantined) quarantined" : "")
        case .quarantined(let entry):
            let number = entry.id.map { "#\($0)  " } ?? ""
            let what = entry.resolution ?? (entry.isRestorable ? "restore with `bottle restore \(entry.id.map(String.init) ?? "ID") --at TIME`" : "discard with `bottle discard \(entry.id.map(String.init) ?? "ID")`")
            return "\(local(entry.time))  quarantined \(number)\(entry.bottle)  \(entry.reason)  raw \(entry.raw.lowercaseHex)  \(what)"
        case .day(let day):
            let percent = day.goalML > 0 ? day.totalML * 100 / day.goalML : 0
            return "\(day.date)  \(day.bottle.map { "\($0)  " } ?? "")\(day.totalML) ml in \(day.drinks) drinks  (\(percent)% of \(day.goalML) ml)"
        case .notification(let note):
            return "\(local(note.time))  notification \(note.kind) [\(note.id)]  \(note.title): \(note.body)"
        case .error(let error):
            var place = error.file ?? ""
            if let line = error.line { place += ":\(line)" }
            return place.isEmpty ? "error: \(error.message)" : "\(place): \(error.message)"
        case .command(let command):
            let what = command.argument.map { "\(command.command) \($0)" } ?? command.command
            return "\(local(command.time))  command #\(command.id) \(what)  \(command.status)"
                + (command.message.map { ": \($0)" } ?? "")
        case .bottle(let bottle):
            let name = bottle.name ?? bottle.address ?? bottle.serial ?? "bottle"
            return "\(name)  serial \(bottle.serial ?? "unknown")  firmware \(bottle.firmware ?? "unknown")  bottle goal \(bottle.goalML.map { "\($0) ml" } ?? "unknown")"
        }
    }
}
