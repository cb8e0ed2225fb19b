// Home Assistant device-based MQTT discovery (docs/integrations.md 2): one retained message at
// `homeassistant/device/aquavate_<id>/config` describes the bottle and all its entities.
//
// * `dev` and `o` are required at the root; `availability_topic`, `state_topic` and `qos` are
//   shared options there, which a component may override (Home Assistant merges a shared option
//   only where the component does not set it) — the two `event` entities do, with their topics.
// * Every entity has `p` (platform) and `unique_id` = `aquavate_<id>_<key>`.
// * Device classes and units follow homeassistant/components/sensor/const.py: `volume` (mL,
//   `total_increasing`) for the day total — whose drop to 0 at midnight HA reads as a meter
//   reset — `volume_storage` (mL, `measurement`) for the bottle level, `battery` (%).
// * The daily-limit switch publishes a config command on the command topic, and reads its
//   state from the shared state JSON.

enum HomeAssistantDiscovery {
    static func payload(for configuration: MQTTSinkConfiguration) -> JSONValue {
        let topics = configuration.topics
        let prefix = "aquavate_\(topics.bottleID)"

        var device: [String: JSONValue] = [
            "identifiers": .array([.string(prefix)]),
            "connections": .array([.array([.string("mac"), .string(configuration.bottleAddress)])]),
            "name": .string(configuration.bottleName),
            "manufacturer": .string("Aquavate"),
            "model": .string("Puck v1.0"),
        ]
        if let firmware = configuration.firmwareVersion { device["sw_version"] = .string(firmware) }

        var origin: [String: JSONValue] = [
            "name": .string("aquavate-bridge"),
            "sw": .string(configuration.bridgeVersion),
        ]
        if let url = configuration.supportURL { origin["url"] = .string(url) }

        func component(_ key: String, _ platform: String, _ name: String,
                       _ options: [String: JSONValue]) -> (String, JSONValue) {
            var entity = options
            entity["p"] = .string(platform)
            entity["name"] = .string(name)
            entity["unique_id"] = .string("\(prefix)_\(key)")
            return (key, .object(entity))
        }
        func value(_ field: String) -> JSONValue { .string("{{ value_json.\(field) }}") }
        func onOff(_ field: String) -> JSONValue { .string("{{ 'ON' if value_json.\(field) else 'OFF' }}") }

        let components: [(String, JSONValue)] = [
            component("daily_total", "sensor", "Water today", [
                "device_class": "volume", "unit_of_measurement": "mL", "state_class": "total_increasing",
                "value_template": value("daily_total_ml"), "icon": "mdi:cup-water",
            ]),
            component("goal", "sensor", "Daily goal", [
                "device_class": "volume", "unit_of_measurement": "mL", "value_template": value("goal_ml"),
                "entity_category": "diagnostic", "icon": "mdi:flag-checkered",
            ]),
            component("bottle_level", "sensor", "Bottle level", [
                "device_class": "volume_storage", "unit_of_measurement": "mL", "state_class": "measurement",
                "value_template": value("bottle_level_ml"),
            ]),
            component("battery", "sensor", "Battery", [
                "device_class": "battery", "unit_of_measurement": "%", "state_class": "measurement",
                "value_template": value("battery"), "entity_category": "diagnostic",
            ]),
            component("urgency", "sensor", "Hydration urgency", [
                "device_class": "enum", "options": .array(["on_track", "attention", "overdue"]),
                "value_template": value("urgency"), "icon": "mdi:water-alert",
            ]),
            component("deficit", "sensor", "Behind pace", [
                "device_class": "volume", "unit_of_measurement": "mL", "value_template": value("deficit_ml"),
                "icon": "mdi:water-minus",
            ]),
            component("reminders_today", "sensor", "Reminders today", [
                "state_class": "measurement", "value_template": value("reminders_today"), "icon": "mdi:bell-ring",
            ]),
            component("last_sync", "sensor", "Last sync", [
                "device_class": "timestamp", "value_template": value("last_sync"), "entity_category": "diagnostic",
            ]),
            component("unsynced", "sensor", "Unsynced records", [
                "state_class": "measurement", "value_template": value("unsynced"), "entity_category": "diagnostic",
            ]),
            component("connected", "binary_sensor", "Bottle connected", [
                "device_class": "connectivity", "value_template": onOff("connected"), "entity_category": "diagnostic",
            ]),
            component("daily_limit", "switch", "Limit reminders to 12 a day", [
                "command_topic": .string(topics.command),
                "payload_on": .string(MQTTPayloads.dailyLimitCommand(true).text),
                "payload_off": .string(MQTTPayloads.dailyLimitCommand(false).text),
                "state_on": "ON", "state_off": "OFF", "value_template": onOff("daily_limit"),
                "entity_category": "config", "icon": "mdi:bell-cog",
            ]),
            component("drink", "event", "Drink", [
                "state_topic": .string(topics.drink), "event_types": .array(["drink"]), "icon": "mdi:cup-water",
            ]),
            component("notification", "event", "Notification", [
                "state_topic": .string(topics.notification),
                "event_types": .array(SinkNotification.Kind.all.map(JSONValue.string)), "icon": "mdi:bell",
            ]),
        ]

        return .object([
            "dev": .object(device),
            "o": .object(origin),
            "availability_topic": .string(topics.availability),
            "state_topic": .string(topics.state),
            "qos": .int(1),
            "cmps": .object(Dictionary(uniqueKeysWithValues: components)),
        ])
    }
}
