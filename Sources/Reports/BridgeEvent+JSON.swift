// The JSON events of docs/design.md 3.4, written by Codable through the one wire writer
// (`WireJSON`: sorted keys, so output is stable, and unescaped slashes): each event has a wire
// struct whose CodingKeys are the field names of the contract. A missing value that the contract
// always shows is `null` (`@Nullable`, the one way of writing it); one the contract shows only
// when present (a notification's actions, an error's file and line) is left out.
//
// Two events are written by hand: `day` and `drink`. `/api/v1/days?days=365` lists a day per
// bottle and day and `/api/v1/drinks` thousands of drinks, and the encoder's cost per object
// dominated those answers (docs/performance.md, the web rows: `Benchmarks/web.sh`).
// `BridgeEventJSONTests` holds each hand-written line to the Codable encoding of the same
// `DayJSON` / `DrinkJSON` for many values.

import AquavateCapture
import AquavateProtocol
import Foundation
import Timekeeping
import WireText

extension BridgeEvent {
    /// The event as one line of JSON (keys sorted, so output is stable).
    package func jsonLine() -> String {
        switch self {
        case .day(let day): return Self.handWrittenDayLine(day)
        case .drink(let drink): return Self.handWrittenDrinkLine(drink)
        case .state(let state): return Self.line(StateJSON(state))
        case .sync(let sync): return Self.line(SyncJSON(sync))
        case .quarantined(let entry): return Self.line(QuarantinedJSON(entry))
        case .notification(let note): return Self.line(NotificationJSON(note))
        case .error(let error): return Self.line(ErrorJSON(error))
        case .command(let command): return Self.line(CommandJSON(command))
        case .bottle(let bottle): return Self.line(BottleJSON(bottle))
        }
    }

    /// The `day` line, written directly with the keys in the order the encoder sorts them.
    package static func handWrittenDayLine(_ day: DayEvent) -> String {
        let bottle = day.bottle.map { "\"bottle\":\(JSONText.quoted($0))," } ?? ""
        return "{\(bottle)\"daily_goal_ml\":\(day.goalML),\"date\":\(JSONText.quoted(day.date)),\"drinks\":\(day.drinks),\"event\":\"day\",\"goal_ml\":\(day.goalML),\"total_ml\":\(day.totalML)}"
    }

    /// The `day` line by Codable: what the hand-written one must equal (its test).
    package static func codableDayLine(_ day: DayEvent) -> String { line(DayJSON(day)) }

    /// The `drink` line, written directly with the keys in the order the encoder sorts them:
    /// `/api/v1/drinks` lists thousands (docs/performance.md, `Benchmarks/web.sh`, `drinks?days=30`).
    package static func handWrittenDrinkLine(_ drink: DrinkEvent) -> String {
        "{\"amount_ml\":\(drink.amountML),\"bottle\":\(JSONText.quoted(drink.bottle)),\"bottle_level_ml\":\(drink.bottleLevelML),"
            + "\"deleted\":\(drink.deleted),\"event\":\"drink\",\"manual\":\(drink.manual),\"new\":\(drink.isNew),\"record_id\":\(drink.recordID),"
            + "\"time\":\"\(iso(WallInstant(secondsSince1970: Double(drink.timestamp))))\",\"type\":\"\(drink.kind.rawValue)\"}"
    }

    /// The `drink` line by Codable: what the hand-written one must equal (its test).
    package static func codableDrinkLine(_ drink: DrinkEvent) -> String { line(DrinkJSON(drink)) }

    /// One wire struct as one line. Encoding these cannot fail: they hold strings, integers,
    /// booleans, arrays of them and nulls.
    package static func line(_ value: some Encodable) -> String {
        WireJSON.text(value, apostrophes: .asIs)
    }
}

/// ISO 8601 UTC with milliseconds, as every event's `time`.
private func iso(_ instant: WallInstant) -> String { ISO8601Text.formatWithMilliseconds(instant) }

// MARK: The wire structs

struct DrinkJSON: Encodable {
    let event = "drink"
    var bottle: String
    var recordID: Int
    var time: String
    var amountML: Int
    var bottleLevelML: Int
    var type: String
    var deleted: Bool
    /// Added by a person, not measured by the bottle.
    var manual: Bool
    var new: Bool

    enum CodingKeys: String, CodingKey {
        case event, bottle, recordID = "record_id", time, amountML = "amount_ml", bottleLevelML = "bottle_level_ml", type,
             deleted, manual, new
    }

    init(_ drink: BridgeEvent.DrinkEvent) {
        bottle = drink.bottle
        recordID = Int(drink.recordID)
        time = iso(WallInstant(secondsSince1970: Double(drink.timestamp)))
        amountML = drink.amountML
        bottleLevelML = drink.bottleLevelML
        type = drink.kind.rawValue
        deleted = drink.deleted
        manual = drink.manual
        new = drink.isNew
    }
}

struct StateJSON: Encodable {
    let event = "state"
    var time: String
    var dailyTotalML: Int
    var bottleLevelML: Int
    var battery: Int
    var unsynced: Int
    var flags: [String]

    enum CodingKeys: String, CodingKey {
        case event, time, dailyTotalML = "daily_total_ml", bottleLevelML = "bottle_level_ml", battery, unsynced, flags
    }

    init(_ state: BridgeEvent.StateEvent) {
        time = iso(state.time)
        dailyTotalML = state.dailyTotalML
        bottleLevelML = state.bottleLevelML
        battery = state.battery
        unsynced = state.unsynced
        flags = state.flags
    }
}

struct SyncJSON: Encodable {
    let event = "sync"
    var time: String
    var records: Int
    var chunks: Int
    var outcome: String
    var quarantined: Int

