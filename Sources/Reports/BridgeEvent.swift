// The JSON events of docs/design.md 3.4: one object per line, each with "event".
//
// `replay --json`, `history --json` and `status --json` all print these, so scripts and tests
// read one format. Field names are the contract; extra fields may be added, never renamed.

import AquavateCapture
import AquavateProtocol
import Foundation
import Timekeeping

public enum BridgeEvent: Sendable, Equatable {
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
    public struct DrinkEvent: DrinkCarrying, Sendable, Equatable {
        public var drink: Drink
        public var isNew: Bool

        public init(_ drink: Drink, isNew: Bool) {
            self.drink = drink
            self.isNew = isNew
        }

        /// A drink from its fields as the event shows them (the type byte from `kind`).
        public init(bottle: String, recordID: UInt32, timestamp: UInt32, amountML: Int, bottleLevelML: Int,
                    kind: DrinkKind, deleted: Bool, isNew: Bool) {
            self.init(Drink(bottle: bottle, recordID: recordID, timestamp: timestamp, amountML: amountML,
                            bottleLevelML: bottleLevelML, typeRaw: kind == .pour ? 1 : 0,
                            flagsRaw: deleted ? DrinkRecordFlags.deleted.rawValue : 0, deleted: deleted),
                      isNew: isNew)
        }
    }

    public struct StateEvent: Sendable, Equatable {
        public var time: Double
        public var dailyTotalML: Int
        public var bottleLevelML: Int
        public var battery: Int
        public var unsynced: Int
        public var flags: [String]

        package init(time: Double, dailyTotalML: Int, bottleLevelML: Int, battery: Int, unsynced: Int, flags: [String]) {
            self.time = time
            self.dailyTotalML = dailyTotalML
            self.bottleLevelML = bottleLevelML
            self.battery = battery
            self.unsynced = unsynced
            self.flags = flags
        }
    }

    public struct SyncEvent: Sendable, Equatable {
        public typealias Outcome = SyncOutcome
        public var time: Double
        public var records: Int
        public var chunks: Int
        public var outcome: Outcome
        /// Records of this sync that could not be drinks, quarantined.
        public var quarantined: Int = 0

        package init(time: Double, records: Int, chunks: Int, outcome: Outcome, quarantined: Int = 0) {
            self.time = time
            self.records = records
            self.chunks = chunks
            self.outcome = outcome
            self.quarantined = quarantined
        }
    }

    /// A record the bottle sent that cannot be a drink, kept aside (docs/design.md 3.4).
    public struct QuarantinedEvent: Sendable, Equatable {
        /// The quarantine's number (`bottle restore`/`discard` take it); nil as a sync reports it.
        public var id: Int64?
        public var bottle: String
        public var recordID: UInt32
        /// When it arrived (bridge clock).
        public var time: Double
        public var reason: String
        public var problems: [RecordProblem]
        /// The 14 bytes as sent.
        public var raw: [UInt8]
        /// False when a sync re-sent a record already quarantined.
        public var isNew: Bool = true
        /// nil while it waits; set once a person restored or discarded it.
        public var resolution: String? = nil

        public init(id: Int64? = nil, bottle: String, recordID: UInt32, time: Double, reason: String,
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
        public var isRestorable: Bool { problems == [.time] && resolution == nil }
    }

    public struct DayEvent: Sendable, Equatable {
        public var date: String
        public var totalML: Int
        public var drinks: Int
        public var goalML: Int
        /// The bottle, where the history holds several (one `day` per bottle and day).
        public var bottle: String? = nil

        public init(date: String, totalML: Int, drinks: Int, goalML: Int, bottle: String? = nil) {
            self.date = date
            self.totalML = totalML
            self.drinks = drinks
            self.goalML = goalML
            self.bottle = bottle
        }
    }

    public struct NotificationEvent: Sendable, Equatable {
        /// When it was delivered.
        public var time: Double
        public var id: String
        /// `reminder`, `back_on_track`, `goal_reached`, `low_battery`, `scheduled`,
        /// `daily_message`, `deadline`, `ritual`, `test`.
        public var kind: String
        public var title: String
        public var body: String
        public var actions: [String] = []

        package init(time: Double, id: String, kind: String, title: String, body: String, actions: [String] = []) {
            self.time = time
            self.id = id
            self.kind = kind
            self.title = title
            self.body = body
            self.actions = actions
        }
    }

    /// A bottle command's state (docs/design.md 3.5): queued, applied or failed.
    public struct CommandEvent: Sendable, Equatable {
        public var id: Int64
        public var bottle: String
        /// `goal`, `delete`, `tare`, `shake-to-empty`.
        public var command: String
        public var argument: String?
        /// `pending`, `applied`, `failed` (a command being sent counts as pending).
        public var status: String
        public var message: String?
        public var time: Double

