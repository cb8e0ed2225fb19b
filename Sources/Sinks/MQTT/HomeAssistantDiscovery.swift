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
// * No entity names its own entity id: `object_id` is deprecated from Home Assistant 2025.10 (a
//   warning per entity) and ignored from 2026.4, and `default_entity_id`, which replaced it, is
//   dropped unread before 2025.10. Either would give different ids on different releases; without
//   them every release makes the id from the device's and the entity's names
//   (`sensor.aquavate_a3f2_water_today`), the same in both forms.
//
// The messages are Codable (HomeAssistantDiscoveryMessages.swift): an option left nil is left out.

import AquavateProtocol
import MQTT

enum HomeAssistantDiscovery {
    typealias Entity = DiscoveryEntity

    /// `otherBridges`: the household's other bridges (docs/design.md 6) by id; the bottle is then
    /// available while any of them is (`availability_mode: any`).
    static func payload(for configuration: MQTTSinkConfiguration, otherBridges: [String] = []) -> DeviceDiscovery {
        let shared = shared(for: configuration, otherBridges: otherBridges)
        return DeviceDiscovery(stateTopic: shared.stateTopic, qos: shared.qos, availabilityTopic: shared.availabilityTopic,
                               availability: shared.availability, availabilityMode: shared.availabilityMode,
                               dev: device(configuration), o: origin(configuration),
                               cmps: Dictionary(uniqueKeysWithValues: components(for: configuration).map { ($0.key, $0.entity) }))
    }

    /// Per-entity discovery (Home Assistant before 2024.11, which ignores `homeassistant/device/…`):
    /// the same entities, one retained config each at `<prefix>/<platform>/aquavate_<id>/<key>/config`,
    /// each carrying the device, the origin and the shared options itself. The device here has
    /// only the keys Home Assistant 2023.12 knows: it refuses the whole entity for a device
    /// `serial_number` (which came in 2024.2), so the serial stays in the identifier alone.
    static func entityPayloads(for configuration: MQTTSinkConfiguration, otherBridges: [String] = []) -> [(topic: String, payload: Entity)] {
        let shared = shared(for: configuration, otherBridges: otherBridges)
        return components(for: configuration).map { component in
            var entity = component.entity
            let platform = entity.platform ?? .sensor
            entity.platform = nil
            // A shared option fills in only where the entity does not set its own; a button has no state.
            if platform != .button { entity.stateTopic = entity.stateTopic ?? shared.stateTopic }
            entity.qos = entity.qos ?? shared.qos
            entity.availabilityTopic = entity.availabilityTopic ?? shared.availabilityTopic
            entity.availability = entity.availability ?? shared.availability
            entity.availabilityMode = entity.availabilityMode ?? shared.availabilityMode
            entity.device = device(configuration)
            entity.device?.serialNumber = nil
            entity.origin = origin(configuration)
            return (configuration.topics.entityDiscovery(platform: platform.rawValue, key: component.key), entity)
        }
    }

    /// The per-entity config topics of every entity this bridge may announce (to clear them when
    /// the device-based form is used, and the other way round).
    static func entityTopics(for configuration: MQTTSinkConfiguration) -> [String] {
        components(for: configuration).map { component in
            configuration.topics.entityDiscovery(platform: (component.entity.platform ?? .sensor).rawValue, key: component.key)
        }
    }

    /// The options every entity of the bottle shares: its state topic, QoS and availability.
    private static func shared(for configuration: MQTTSinkConfiguration, otherBridges: [String]) -> Entity {
        let topics = configuration.topics
        var root = Entity(stateTopic: topics.state, qos: 1)
        if otherBridges.isEmpty {
            root.availabilityTopic = topics.availability
        } else {
            let all = [topics.availability] + otherBridges.sorted().map { configuration.bridgeAvailabilityTopic(of: $0) }
            root.availability = all.map(DiscoveryAvailability.init(topic:))
            root.availabilityMode = .any
        }
        return root
    }

    private static func device(_ configuration: MQTTSinkConfiguration) -> DiscoveryDevice {
        DiscoveryDevice(identifiers: [deviceIdentifier(configuration)], name: configuration.bottleName, manufacturer: "Aquavate",
                        model: configuration.bottleModel, viaDevice: bridgeIdentifier(configuration),
                        connections: configuration.bottleAddress.map { [["mac", $0]] }, swVersion: configuration.firmwareVersion,
                        serialNumber: configuration.bottleSerial, configurationURL: configuration.dashboardURL)
    }

    /// One entity: its key in `cmps` (also the end of its `unique_id`) and options.
    struct Component {
        var key: String
        var entity: Entity
    }

