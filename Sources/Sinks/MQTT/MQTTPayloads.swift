// The JSON the MQTT sink publishes. Field names follow docs/design.md 3.4 (`daily_total_ml`,
// `bottle_level_ml`, `battery`, `unsynced`, ISO 8601 times with `Z`), so a `replay --json` line
// and an MQTT message read the same. Unknown values are null. Events carry `event_type`, which
// Home Assistant's MQTT `event` entities require.

import MQTT
import Timekeeping

enum MQTTPayloads {
    /// Retained on `…/state`:
    /// `{"battery":87,"bottle_level_ml":420,"connected":true,"daily_limit":true,
    ///   "daily_total_ml":1250,"day_start":"2026-11-20T23:00:00Z","deficit_ml":300,"goal_ml":2500,
    ///   "last_drink_ml":250,"last_drink_time":"2026-11-21T09:10:00Z","last_seen":"2026-11-21T09:12:00Z",
    ///   "last_sync":"2026-11-21T09:12:00Z","pending_commands":0,"pending_goal_ml":null,
    ///   "pending_shake_to_empty":null,"percent_of_goal":50,"quarantined":0,"reminders_enabled":true,
    ///   "reminders_today":2,"stuck":false,"stuck_since":null,"time":"2026-11-21T09:15:00Z","unsynced":0,
    ///   "urgency":"attention"}`
    static func state(_ snapshot: BridgeSnapshot) -> JSONValue {
        .object([
            "time": .string(ISO8601Text.format(snapshot.time)),
            "daily_total_ml": .int(snapshot.dayTotalML),
            "day_start": .optional(snapshot.dayStart.map(ISO8601Text.format)),
            "goal_ml": .int(snapshot.goalML),
            "percent_of_goal": .int(percent(snapshot.dayTotalML, of: snapshot.goalML)),
            "bottle_level_ml": .optional(snapshot.bottleLevelML),
            "battery": .optional(snapshot.batteryPercent),
            "urgency": .string(snapshot.urgency.rawValue),
            "deficit_ml": .int(snapshot.deficitML),
            "reminders_today": .int(snapshot.remindersToday),
            "reminders_enabled": .bool(snapshot.remindersEnabled),
            "daily_limit": .bool(snapshot.dailyLimit),
            "last_sync": .optional(snapshot.lastSync.map(ISO8601Text.format)),
            "last_seen": .optional(snapshot.lastSeen.map(ISO8601Text.format)),
            "last_drink_ml": .optional(snapshot.lastDrinkML),
            "last_drink_time": .optional(snapshot.lastDrinkTime.map(ISO8601Text.format)),
            "unsynced": .optional(snapshot.unsynced),
            "connected": .bool(snapshot.bottleConnected),
            "shake_to_empty": .optional(snapshot.shakeToEmpty),
            "bottle_goal_ml": .optional(snapshot.bottleGoalML),
            "pending_goal_ml": .optional(snapshot.pendingGoalML),
            "pending_shake_to_empty": .optional(snapshot.pendingShakeToEmpty),
            "pending_commands": .int(snapshot.pendingCommands),
            "quarantined": .int(snapshot.quarantined),
            "stuck": .bool(snapshot.stuck),
            "stuck_since": .optional(snapshot.stuckSince.map(ISO8601Text.format)),
        ])
    }

    /// Today's intake as a whole percentage of the goal (a goal of 0 ml counts as reached).
    static func percent(_ total: Int, of goal: Int) -> Int {
        goal > 0 ? Int((Double(total) * 100 / Double(goal)).rounded()) : 100
    }

    /// One per stored record on `…/drink`:
    /// `{"amount_ml":250,"bottle_level_ml":330,"event_type":"drink","record_id":17,
    ///   "time":"2026-11-21T09:10:00Z","type":"gulp"}`
    static func drink(_ drink: SinkDrink) -> JSONValue {
        .object([
            "event_type": .string("drink"),
            "record_id": .int(drink.recordID),
            "time": .string(ISO8601Text.format(drink.time)),
            "amount_ml": .int(drink.amountML),
            "bottle_level_ml": .int(drink.bottleLevelML),
            "type": .string(drink.type),
        ])
    }

    /// One per notification on `…/notification`; `event_type` is the kind:
    /// `{"actions":[{"id":"did-this","label":"Did This"}],"body":"…","event_type":"ritual",
    ///   "id":"ritual-morning-2026-11-22","kind":"ritual","priority":3,"time":"…","title":"…"}`
    static func notification(_ notification: SinkNotification) -> JSONValue {
        .object([
            "event_type": .string(notification.kind),
            "id": .string(notification.id),
            "kind": .string(notification.kind),
            "title": .string(notification.title),
            "body": .string(notification.body),
            "time": .string(ISO8601Text.format(notification.time)),
            "priority": .int(notification.priority.rawValue),
            "actions": .array(notification.actions.map {
                .object(["id": .string($0.id), "label": .string($0.label)])
            }),
        ])
    }

    /// The answer to one command on `…/command/result`, not retained:
    /// `{"command":"config","key":"push.url","message":"push.url cannot be changed …","status":"refused"}`.
    /// `status` is `accepted` (handed to the bridge, which logs what it did) or `refused`; the
    /// value of a config command is never repeated (it may be a secret).
    static func commandResult(_ command: SinkCommand?, status: String, message: String?) -> JSONValue {
        var members: [String: JSONValue] = ["status": .string(status), "message": .optional(message)]
        switch command {
        case let .configSet(key, _)?:
            members["command"] = .string("config")
            members["key"] = .string(key)
        case let .log(type, bottle)?:
            members["command"] = .string("log")
            members["type"] = .string(type)
            if let bottle { members["bottle"] = .string(bottle) }
        case let .action(id, action)?:
            members["command"] = .string("action")
            members["id"] = .string(id)
            members["action"] = .string(action)
        case let .bottle(bottle)?, let .bottleOf(bottle, _)?:
            members["command"] = .string(bottle.name)
        case nil:
            members["command"] = .null
        }
        return .object(members)
    }

    /// A bottle command's state on `…/command/result` (docs/design.md 3.5), as the `command` event:
    /// `{"argument":"2600","command":"goal","id":4,"message":"…","status":"applied"}`.
    static func bottleCommandResult(_ result: SinkCommandResult) -> JSONValue {
        .object([
            "id": .optional(result.id.map { Int($0) }),
            "command": .string(result.command),
            "argument": .optional(result.argument),
            "status": .string(result.status),
            "message": .optional(result.message),
        ])
    }

    /// What Home Assistant's goal number publishes (`command_template`).
    static let goalCommandTemplate = "{\"goal\": {{ value | int }}}"

    /// What Home Assistant's daily-limit and reminders switches publish on the command topic.
    static func dailyLimitCommand(_ on: Bool) -> JSONValue { configCommand("reminders.daily_limit", on) }

    static func configCommand(_ key: String, _ on: Bool) -> JSONValue {
        .object(["config": .object(["key": .string(key), "value": .string(on ? "true" : "false")])])
    }
}