    enum CodingKeys: String, CodingKey { case event, time, records, chunks, outcome, quarantined }

    init(_ sync: BridgeEvent.SyncEvent) {
        time = iso(sync.time)
        records = sync.records
        chunks = sync.chunks
        outcome = sync.outcome.rawValue
        quarantined = sync.quarantined
    }
}

struct QuarantinedJSON: Encodable {
    let event = "quarantined"
    /// Always there, null when unset (as `resolution`).
    @Nullable var id: Int?
    var bottle: String
    var recordID: Int
    var time: String
    var reason: String
    var problems: [String]
    var raw: String
    var restorable: Bool
    @Nullable var resolution: String?

    enum CodingKeys: String, CodingKey {
        case event, id, bottle, recordID = "record_id", time, reason, problems, raw, restorable, resolution
    }

    init(_ entry: BridgeEvent.QuarantinedEvent) {
        id = entry.id.map { Int($0) }
        bottle = entry.bottle
        recordID = Int(entry.recordID)
        time = iso(entry.time)
        reason = entry.reason
        problems = entry.problems.map(\.rawValue)
        raw = entry.raw.lowercaseHex
        restorable = entry.isRestorable
        resolution = entry.resolution
    }

}

struct DayJSON: Encodable {
    let event = "day"
    var date: String
    var totalML: Int
    var drinks: Int
    /// The person's daily goal (docs/design.md 3.7), under its own name and its earlier one.
    var dailyGoalML: Int
    var goalML: Int
    /// Only where the history holds several bottles.
    var bottle: String?

    enum CodingKeys: String, CodingKey { case event, date, totalML = "total_ml", drinks, dailyGoalML = "daily_goal_ml", goalML = "goal_ml", bottle }

    init(_ day: BridgeEvent.DayEvent) {
        date = day.date
        totalML = day.totalML
        drinks = day.drinks
        dailyGoalML = day.goalML
        goalML = day.goalML
        bottle = day.bottle
    }
}

struct NotificationJSON: Encodable {
    let event = "notification"
    var time: String
    var id: String
    var kind: String
    var title: String
    var body: String
    /// Left out when there are none.
    var actions: [String]?

    enum CodingKeys: String, CodingKey { case event, time, id, kind, title, body, actions }

    init(_ note: BridgeEvent.NotificationEvent) {
        time = iso(note.time)
        id = note.id
        kind = note.kind
        title = note.title
        body = note.body
        actions = note.actions.isEmpty ? nil : note.actions
    }
}

struct ErrorJSON: Encodable {
    let event = "error"
    var message: String
    /// Left out when the error is not about an input file.
    var file: String?
    var line: Int?

    enum CodingKeys: String, CodingKey { case event, message, file, line }

    init(_ error: BridgeEvent.ErrorEvent) {
        message = error.message
        file = error.file
        line = error.line
    }
}

struct CommandJSON: Encodable {
    let event = "command"
    var id: Int
    var bottle: String
    var command: String
    var status: String
    /// Always there, null when unset.
    @Nullable var message: String?
    var time: String
    /// The command's value under its own key (docs/design.md 3.5: numbers and enum values only,
    /// never the stored text): a goal's `bottle_goal_ml` (and `goal_ml`, its earlier key: the
    /// bottle's goal, not the daily goal, docs/design.md 3.7), a delete's `record_id`,
    /// shake-to-empty's `on`.
    var bottleGoalML: Int?
    var goalML: Int?
    var recordID: Int?
    var on: Bool?

    enum CodingKeys: String, CodingKey {
        case event, id, bottle, command, status, message, time, bottleGoalML = "bottle_goal_ml", goalML = "goal_ml", recordID = "record_id", on
    }

    init(_ command: BridgeEvent.CommandEvent) {
        id = Int(command.id)
        bottle = command.bottle
        self.command = command.command
        status = command.status
        message = command.message
        time = iso(command.time)
        (goalML, recordID, on) = command.asked
        bottleGoalML = goalML
    }

}

/// Every key is always there, null when unknown (`bottle info --json`, docs/design.md 3.5).
struct BottleJSON: Encodable {
    let event = "bottle"
    @Nullable var address: String?
    @Nullable var name: String?
    @Nullable var serial: String?
    @Nullable var firmware: String?
    @Nullable var model: String?
    /// The goal the bottle holds (`BottleGoal`), under its own name and its earlier one.
    @Nullable var bottleGoalML: Int?
    @Nullable var goalML: Int?
    @Nullable var battery: Int?
    @Nullable var calibrated: Bool?
    @Nullable var shakeToEmpty: Bool?
    @Nullable var lastSeen: String?
    @Nullable var lastSync: String?
    @Nullable var unsynced: Int?
    @Nullable var clockOffset: Int?
    var pending: [CommandJSON]

    enum CodingKeys: String, CodingKey {
        case event, address, name, serial, firmware, model, bottleGoalML = "bottle_goal_ml", goalML = "goal_ml", battery, calibrated,
             shakeToEmpty = "shake_to_empty", lastSeen = "last_seen", lastSync = "last_sync", unsynced,
             clockOffset = "clock_offset_s", pending
    }

    init(_ bottle: BridgeEvent.BottleEvent) {
        address = bottle.address
        name = bottle.name
        serial = bottle.serial
        firmware = bottle.firmware
        model = bottle.model
        bottleGoalML = bottle.goalML
        goalML = bottle.goalML
        battery = bottle.battery
        calibrated = bottle.calibrated
        shakeToEmpty = bottle.shakeToEmpty
        lastSeen = bottle.lastSeen.map(iso)
        lastSync = bottle.lastSync.map(iso)
        unsynced = bottle.unsynced
        clockOffset = bottle.clockOffset
        pending = bottle.pending.map(CommandJSON.init)
    }

}
