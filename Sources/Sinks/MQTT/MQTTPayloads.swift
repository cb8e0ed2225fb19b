// The JSON the MQTT sink publishes, one Codable message each. Field names follow docs/design.md
// 3.4 (`daily_total_ml`, `bottle_level_ml`, `battery`, `unsynced`, ISO 8601 times with `Z`), so a
// `replay --json` line and an MQTT message read the same. Unknown values are null (`Nullable`).
// Events carry `event_type`, which Home Assistant's MQTT `event` entities require.

import AquavateProtocol
import MQTT
import Timekeeping

enum MQTTPayloads {
    /// Retained on `…/state`:
    /// `{"battery":87,"bottle_level_ml":420,"connected":true,"daily_limit":true,
    ///   "daily_total_ml":1250,"day_start":"2026-11-20T23:00:00Z","daily_goal_ml":2500,"deficit_ml":300,
    ///   "last_drink_ml":250,"last_drink_time":"2026-11-21T09:10:00Z","last_seen":"2026-11-21T09:12:00Z",
    ///   "last_sync":"2026-11-21T09:12:00Z","pending_commands":0,"pending_goal_ml":null,
    ///   "pending_shake_to_empty":null,"percent_of_goal":50,"quarantined":0,"reminders_enabled":true,
    ///   "reminders_today":2,"stuck":false,"stuck_since":null,"time":"2026-11-21T09:15:00Z","unsynced":0,
    ///   "urgency":"attention"}`
    struct State: WireMessage, Decodable, Equatable {
        var time: String
        var dailyTotalML: Int
        @Nullable var dayStart: String?
        /// The person's daily goal in force (docs/design.md 3.7), what `percent_of_goal` is of.
        var dailyGoalML: Int
        var percentOfGoal: Int
        @Nullable var bottleLevelML: Int?
        @Nullable var battery: Int?
        var urgency: HydrationUrgency
        var deficitML: Int
        var remindersToday: Int
        var remindersEnabled: Bool
        var dailyLimit: Bool
        @Nullable var lastSync: String?
        @Nullable var lastSeen: String?
        @Nullable var lastDrinkML: Int?
        @Nullable var lastDrinkTime: String?
        @Nullable var unsynced: Int?
        var connected: Bool
        @Nullable var shakeToEmpty: Bool?
        @Nullable var bottleGoalML: Int?
        @Nullable var pendingGoalML: Int?
        @Nullable var pendingShakeToEmpty: Bool?
        var pendingCommands: Int
        var quarantined: Int
        var stuck: Bool
        @Nullable var stuckSince: String?

        enum CodingKeys: String, CodingKey {
            case time, dailyTotalML = "daily_total_ml", dayStart = "day_start", dailyGoalML = "daily_goal_ml", percentOfGoal = "percent_of_goal",
                 bottleLevelML = "bottle_level_ml", battery, urgency, deficitML = "deficit_ml", remindersToday = "reminders_today",
                 remindersEnabled = "reminders_enabled", dailyLimit = "daily_limit", lastSync = "last_sync", lastSeen = "last_seen",
                 lastDrinkML = "last_drink_ml", lastDrinkTime = "last_drink_time", unsynced, connected, shakeToEmpty = "shake_to_empty",
                 bottleGoalML = "bottle_goal_ml", pendingGoalML = "pending_goal_ml", pendingShakeToEmpty = "pending_shake_to_empty",
                 pendingCommands = "pending_commands", quarantined, stuck, stuckSince = "stuck_since"
        }
    }