        package init(id: Int64, bottle: String, command: String, argument: String? = nil, status: String, message: String? = nil, time: Double) {
            self.id = id
            self.bottle = bottle
            self.command = command
            self.argument = argument
            self.status = status
            self.message = message
            self.time = time
        }
    }

    /// One adopted bottle, from its last connection (`bottle info --json`, docs/design.md 3.5).
    public struct BottleEvent: Sendable, Equatable {
        public var address: String?
        public var name: String?
        public var serial: String?
        public var firmware: String?
        public var model: String?
        public var goalML: Int?
        public var battery: Int?
        public var calibrated: Bool?
        public var shakeToEmpty: Bool?
        public var lastSeen: Double?
        public var lastSync: Double?
        public var unsynced: Int?
        /// Bottle clock minus bridge clock at the last connection, seconds.
        public var clockOffset: Int?
        public var pending: [CommandEvent]

        package init(address: String? = nil, name: String? = nil, serial: String? = nil, firmware: String? = nil, model: String? = nil, goalML: Int? = nil, battery: Int? = nil, calibrated: Bool? = nil, shakeToEmpty: Bool? = nil, lastSeen: Double? = nil, lastSync: Double? = nil, unsynced: Int? = nil, clockOffset: Int? = nil, pending: [CommandEvent]) {
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

    public struct ErrorEvent: Sendable, Equatable {
        public var message: String
        public var file: String?
        public var line: Int?

        package init(message: String, file: String? = nil, line: Int? = nil) {
            self.message = message
            self.file = file
            self.line = line
        }
    }
}

// MARK: - JSON

extension BridgeEvent {
    /// The event as one line of JSON (keys sorted, so output is stable).
    public func jsonLine() -> String {
        let object: [String: any Sendable]
        switch self {
        case .day(let day):
            // Written directly, keys sorted as JSONSerialization would: `/api/v1/days?days=365`
            // lists a day per bottle, and the serializer's cost per object dominated it.
            let bottle = day.bottle.map { "\"bottle\":\(JSONText.quoted($0))," } ?? ""
            return "{\(bottle)\"date\":\(JSONText.quoted(day.date)),\"drinks\":\(day.drinks),\"event\":\"day\",\"goal_ml\":\(day.goalML),\"total_ml\":\(day.totalML)}"
        case .drink(let drink):
            // Written directly too, keys sorted: `/api/v1/drinks` lists thousands, and the
            // serializer was ~60 µs of each.
            return "{\"amount_ml\":\(drink.amountML),\"bottle\":\(JSONText.quoted(drink.bottle)),\"bottle_level_ml\":\(drink.bottleLevelML),"
                + "\"deleted\":\(drink.deleted),\"event\":\"drink\",\"new\":\(drink.isNew),\"record_id\":\(drink.recordID),"
                + "\"time\":\"\(ISO8601Text.formatWithMilliseconds(Double(drink.timestamp)))\",\"type\":\"\(drink.kind.rawValue)\"}"
        case .state(let state):
            object = [
                "event": "state", "time": ISO8601Text.formatWithMilliseconds(state.time), "daily_total_ml": state.dailyTotalML,
                "bottle_level_ml": state.bottleLevelML, "battery": state.battery, "unsynced": state.unsynced,
                "flags": state.flags,
            ]
        case .sync(let sync):
            object = [
                "event": "sync", "time": ISO8601Text.formatWithMilliseconds(sync.time), "records": sync.records,
                "chunks": sync.chunks, "outcome": sync.outcome.rawValue, "quarantined": sync.quarantined,
            ]
        case .quarantined(let entry):
            object = [
                "event": "quarantined", "id": Self.orNull(entry.id.map { Int($0) }), "bottle": entry.bottle,
                "record_id": Int(entry.recordID), "time": ISO8601Text.formatWithMilliseconds(entry.time),
                "reason": entry.reason, "problems": entry.problems.map(\.rawValue),
                "raw": entry.raw.map { String(format: "%02x", $0) }.joined(),
                "restorable": entry.isRestorable, "resolution": Self.orNull(entry.resolution),
            ]
        case .notification(let note):
            var fields: [String: any Sendable] = [
                "event": "notification", "time": ISO8601Text.formatWithMilliseconds(note.time), "id": note.id, "kind": note.kind,
                "title": note.title, "body": note.body,
            ]
            if !note.actions.isEmpty { fields["actions"] = note.actions }
            object = fields
        case .error(let error):
            var fields: [String: any Sendable] = ["event": "error", "message": error.message]
            if let file = error.file { fields["file"] = file }
            if let line = error.line { fields["line"] = line }
            object = fields
        case .command(let command):
            object = Self.commandObject(command)
        case .bottle(let bottle):
            object = [
                "event": "bottle", "address": Self.orNull(bottle.address), "name": Self.orNull(bottle.name),
                "serial": Self.orNull(bottle.serial), "firmware": Self.orNull(bottle.firmware), "model": Self.orNull(bottle.model),
                "goal_ml": Self.orNull(bottle.goalML), "battery": Self.orNull(bottle.battery),
                "calibrated": Self.orNull(bottle.calibrated), "shake_to_empty": Self.orNull(bottle.shakeToEmpty),
                "last_seen": Self.orNull(bottle.lastSeen.map(ISO8601Text.formatWithMilliseconds)),
                "last_sync": Self.orNull(bottle.lastSync.map(ISO8601Text.formatWithMilliseconds)),
                "unsynced": Self.orNull(bottle.unsynced), "clock_offset_s": Self.orNull(bottle.clockOffset),
                "pending": bottle.pending.map { Self.commandObject($0) as [String: any Sendable] },
            ]
        }
        // The dictionary holds only strings, numbers, booleans and string arrays: always valid.
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The `command` event's object (docs/design.md 3.5): numbers and enum values only, the
    /// command's value under its own key (`goal_ml`, `record_id`, `on`), never the stored text.
    static func commandObject(_ command: CommandEvent) -> [String: any Sendable] {
        var object: [String: any Sendable] = [
            "event": "command", "id": Int(command.id), "bottle": command.bottle, "command": command.command,
            "status": command.status, "message": orNull(command.message),
            "time": ISO8601Text.formatWithMilliseconds(command.time),
        ]
        switch BottleAction(kind: command.command, argument: command.argument) {
        case .setGoal(let goal)?: object["goal_ml"] = goal
        case .deleteDrink(let recordID, _)?: object["record_id"] = Int(recordID)
        case .shakeToEmpty(let on)?: object["on"] = on
        case .tare?, nil: break
        }
        return object
    }

    /// JSON null for a missing value (the keys of an event are always there).
    private static func orNull(_ value: (any Sendable)?) -> any Sendable { value ?? NSNull() }

    /// The event as one human-readable line (the default output of `replay` and `history`), its
    /// time local to `timeZone` (the `timezone` setting); JSON stays UTC (docs/design.md 3.4).
    /// - Parameter novelty: say whether a drink was new to the history or already known (replay
    ///   and sync); `history` lists what is stored, where the word would mean nothing.
    public func textLine(novelty: Bool = true, timeZone: TimeZone) -> String {
        func local(_ seconds: Double) -> String { LocalTimeText.format(seconds, in: timeZone) }
        switch self {
        case .drink(let drink):
            let marker = novelty ? (drink.isNew ? "  new" : "  known") : ""
            let deleted = drink.deleted ? "  deleted" : ""
            return "\(local(Double(drink.timestamp)))  drink #\(drink.recordID)  \(drink.amountML) ml  \(drink.kind.rawValue)  level \(drink.bottleLevelML) ml\(marker)\(deleted)"
        case .state(let state):
            let flags = state.flags.isEmpty ? "-" : state.flags.joined(separator: ",")
            return "\(local(state.time))  state  today \(state.dailyTotalML) ml (bottle's day)  level \(state.bottleLevelML) ml  battery \(state.battery)%  unsynced \(state.unsynced)  flags \(flags)"
        case .sync(let sync):
            return "\(local(sync.time))  sync \(sync.outcome.rawValue): \(sync.records) records in \(sync.chunks) chunks"
                + (sync.quarantined > 0 ? ", \(sync.quarantined) quarantined" : "")
        case .quarantined(let entry):
            let number = entry.id.map { "#\($0)  " } ?? ""
            let what = entry.resolution ?? (entry.isRestorable ? "restore with `bottle restore \(entry.id.map(String.init) ?? "ID") --at TIME`" : "discard with `bottle discard \(entry.id.map(String.init) ?? "ID")`")
            return "\(local(entry.time))  quarantined \(number)\(entry.bottle)  \(entry.reason)  raw \(entry.raw.map { String(format: "%02x", $0) }.joined())  \(what)"
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
            return "\(name)  serial \(bottle.serial ?? "unknown")  firmware \(bottle.firmware ?? "unknown")  goal \(bottle.goalML.map { "\($0) ml" } ?? "unknown")"
        }
    }
}
