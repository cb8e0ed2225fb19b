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
//   state from the shared state JSON. The bottle's controls (docs/design.md 3.5) do the same: a
//   `number` for the goal (1000–4000, step 50, mL), a `button` for tare, a `switch` for
//   shake-to-empty; the bridge queues each for the bottle's next connection and answers on
//   `…/command/result`. A drink is deleted with `{"delete":RECORD_ID}` on the command topic.
//   Calibration needs a person at the bottle, so it is not offered here.
// * The device's identifier is the bottle's Device Information serial (its address until the
//   serial is read), its `sw_version` the firmware, its `model` the Device Information model;
//   it is `via_device` the bridge, itself a device with the bridge's version.

enum HomeAssistantDiscovery {
    /// `otherBridges`: the household's other bridges (docs/design.md 6) by id; the bottle is then
    /// available while any of them is (`availability_mode: any`).
    static func payload(for configuration: MQTTSinkConfiguration, otherBridges: [String] = []) -> JSONValue {
        let topics = configuration.topics
        let prefix = "aquavate_\(topics.bottleID)"

        var device: [String: JSONValue] = [
            "identifiers": .array([.string(deviceIdentifier(configuration))]),
            "name": .string(configuration.bottleName),
            "manufacturer": .string("Aquavate"),
            "via_device": .string(bridgeIdentifier(configuration)),
        ]
        if let address = configuration.bottleAddress {
            device["connections"] = .array([.array([.string("mac"), .string(address)])])
        }
        if let firmware = configuration.firmwareVersion { device["sw_version"] = .string(firmware) }
        if let model = configuration.bottleModel { device["model"] = .string(model) }
        if let serial = configuration.bottleSerial { device["serial_number"] = .string(serial) }

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
            component("goal_setting", "number", "Bottle goal", [
                "command_topic": .string(topics.command), "command_template": .string(MQTTPayloads.goalCommandTemplate),
                "value_template": .string("{{ value_json.bottle_goal_ml }}"), "min": .int(1000), "max": .int(4000), "step": .int(50),
                "mode": "box", "unit_of_measurement": "mL", "device_class": "volume", "entity_category": "config",
                "icon": "mdi:flag-checkered",
            ]),
            component("tare", "button", "Tare (count what is in it as empty)", [
                "command_topic": .string(topics.command), "payload_press": .string(#"{"tare":true}"#),
                "entity_category": "config", "icon": "mdi:scale-balance",
            ]),
            component("shake_to_empty", "switch", "Shake to empty", [
                "command_topic": .string(topics.command),
                "payload_on": .string(#"{"shake_to_empty":"on"}"#), "payload_off": .string(#"{"shake_to_empty":"off"}"#),
                "state_on": "ON", "state_off": "OFF",
                "value_template": .string("{{ 'ON' if value_json.shake_to_empty else 'OFF' }}"),
                "entity_category": "config", "icon": "mdi:vibrate",
            ]),
            component("command_result", "sensor", "Last bottle command", [
                "state_topic": .string(topics.commandResult),
                "value_template": .string("{{ value_json.status }}"),
                "json_attributes_topic": .string(topics.commandResult),
                "entity_category": "diagnostic", "icon": "mdi:message-check",
            ]),
            component("drink", "event", "Drink", [
                "state_topic": .string(topics.drink), "event_types": .array(["drink"]), "icon": "mdi:cup-water",
            ]),
            component("notification", "event", "Notification", [
                "state_topic": .string(topics.notification),
                "event_types": .array(SinkNotification.Kind.all.map(JSONValue.string)), "icon": "mdi:bell",
            ]),
        ]

        var root: [String: JSONValue] = [
            "dev": .object(device),
            "o": origin(configuration),
            "state_topic": .string(topics.state),
            "qos": .int(1),
            "cmps": .object(Dictionary(uniqueKeysWithValues: components)),
        ]
        if otherBridges.isEmpty {
            root["availability_topic"] = .string(topics.availability)
        } else {
            let all = [topics.availability] + otherBridges.sorted().map { configuration.bridgeAvailabilityTopic(of: $0) }
            root["availability"] = .array(all.map { .object(["topic": .string($0)]) })
            root["availability_mode"] = "any"
        }
        return .object(root)
    }

    /// The bridge itself, the device every bottle is `via_device` of: whether it is online.
    static func bridgePayload(for configuration: MQTTSinkConfiguration) -> JSONValue {
        let topics = configuration.topics
        let identifier = bridgeIdentifier(configuration)
        let device: [String: JSONValue] = [
            "identifiers": .array([.string(identifier)]),
            "name": .string("Aquavate bridge \(topics.bridgeID)"),
            "manufacturer": .string("aquavate-bridge"),
            "model": .string("Bluetooth bridge"),
            "sw_version": .string(configuration.bridgeVersion),
        ]
        let online: JSONValue = .object([
            "p": "binary_sensor", "name": "Online", "unique_id": .string("\(identifier)_online"),
            "device_class": "connectivity", "state_topic": .string(topics.availability),
            "payload_on": "online", "payload_off": "offline", "entity_category": "diagnostic",
        ])
        return .object([
            "dev": .object(device),
            "o": origin(configuration),
            "qos": .int(1),
            "cmps": .object(["online": online]),
        ])
    }

    /// `o`: the software that announced the device.
    private static func origin(_ configuration: MQTTSinkConfiguration) -> JSONValue {
        var origin: [String: JSONValue] = ["name": .string("aquavate-bridge"), "sw": .string(configuration.bridgeVersion)]
        if let url = configuration.supportURL { origin["url"] = .string(url) }
        return .object(origin)
    }

    /// The bottle's device identifier: its serial once read (it never changes), else its topic id.
    static func deviceIdentifier(_ configuration: MQTTSinkConfiguration) -> String {
        "aquavate_" + (configuration.bottleSerial.map(MQTTTopics.bottleID(fromAddress:)) ?? configuration.topics.bottleID)
    }

    static func bridgeIdentifier(_ configuration: MQTTSinkConfiguration) -> String {
        "aquavate_bridge_\(configuration.topics.bridgeID)"
    }
}