    static func state(_ snapshot: BridgeSnapshot) -> State {
        State(time: ISO8601Text.format(snapshot.time), dailyTotalML: snapshot.dayTotalML,
              dayStart: snapshot.dayStart.map(ISO8601Text.format), dailyGoalML: snapshot.goalML,
              percentOfGoal: percent(snapshot.dayTotalML, of: snapshot.goalML), bottleLevelML: snapshot.bottleLevelML,
              battery: snapshot.batteryPercent, urgency: snapshot.urgency, deficitML: snapshot.deficitML,
              remindersToday: snapshot.remindersToday, remindersEnabled: snapshot.remindersEnabled, dailyLimit: snapshot.dailyLimit,
              lastSync: snapshot.lastSync.map(ISO8601Text.format), lastSeen: snapshot.lastSeen.map(ISO8601Text.format),
              lastDrinkML: snapshot.lastDrinkML, lastDrinkTime: snapshot.lastDrinkTime.map(ISO8601Text.format),
              unsynced: snapshot.unsynced, connected: snapshot.bottleConnected, shakeToEmpty: snapshot.shakeToEmpty,
              bottleGoalML: snapshot.bottleGoalML, pendingGoalML: snapshot.pendingGoalML,
              pendingShakeToEmpty: snapshot.pendingShakeToEmpty, pendingCommands: snapshot.pendingCommands,
              quarantined: snapshot.quarantined, stuck: snapshot.stuck, stuckSince: snapshot.stuckSince.map(ISO8601Text.format))
    }

    /// Today's intake as a whole percentage of the goal (a goal of 0 ml counts as reached).
    static func percent(_ total: Int, of goal: Int) -> Int {
        goal > 0 ? Int((Double(total) * 100 / Double(goal)).rounded()) : 100
    }

    /// The `event_type` of a drink event (Home Assistant's `event_types` list it).
    enum DrinkEventType: String, Codable { case drink }

    /// One per stored record on `…/drink`:
    /// `{"amount_ml":250,"bottle_level_ml":330,"event_type":"drink","record_id":17,
    ///   "time":"2026-11-21T09:10:00Z","type":"gulp"}`
    struct DrinkEvent: WireMessage, Decodable, Equatable {
        var eventType = DrinkEventType.drink
        var recordID: Int
        var time: String
        var amountML: Int
        var bottleLevelML: Int
        var type: String

        enum CodingKeys: String, CodingKey {
            case eventType = "event_type", recordID = "record_id", time, amountML = "amount_ml", bottleLevelML = "bottle_level_ml", type
        }
    }

    /// The payload's own shape: the record's stamp as ISO 8601 UTC, the type by its name; the
    /// bottle is the topic's, not a field.
    static func drink(_ drink: Drink) -> DrinkEvent {
        DrinkEvent(recordID: Int(drink.recordID), time: ISO8601Text.format(WallInstant(secondsSince1970: Double(drink.timestamp))),
                   amountML: drink.amountML, bottleLevelML: drink.bottleLevelML, type: drink.kind.rawValue)
    }

    /// One per notification on `…/notification`; `event_type` is the kind:
    /// `{"actions":[{"id":"did-this","label":"Did This"}],"body":"…","event_type":"ritual",
    ///   "id":"ritual-morning-2026-11-22","kind":"ritual","priority":3,"time":"…","title":"…"}`
    struct NotificationEvent: WireMessage, Decodable, Equatable {
        struct Action: Codable, Equatable {
            var id: String
            var label: String
        }

        var eventType: String
        var id: String
        var kind: String
        var title: String
        var body: String
        var time: String
        var priority: SinkPriority
        var actions: [Action]

        enum CodingKeys: String, CodingKey {
            case eventType = "event_type", id, kind, title, body, time, priority, actions
        }
    }

    static func notification(_ notification: SinkNotification) -> NotificationEvent {
        NotificationEvent(eventType: notification.kind, id: notification.id, kind: notification.kind, title: notification.title,
                          body: notification.body, time: ISO8601Text.format(notification.time), priority: notification.priority,
                          actions: notification.actions.map { .init(id: $0.id, label: $0.label) })
    }

    /// What became of a command that came in.
    enum CommandStatus: String, Codable {
        /// Handed to the bridge, which logs what it did.
        case accepted
        case refused
    }

