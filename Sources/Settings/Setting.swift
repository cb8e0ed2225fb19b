// Every setting the bridge knows, typed: the one place a dotted name is written (docs/design.md
// 3.2, docs/reminders.md 2.1). `SettingCatalog.keys` (what `config list` shows and the file, `config
// set` and `--set` accept) is made from this table, in this order. The reminder rules' defaults
// and ranges are the rules' own (`HydrationSettings`, `DeadlineSettings`, `RitualSettings`), not
// copies of them.

import Foundation
import Reminders
import Timekeeping

/// The typed keys: `configuration[Setting.dailyLimit]` is a `Bool`.
package enum Setting {
    private static let hydration = HydrationSettings(timeZone: TimeZone(identifier: "UTC")!)
    private static let rituals = RitualSettings()

    package static let timezone = TypedKey<TimeZone>(
        SettingKey("timezone", .timeZone, default: nil, "local time zone for day totals and reminders (default: the system's)", access: .person),
        decode: { TimeZone(identifier: $0) }, fallback: { TimeZone.current })
    /// Called `goal_ml` before it was told apart from the bottle's goal (docs/design.md 3.7).
    package static let dailyGoalML: TypedKey<Int?> = .optionalInteger(
        "daily_goal_ml", DailyGoal.rangeML, "the person's daily goal in ml, what reminders and progress measure against (default: the bottle's goal, else \(DailyGoal.defaultML))",
        access: .person, perBottle: true, formerNames: ["goal_ml"])
    package static let notificationsEnabled: TypedKey<Bool> = .flag(
        "notifications.enabled", default: hydration.notificationsEnabled, "master switch for every notification", access: .person, perBottle: true)
    package static let remindersEnabled: TypedKey<Bool> = .flag(
        "reminders.enabled", default: hydration.enabled, "hydration pace reminders", access: .person, perBottle: true)
    package static let dailyLimit: TypedKey<Bool> = .flag(
        "reminders.daily_limit", default: hydration.dailyLimit,
        "at most \(HydrationSettings.maxRemindersPerDay) hydration reminders per reminder day", access: .person, perBottle: true)
    package static let backOnTrack: TypedKey<Bool> = .flag(
        "reminders.back_on_track", default: hydration.backOnTrack, "\"back on track\" alerts", access: .person, perBottle: true)
    package static let activeStart: TypedKey<TimeOfDay> = timeOfDay(
        "reminders.active_start", default: TimeOfDay(minuteOfDay: hydration.activeStartMinute)!,
        "start of the pace window (before it: quiet hours)", perBottle: true)
    package static let activeEnd: TypedKey<TimeOfDay> = timeOfDay(
        "reminders.active_end", default: TimeOfDay(minuteOfDay: hydration.activeEndMinute)!,
        "end of the pace window (after it: quiet hours)", perBottle: true)
    package static let minDeficitML: TypedKey<Int> = .integer(
        "reminders.min_deficit_ml", HydrationSettings.minDeficitRangeML, default: hydration.minDeficitML,
        "no reminder below this deficit", access: .person, perBottle: true)
    package static let resetHour: TypedKey<Int> = .integer(
        "reminders.reset_hour", HydrationSettings.resetHourRange, default: hydration.resetHour,
        "hour at which the reminder day starts", access: .person)
    package static let messagesEnabled: TypedKey<Bool> = .flag(
        "messages.enabled", default: MessageSettings().enabled, "daily message at 10:00", access: .person, perBottle: true)
    package static let messagesLocale: TypedKey<MessageLocale> = .choice(
        "messages.locale", default: MessageSettings().locale, "language of the shipped message pool", access: .person)
    package static let messagesPool: TypedKey<String?> = .text(
        "messages.pool", "file with one message per line (relative to the config file)")
    package static let deadlineEnabled: TypedKey<Bool> = .flag(
        "deadline.enabled", default: DeadlineSettings().enabled, "deadline reminder", access: .person, perBottle: true)
    package static let deadlinePeriod: TypedKey<DeadlinePeriod> = .choice(
        "deadline.period", default: DeadlineSettings().period, "which goal the deadline watches", access: .person)
    package static let deadlineHoursBefore: TypedKey<Int> = .integer(
        "deadline.hours_before", DeadlineSettings.hoursBeforeRange, default: DeadlineSettings.defaultHoursBefore,
        "hours before the period ends", access: .person)
    package static let weeklyGoalML: TypedKey<Int?> = .optionalInteger(
        "deadline.weekly_goal_ml", DeadlineSettings.weeklyGoalRangeML, "weekly goal in ml (default 7 × daily_goal_ml)", access: .person)
    package static let ritualsEnabled: TypedKey<Bool> = .flag(
        "rituals.enabled", default: rituals.enabled, "morning and evening rituals", access: .person, perBottle: true)
    package static let ritualsMorning: TypedKey<TimeOfDay> = timeOfDay("rituals.morning", default: rituals.morning, "morning ritual time")
    package static let ritualsEvening: TypedKey<TimeOfDay> = timeOfDay("rituals.evening", default: rituals.evening, "evening ritual time")
    package static let ritualsTerrain: TypedKey<RitualTerrain?> = .optionalChoice(
        "rituals.terrain", "terrain of the ritual programme", access: .person)
    package static let ritualsNickname: TypedKey<String?> = .text(
        "rituals.nickname", kind: .shortName(characters: RitualSettings.nicknameLengthRange, example: "Low Flame"),
        "terrain nickname shown in ritual titles", access: .person)
    package static let mqttURL: TypedKey<String?> = .text(
        "mqtt.url", kind: .url(schemes: ["mqtt", "mqtts"]), "MQTT broker (Home Assistant)")
    package static let mqttDiscoveryPrefix: TypedKey<String> = .text(
        "mqtt.discovery_prefix", default: "homeassistant", "Home Assistant discovery prefix")
    package static let mqttTopicPrefix: TypedKey<String> = .text(
        "mqtt.topic_prefix", default: "aquavate", "base topic of the bridge's own messages")
    package static let mqttDiscovery: TypedKey<Bool> = .flag(
        "mqtt.discovery", default: true, "publish Home Assistant discovery")
    package static let mqttDiscoveryFormat: TypedKey<MQTTDiscoveryFormat> = .choice(
        "mqtt.discovery_format", default: .device,
        "device: one config per device (Home Assistant 2024.11+); entity: one per entity (Home Assistant 2023.12+)")
    package static let mqttCommands: TypedKey<MQTTCommandScope> = .choice(
        "mqtt.commands", default: .controls,
        "which commands from the broker's command topic the bridge obeys: none; controls (Home Assistant's goal, switches and buttons); all (also any setting of the person, any record id, manual intakes, notification buttons)")
    package static let mqttBottleID: TypedKey<String?> = .text(
        "mqtt.bottle_id", "id in topics (default: the bottle's address without colons)")
    package static let mqttCAFile: TypedKey<String?> = .text(
        "mqtt.ca_file", "mqtts: PEM file of CA certificates (default: the system's)")
    package static let pushURL: TypedKey<String?> = .text(
        "push.url", kind: .url(schemes: ["http", "https"]), "HTTP push (ntfy-style) topic URL")
    package static let pushToken: TypedKey<String?> = .text(
        "push.token", "push access token, sent as Authorization: Bearer", secret: true)
    package static let pushActionURL: TypedKey<String?> = .text(
        "push.action_url", kind: .url(schemes: ["http", "https"]),
        "where push action buttons POST their command (e.g. a Home Assistant webhook); unset = no buttons")
    package static let desktopEnabled: TypedKey<Bool> = .flag(
        "desktop.enabled", default: true, "desktop notifications on the session bus")
    package static let bottleAddress: TypedKey<String?> = .text(
        "bottle.address", "address of the adopted bottle (setup writes it; run then syncs only this bottle)")
    package static let bluetoothAdapter: TypedKey<String?> = .text(
        "bluetooth.adapter", "adapter to use, e.g. hci0 (default: the first powered one)")
    package static let webListen: TypedKey<String?> = .text(
        "web.listen", kind: .listenAddress,
        "where `run` serves the web page, JSON API and metrics, [ADDR:]PORT (default: off; ADDR \(ListenAddress.defaultHost))")
    package static let webToken: TypedKey<String?> = .text(
        "web.token", kind: .accessToken,
        "access token of the web page and API, at least 16 bytes of entropy; required for any address but loopback", secret: true)
    package static let webPublicName: TypedKey<String?> = .text(
        "web.public_name", kind: .hostName, "the name browsers use for the page beyond loopback (a reverse proxy's name); needs web.token")
    package static let webBehindProxy: TypedKey<Bool> = .flag(
        "web.behind_proxy", default: false, "a TLS reverse proxy serves the page: required to listen on an address other than loopback")
    package static let bridgeID: TypedKey<String?> = .text(
        "bridge.id", "this bridge's name on the broker and in Home Assistant (default: the host name)")
    package static let householdKey: TypedKey<String?> = .text(
        "household.key", kind: .householdKey,
        "the household's shared secret: bridges with it on one broker share drinks, claims and reminders (`household create` / `household join KEY`); unset = no household",
        secret: true)
    /// The household link's own broker login. A broker with `use_username_as_clientid` gives each
    /// login one connection (a second one closes the first), and a bridge opens two: Home
    /// Assistant's, under `mqtt.url`'s login, and the household's, under this one.
    package static let householdMQTTUsername: TypedKey<String?> = .text(
        "household.mqtt_username",
        "the household link's own broker login, named like bridge.id (default: mqtt.url's login); needed with mosquitto's use_username_as_clientid")
    package static let householdMQTTPassword: TypedKey<String?> = .text(
        "household.mqtt_password", "the password of household.mqtt_username (`config set household.mqtt_password -` reads it from standard input)",
        secret: true)
    /// Only per bottle: the person the bottle belongs to, in notification titles and on every
    /// surface that shows the bottle.
    package static let owner: TypedKey<String?> = .text(
        "owner", "the person the bottle belongs to (shown in notification titles)", access: .person, perBottle: true)

    /// Every global setting, in the order `config list` shows them (`owner` exists only per bottle).
    static let all: [SettingKey] = [
        timezone.entry, dailyGoalML.entry, notificationsEnabled.entry, remindersEnabled.entry, dailyLimit.entry, backOnTrack.entry,
        activeStart.entry, activeEnd.entry, minDeficitML.entry, resetHour.entry,
        messagesEnabled.entry, messagesLocale.entry, messagesPool.entry,
        deadlineEnabled.entry, deadlinePeriod.entry, deadlineHoursBefore.entry, weeklyGoalML.entry,
        ritualsEnabled.entry, ritualsMorning.entry, ritualsEvening.entry, ritualsTerrain.entry, ritualsNickname.entry,
        mqttURL.entry, mqttDiscoveryPrefix.entry, mqttTopicPrefix.entry, mqttDiscovery.entry, mqttDiscoveryFormat.entry,
        mqttCommands.entry, mqttBottleID.entry, mqttCAFile.entry, pushURL.entry, pushToken.entry, pushActionURL.entry, desktopEnabled.entry,
        bottleAddress.entry, bluetoothAdapter.entry, webListen.entry, webToken.entry, webPublicName.entry, webBehindProxy.entry,
        bridgeID.entry, householdKey.entry, householdMQTTUsername.entry, householdMQTTPassword.entry,
    ]

    /// `HH:MM`, as the rules' `TimeOfDay`.
    private static func timeOfDay(_ name: String, default value: TimeOfDay, _ summary: String, perBottle: Bool = false) -> TypedKey<TimeOfDay> {
        TypedKey(SettingKey(name, .timeOfDay, default: value.description, summary, access: .person, perBottle: perBottle),
                 decode: { try? TimeOfDay(parsing: $0) }, fallback: { value })
    }
}

extension Configuration {
    /// The effective value of a setting: `--set`, else `config set`, else the file, else its default.
    package subscript<Value>(_ key: TypedKey<Value>) -> Value {
        key.value(of: value(key.name))
    }
}