    /// The bottle's entities. Home Assistant makes each entity id from the device's name and the
    /// entity's `name` when it first sees the entity (and keeps it after a rename): a name changed
    /// here changes the id of every new install, and docs/home-assistant.md lists them.
    static func components(for configuration: MQTTSinkConfiguration) -> [Component] {
        let topics = configuration.topics
        let prefix = "aquavate_\(topics.bottleID)"

        func component(_ key: String, _ platform: DiscoveryEntity.Platform, _ name: String, _ options: Entity) -> Component {
            var entity = options
            entity.platform = platform
            entity.name = name
            entity.uniqueID = "\(prefix)_\(key)"
            return Component(key: key, entity: entity)
        }
        func value(_ field: String) -> String { "{{ value_json.\(field) }}" }
        // A switch's state from a JSON boolean; null (not read yet) is Home Assistant's `None`: unknown.
        func onOff(_ field: String) -> String {
            "{{ 'None' if value_json.\(field) is none else ('ON' if value_json.\(field) else 'OFF') }}"
        }
        // A control waiting for the bottle's next connection shows what it will be, not what was.
        func pendingOr(_ pending: String, _ field: String) -> String {
            "value_json.\(pending) if value_json.\(pending) is not none else value_json.\(field)"
        }
        let command = topics.command

        return [
            // `total` with `last_reset` at the day's start: the day's statistics follow a drink's
            // deletion (a decrease) instead of reading it as a new meter, as `total_increasing` does.
            component("daily_total", .sensor, "Water today", Entity(
                deviceClass: .volume, unit: .millilitres, stateClass: .total,
                valueTemplate: value("daily_total_ml"), lastResetValueTemplate: value("day_start"), icon: "mdi:cup-water")),
            component("percent_of_goal", .sensor, "Goal reached", Entity(
                unit: .percent, stateClass: .measurement, valueTemplate: value("percent_of_goal"), icon: "mdi:percent")),
            component("goal", .sensor, "Daily goal", Entity(
                deviceClass: .volume, unit: .millilitres, valueTemplate: value("daily_goal_ml"), icon: "mdi:flag-checkered",
                entityCategory: .diagnostic)),
            component("bottle_level", .sensor, "Bottle level", Entity(
                deviceClass: .volumeStorage, unit: .millilitres, stateClass: .measurement, valueTemplate: value("bottle_level_ml"))),
            component("battery", .sensor, "Battery", Entity(
                deviceClass: .battery, unit: .percent, stateClass: .measurement, valueTemplate: value("battery"),
                entityCategory: .diagnostic)),
            component("urgency", .sensor, "Hydration urgency", Entity(
                deviceClass: .enumeration, options: HydrationUrgency.allCases, valueTemplate: value("urgency"), icon: "mdi:water-alert")),
            component("deficit", .sensor, "Behind pace", Entity(
                deviceClass: .volume, unit: .millilitres, valueTemplate: value("deficit_ml"), icon: "mdi:water-minus")),
            component("last_drink", .sensor, "Last drink", Entity(
                deviceClass: .volume, unit: .millilitres, valueTemplate: value("last_drink_ml"), icon: "mdi:cup")),
            component("last_drink_time", .sensor, "Last drink time", Entity(
                deviceClass: .timestamp, valueTemplate: value("last_drink_time"))),
            component("reminders_today", .sensor, "Reminders today", Entity(
                stateClass: .measurement, valueTemplate: value("reminders_today"), icon: "mdi:bell-ring")),
            component("last_sync", .sensor, "Last sync", Entity(
                deviceClass: .timestamp, valueTemplate: value("last_sync"), entityCategory: .diagnostic)),
            component("last_seen", .sensor, "Last seen", Entity(
                deviceClass: .timestamp, valueTemplate: value("last_seen"), entityCategory: .diagnostic)),
            component("unsynced", .sensor, "Unsynced records", Entity(
                stateClass: .measurement, valueTemplate: value("unsynced"), entityCategory: .diagnostic)),
            component("pending", .sensor, "Commands waiting", Entity(
                stateClass: .measurement, valueTemplate: value("pending_commands"), icon: "mdi:timer-sand", entityCategory: .diagnostic)),
            component("quarantined", .sensor, "Quarantined records", Entity(
                stateClass: .measurement, valueTemplate: value("quarantined"), icon: "mdi:alert-box", entityCategory: .diagnostic)),
            // Stuck (docs/design.md 3.4): since when, and how many drinks wait, as attributes.
            component("stuck", .binarySensor, "Stuck", Entity(
                deviceClass: .problem, valueTemplate: "{{ 'ON' if value_json.stuck else 'OFF' }}", entityCategory: .diagnostic,
                jsonAttributesTopic: topics.state,
                jsonAttributesTemplate: "{{ {'since': value_json.stuck_since, 'drinks_waiting': value_json.unsynced} | tojson }}")),
            component("connected", .binarySensor, "Bottle connected", Entity(
                deviceClass: .connectivity, valueTemplate: "{{ 'ON' if value_json.connected else 'OFF' }}", entityCategory: .diagnostic)),
            component("reminders", .switch, "Reminders", Entity(
                valueTemplate: onOff("reminders_enabled"), icon: "mdi:bell", entityCategory: .config, commandTopic: command,
                payloadOn: MQTTPayloads.configCommand("reminders.enabled", true).text,
                payloadOff: MQTTPayloads.configCommand("reminders.enabled", false).text, stateOn: "ON", stateOff: "OFF")),
            component("daily_limit", .switch, "Daily reminder limit", Entity(
                valueTemplate: onOff("daily_limit"), icon: "mdi:bell-cog", entityCategory: .config, commandTopic: command,
                payloadOn: MQTTPayloads.dailyLimitCommand(true).text, payloadOff: MQTTPayloads.dailyLimitCommand(false).text,
                stateOn: "ON", stateOff: "OFF")),
            component("goal_setting", .number, "Bottle goal", Entity(
                deviceClass: .volume, unit: .millilitres, valueTemplate: "{{ \(pendingOr("pending_goal_ml", "bottle_goal_ml")) }}",
                icon: "mdi:flag-checkered", entityCategory: .config, commandTopic: command,
                commandTemplate: MQTTPayloads.goalCommandTemplate,
                min: BottleGoal.rangeML.lowerBound, max: BottleGoal.rangeML.upperBound, step: BottleGoal.stepML, mode: .box)),
            component("tare", .button, "Tare", Entity(
                icon: "mdi:scale-balance", entityCategory: .config, commandTopic: command, payloadPress: #"{"tare":true}"#)),
            component("delete_last_drink", .button, "Delete last drink", Entity(
                icon: "mdi:cup-off", commandTopic: command, payloadPress: #"{"delete":"last"}"#)),
            component("shake_to_empty", .switch, "Shake to empty", Entity(
                valueTemplate: "{% set on = \(pendingOr("pending_shake_to_empty", "shake_to_empty")) %}"
                    + "{{ 'None' if on is none else ('ON' if on else 'OFF') }}",
                icon: "mdi:vibrate", entityCategory: .config, commandTopic: command,
                payloadOn: #"{"shake_to_empty":"on"}"#, payloadOff: #"{"shake_to_empty":"off"}"#, stateOn: "ON", stateOff: "OFF")),
            // Retained: after a Home Assistant restart it still says how the last command went.
            component("command_result", .sensor, "Last bottle command", Entity(
                stateTopic: topics.commandLast, valueTemplate: "{{ value_json.status }}", icon: "mdi:message-check",
                entityCategory: .diagnostic, jsonAttributesTopic: topics.commandLast)),
            component("drink", .event, "Drink", Entity(
                stateTopic: topics.drink, icon: "mdi:cup-water", eventTypes: ["drink"])),
            component("notification", .event, "Notification", Entity(
                stateTopic: topics.notification, icon: "mdi:bell", eventTypes: SinkNotification.Kind.all)),
        ]
    }

    /// The bridge itself, the device every bottle is `via_device` of: whether it is online.
    static func bridgePayload(for configuration: MQTTSinkConfiguration) -> BridgeDiscovery {
        BridgeDiscovery(dev: bridgeDevice(configuration), o: origin(configuration), qos: 1,
                        cmps: ["online": bridgeOnline(configuration)])
    }

    /// The bridge's `online` entity in the per-entity form (its device and origin inside).
    static func bridgeEntityPayload(for configuration: MQTTSinkConfiguration) -> Entity {
        var online = bridgeOnline(configuration)
        online.platform = nil
        online.device = bridgeDevice(configuration)
        online.origin = origin(configuration)
        return online
    }

    private static func bridgeDevice(_ configuration: MQTTSinkConfiguration) -> DiscoveryDevice {
        DiscoveryDevice(identifiers: [bridgeIdentifier(configuration)], name: "Aquavate bridge \(configuration.topics.bridgeID)",
                        manufacturer: "aquavate-bridge", model: "Bluetooth bridge", swVersion: configuration.bridgeVersion,
                        configurationURL: configuration.dashboardURL)
    }

    private static func bridgeOnline(_ configuration: MQTTSinkConfiguration) -> Entity {
        let identifier = bridgeIdentifier(configuration)
        return Entity(platform: .binarySensor, name: "Online", uniqueID: "\(identifier)_online",
                      stateTopic: configuration.topics.availability, deviceClass: .connectivity, entityCategory: .diagnostic,
                      payloadOn: "online", payloadOff: "offline")
    }

    /// `o`: the software that announced the device.
    private static func origin(_ configuration: MQTTSinkConfiguration) -> DiscoveryOrigin {
        DiscoveryOrigin(name: "aquavate-bridge", sw: configuration.bridgeVersion, url: configuration.supportURL)
    }

    /// The bottle's device identifier: its serial once read (it never changes), else its topic id.
    static func deviceIdentifier(_ configuration: MQTTSinkConfiguration) -> String {
        "aquavate_" + (configuration.bottleSerial.map(MQTTTopics.bottleID(fromAddress:)) ?? configuration.topics.bottleID)
    }

    static func bridgeIdentifier(_ configuration: MQTTSinkConfiguration) -> String {
        "aquavate_bridge_\(configuration.topics.bridgeID)"
    }
}