    /// The command's name in its answer.
    enum CommandName: String, Codable {
        case config, log, action, goal, delete, tare
        case shakeToEmpty = "shake-to-empty"

        init(_ command: SinkBottleCommand) {
            switch command {
            case .goal: self = .goal
            case .delete, .deleteLast: self = .delete
            case .tare: self = .tare
            case .shakeToEmpty: self = .shakeToEmpty
            }
        }
    }

    /// The answer to one command on `…/command/result`, not retained:
    /// `{"command":"config","key":"push.url","message":"push.url cannot be changed …","reason":"setting","status":"refused"}`.
    /// The value of a config command is never repeated (it may be a secret). `command` is null
    /// when the payload was not a command at all; the other keys are there only for their command.
    /// `reason` (a refusal's, SinkCommandRefusalReason) is what a program reads; `message` is for people.
    struct CommandResult: WireMessage, Decodable, Equatable {
        var status: CommandStatus
        @Nullable var message: String?
        @Nullable var command: CommandName?
        var reason: SinkCommandRefusalReason?
        var key: String?
        var type: String?
        var bottle: String?
        var id: String?
        var action: String?
    }

    static func commandResult(_ command: SinkCommand?, status: CommandStatus, message: String?,
                              reason: SinkCommandRefusalReason? = nil) -> CommandResult {
        var result = CommandResult(status: status, message: message, command: nil, reason: reason)
        switch command {
        case let .configSet(key, _)?:
            result.command = .config
            result.key = key
        case let .log(type, bottle)?:
            result.command = .log
            result.type = type
            result.bottle = bottle
        case let .action(id, action)?:
            result.command = .action
            result.id = id
            result.action = action
        case let .bottle(bottle)?, let .bottleOf(bottle, _)?:
            result.command = CommandName(bottle)
        case nil:
            break
        }
        return result
    }

    /// A bottle command's state on `…/command/result` (docs/design.md 3.5), as the `command` event:
    /// `{"bottle_goal_ml":2600,"command":"goal","goal_ml":2600,"id":4,"message":"…","status":"applied"}`.
    /// What the command asks is a number (`bottle_goal_ml`, with `goal_ml`, its earlier key,
    /// beside it; `record_id`) or a flag (`on`), present for the commands that have one, as in the
    /// JSON event; never the history's stored text.
    struct BottleCommandResult: WireMessage, Decodable, Equatable {
        @Nullable var id: Int?
        var command: String
        var status: String
        @Nullable var message: String?
        var bottleGoalML: Int?
        var goalML: Int?
        var recordID: Int?
        var on: Bool?

        enum CodingKeys: String, CodingKey {
            case id, command, status, message, bottleGoalML = "bottle_goal_ml", goalML = "goal_ml", recordID = "record_id", on
        }
    }

    static func bottleCommandResult(_ result: SinkCommandResult) -> BottleCommandResult {
        BottleCommandResult(id: result.id.map { Int($0) }, command: result.command, status: result.status,
                            message: result.message, bottleGoalML: result.goalML, goalML: result.goalML, recordID: result.recordID, on: result.on)
    }

    /// What Home Assistant's goal number publishes (`command_template`).
    static let goalCommandTemplate = "{\"goal\": {{ value | int }}}"

    /// `{"config":{"key":KEY,"value":"true"|"false"}}`: what Home Assistant's daily-limit and
    /// reminders switches publish on the command topic.
    struct ConfigCommand: WireMessage, Decodable, Equatable {
        struct Setting: Codable, Equatable {
            var key: String
            var value: String
        }

        var config: Setting
    }

    static func dailyLimitCommand(_ on: Bool) -> ConfigCommand { configCommand("reminders.daily_limit", on) }

    static func configCommand(_ key: String, _ on: Bool) -> ConfigCommand {
        ConfigCommand(config: .init(key: key, value: on ? "true" : "false"))
    }
}
