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
//   `number` for the goal (`BottleGoal`'s range and step, mL), a `button` for tare, a `switch` for
//   shake-to-empty; the bridge queues each for the bottle's next connection and answers on
//   `…/command/result`. A drink is deleted with `{"delete":RECORD_ID}` on the command topic.
//   Calibration needs a person at the bottle, so it is not offered here.
// * The device's identifier is the bottle's Device Information serial (its address until the
//   serial is read), its `sw_version` the firmware, its `model` the Device Information model;
//   it is `via_device` the bridge, itself a device with the bridge's version.

import AquavateProtocol
import MQTT

enum HomeAssistantDiscovery {
    /// `otherBridges`: the household's other bridges (docs/design.md 6) by id; the bottle is then
    /// available while any of them is (`availability_mode: any`).
    static func payload(for configuration: MQTTSinkConfiguration, otherBridges: [String] = []) -> JSONValue {
        var root = shared(for: configuration, otherBridges: otherBridges)
        root["dev"] = device(configuration)
        root["o"] = origin(configuration)
        root["cmps"] = .object(Dictionary(uniqueKeysWithValues: components(for: configuration).map { ($0.key, .object($0.options)) }))
        return .object(root)
    }

    /// Per-entity discovery (Home Assistant before 2024.11, which ignores `homeassistant/device/…`):
    /// the same entities, one retained config each at `<prefix>/<platform>/aquavate_<id>/<key>/config`,
    /// each carrying the device, the origin and the shared options itself.
    static func entityPayloads(for configuration: MQTTSinkConfiguration, otherBridges: [String] = []) -> [(topic: String, payload: JSONValue)] {
        let root = shared(for: configuration, otherBridges: otherBridges)
        return components(for: configuration).map { component in
            var entity = component.options
            let platform = entity.removeValue(forKey: "p")?.stringValue ?? "sensor"
            for (key, value) in root where entity[key] == nil && !(key == "state_topic" && platform == "button") {
                entity[key] = value
            }
            entity["device"] = device(configuration)
            entity["origin"] = origin(configuration)
            return (configuration.topics.entityDiscovery(platform: platform, key: component.key), .object(entity))
        }
    }

    /// The per-entity config topics of every entity this bridge may announce (to clear them when
    /// the device-based form is used, and the other way round).
    static func entityTopics(for configuration: MQTTSinkConfiguration) -> [String] {
        components(for: configuration).map { component in
            configuration.topics.entityDiscovery(platform: component.options["p"]?.stringValue ?? "sensor", key: component.key)
        }
    }

    /// The options every entity of the bottle shares: its state topic, QoS and availability.
    private static func shared(for configuration: MQTTSinkConfiguration, otherBridges: [String]) -> [String: JSONValue] {
        let topics = configuration.topics
        var root: [String: JSONValue] = ["state_topic": .string(topics.state), "qos": .int(1)]
        if otherBridges.isEmpty {
            root["availability_topic"] = .string(topics.availability)
        } else {
            let all = [topics.availability] + otherBridges.sorted().map { configuration.bridgeAvailabilityTopic(of: $0) }
            root["availability"] = .array(all.map { .object(["topic": .string($0)]) })
            root["availability_mode"] = "any"
        }
        return root
    }

    private static func device(_ configuration: MQTTSinkConfiguration) -> JSONValue {
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
        if let url = configuration.dashboardURL { device["configuration_url"] = .string(url) }
        return .object(device)
    }

    /// One entity: its key in `cmps` (also the end of its `unique_id` and `object_id`) and options.
    struct Component {
        var key: String
        var options: [String: JSONValue]
    }

    /// The bottle's entities. `object_id` (the entity id Home Assistant derives) is
    /// `aquavate_<id>_<key>`: short, and stable whatever the entity's or the bottle's name.
    static func components(for configuration: MQTTSinkConfiguration) -> [Component] {
        let topics = configuration.topics
        let prefix = "aquavate_\(topics.bottleID)"

        func component(_ key: String, _ platform: String, _ name: String, _ options: [String: JSONValue]) -> Component {
            var entity = options
            entity["p"] = .string(platform)
            entity["name"] = .string(name)
            entity["unique_id"] = .string("\(prefix)_\(key)")
            entity["object_id"] = .string("\(prefix)_\(key)")
            return Component(key: key, options: entity)
        }
        func value(_ field: String) -> JSONValue { .string("{{ value_json.\(field) }}") }
        // A switch's state from a JSON boolean; null (not read yet) is Home Assistant's `None`: unknown.
        func onOff(_ field: String) -> JSONValue {
            .string("{{ 'None' if value_json.\(field) is none else ('ON' if value_json.\(field) else 'OFF') }}")
        }
        // A control waiting for the bottle's next connection shows what it will be, not what was.
        func pendingOr(_ pending: String, _ field: String) -> String {
            "value_json.\(pending) if value_json.\(pending) is not none else value_json.\(field)"
        }
        let command: JSONValue = .string(topics.command)

        return [
            // `total` with `last_reset` at the day's start: the day's statistics follow a drink's
            // deletion (a decrease) instead of reading it as a new meter, as `total_increasing` does.
            component("daily_total", "sensor", "Water today", [
                "device_class": "volume", "unit_of_measurement": "mL", "state_class": "total",
                "value_template": value("daily_total_ml"), "last_reset_value_template": value("day_start"),
                "icon": "mdi:cup-water",
            ]),
            component("percent_of_goal", "sensor", "Goal reached", [
                "unit_of_measurement": "%", "state_class": "measurement", "value_template": value("percent_of_goal"),
                "icon": "mdi:percent",
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
                "device_class": "enum", "options": .array(HydrationUrgency.allCases.map { .string($0.rawValue) }),
                "value_template": value("urgency"), "icon": "mdi:water-alert",
            ]),
            component("deficit", "sensor", "Behind pace", [
                "device_class": "volume", "unit_of_measurement": "mL", "value_template": value("deficit_ml"),
                "icon": "mdi:water-minus",
            ]),
            component("last_drink", "sensor", "Last drink", [
                "device_class": "volume", "unit_of_measurement": "mL", "value_template": value("last_drink_ml"),
                "icon": "mdi:cup",
            ]),
            component("last_drink_time", "sensor", "Last drink time", [
                "device_class": "timestamp", "value_template": value("last_drink_time"),
            ]),
            component("reminders_today", "sensor", "Reminders today", [
                "state_class": "measurement", "value_template": value("reminders_today"), "icon": "mdi:bell-ring",
            ]),
            component("last_sync", "sensor", "Last sync", [
                "device_class": "timestamp", "value_template": value("last_sync"), "entity_category": "diagnostic",
            ]),
            component("last_seen", "sensor", "Last seen", [
                "device_class": "timestamp", "value_template": value("last_seen"), "entity_category": "diagnostic",
            ]),
            component("unsynced", "sensor", "Unsynced records", [
                "state_class": "measurement", "value_template": value("unsynced"), "entity_category": "diagnostic",
            ]),
            component("pending", "sensor", "Commands waiting", [
                "state_class": "measurement", "value_template": value("pending_commands"), "entity_category": "diagnostic",
                "icon": "mdi:timer-sand",
            ]),
            component("quarantined", "sensor", "Quarantined records", [
                "state_class": "measurement", "value_template": value("quarantined"), "entity_category": "diagnostic",
                "icon": "mdi:alert-box",
            ]),
            // Stuck (docs/design.md 3.4): since when, and how many drinks wait, as attributes.
            component("stuck", "binary_sensor", "Stuck", [
                "device_class": "problem", "value_template": .string("{{ 'ON' if value_json.stuck else 'OFF' }}"),
                "json_attributes_topic": .string(topics.state),
                "json_attributes_template": .string("{{ {'since': value_json.stuck_since, 'drinks_waiting': value_json.unsynced} | tojson }}"),
                "entity_category": "diagnostic",
            ]),
            component("connected", "binary_sensor", "Bottle connected", [
                "device_class": "connectivity", "value_template": .string("{{ 'ON' if value_json.connected else 'OFF' }}"),
                "entity_category": "diagnostic",
            ]),
            component("reminders", "switch", "Reminders", [
                "command_topic": command,
                "payload_on": .string(MQTTPayloads.configCommand("reminders.enabled", true).text),
                "payload_off": .string(MQTTPayloads.configCommand("reminders.enabled", false).text),
                "state_on": "ON", "state_off": "OFF", "value_template": onOff("reminders_enabled"),
                "entity_category": "config", "icon": "mdi:bell",
            ]),
            component("daily_limit", "switch", "Daily reminder limit", [
                "command_topic": command,
                "payload_on": .string(MQTTPayloads.dailyLimitCommand(true).text),
                "payload_off": .string(MQTTPayloads.dailyLimitCommand(false).text),
                "state_on": "ON", "state_off": "OFF", "value_template": onOff("daily_limit"),
                "entity_category": "config", "icon": "mdi:bell-cog",
            ]),
            component("goal_setting", "number", "Bottle goal", [
                "command_topic": command, "command_template": .string(MQTTPayloads.goalCommandTemplate),
                "value_template": .string("{{ \(pendingOr("pending_goal_ml", "bottle_goal_ml")) }}"),
                "min": .int(BottleGoal.rangeML.lowerBound), "max": .int(BottleGoal.rangeML.upperBound), "step": .int(BottleGoal.stepML),
                "mode": "box", "unit_of_measurement": "mL", "device_class": "volume", "entity_category": "config",
                "icon": "mdi:flag-checkered",
            ]),
            component("tare", "button", "Tare", [
                "command_topic": command, "payload_press": .string(#"{"tare":true}"#),
                "entity_category": "config", "icon": "mdi:scale-balance",
            ]),
            component("delete_last_drink", "button", "Delete last drink", [
                "command_topic": command, "payload_press": .string(#"{"delete":"last"}"#),
                "icon": "mdi:cup-off",
            ]),
            component("shake_to_empty", "switch", "Shake to empty", [
                "command_topic": command,
                "payload_on": .string(#"{"shake_to_empty":"on"}"#), "payload_off": .string(#"{"shake_to_empty":"off"}"#),
                "state_on": "ON", "state_off": "OFF",
                "value_template": .string("{% set on = \(pendingOr("pending_shake_to_empty", "shake_to_empty")) %}"
                                          + "{{ 'None' if on is none else ('ON' if on else 'OFF') }}"),
                "entity_category": "config", "icon": "mdi:vibrate",
            ]),
            // Retained: after a Home Assistant restart it still says how the last command went.
            component("command_result", "sensor", "Last bottle command", [
                "state_topic": .string(topics.commandLast),
                "value_template": .string("{{ value_json.status }}"),
                "json_attributes_topic": .string(topics.commandLast),
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
    }

    /// The bridge itself, the device every bottle is `via_device` of: whether it is online.
    static func bridgePayload(for configuration: MQTTSinkConfiguration) -> JSONValue {
        var root = bridgeEntity(for: configuration)
        let online = root.removeValue(forKey: "online") ?? .null
        root["cmps"] = .object(["online": online])
        return .object(root)
    }

    /// The bridge's `online` entity in the per-entity form (its device and origin inside).
    static func bridgeEntityPayload(for configuration: MQTTSinkConfiguration) -> JSONValue {
        let root = bridgeEntity(for: configuration)
        guard case var .object(online)? = root["online"] else { return .null }
        online.removeValue(forKey: "p")
        online["device"] = root["dev"]
        online["origin"] = root["o"]
        return .object(online)
    }

    private static func bridgeEntity(for configuration: MQTTSinkConfiguration) -> [String: JSONValue] {
        let topics = configuration.topics
        let identifier = bridgeIdentifier(configuration)
        var device: [String: JSONValue] = [
            "identifiers": .array([.string(identifier)]),
            "name": .string("Aquavate bridge \(topics.bridgeID)"),
            "manufacturer": .string("aquavate-bridge"),
            "model": .string("Bluetooth bridge"),
            "sw_version": .string(configuration.bridgeVersion),
        ]
        if let url = configuration.dashboardURL { device["configuration_url"] = .string(url) }
        let online: JSONValue = .object([
            "p": "binary_sensor", "name": "Online", "unique_id": .string("\(identifier)_online"),
            "object_id": .string("\(identifier)_online"),
            "device_class": "connectivity", "state_topic": .string(topics.availability),
            "payload_on": "online", "payload_off": "offline", "entity_category": "diagnostic",
        ])
        return ["dev": .object(device), "o": origin(configuration), "qos": .int(1), "online": online]
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
