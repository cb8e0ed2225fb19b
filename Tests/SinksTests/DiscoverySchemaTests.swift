// The discovery payloads against Home Assistant's documented options for each MQTT platform
// (home-assistant.io/integrations/<platform>.mqtt, and the device-based discovery payload of
// integrations/mqtt): every key a component uses is one its platform documents, the keys a
// platform requires are there (directly or shared at the root), and the device block uses only
// documented device keys. A misspelt key is silently ignored by Home Assistant; this catches it.

@testable import MQTT
@testable import Sinks
import BusTestSupport
import Testing

@Suite struct DiscoverySchemaTests {
    /// Options every MQTT entity documents (availability, naming, identity, JSON attributes), but
    /// the two that name the entity id: `object_id` (deprecated from 2025.10, ignored from 2026.4)
    /// and `default_entity_id` (dropped unread before 2025.10) would give ids that differ by release.
    static let common: Set<String> = [
        "p", "name", "unique_id", "icon", "entity_category", "enabled_by_default",
        "availability_topic", "availability", "availability_mode", "availability_template", "payload_available",
        "payload_not_available", "json_attributes_topic", "json_attributes_template", "qos", "encoding", "entity_picture",
    ]

    /// Per platform, its documented options (beyond `common`) and those it requires.
    static let platforms: [String: (options: Set<String>, required: Set<String>)] = [
        "sensor": (["state_topic", "value_template", "device_class", "state_class", "unit_of_measurement", "options",
                    "expire_after", "force_update", "last_reset_value_template", "suggested_display_precision"], ["state_topic"]),
        "binary_sensor": (["state_topic", "value_template", "device_class", "payload_on", "payload_off", "expire_after",
                           "force_update", "off_delay"], ["state_topic"]),
        "switch": (["command_topic", "command_template", "state_topic", "value_template", "payload_on", "payload_off",
                    "state_on", "state_off", "optimistic", "retain", "device_class"], ["command_topic"]),
        "number": (["command_topic", "command_template", "state_topic", "value_template", "min", "max", "step", "mode",
                    "unit_of_measurement", "device_class", "optimistic", "retain", "payload_reset"], ["command_topic"]),
        "button": (["command_topic", "command_template", "payload_press", "device_class", "retain"], ["command_topic"]),
        "event": (["state_topic", "value_template", "event_types", "device_class"], ["state_topic", "event_types"]),
    ]

    static let deviceKeys: Set<String> = [
        "identifiers", "connections", "name", "manufacturer", "model", "model_id", "sw_version", "hw_version",
        "serial_number", "via_device", "configuration_url", "suggested_area",
    ]

    /// The device keys of Home Assistant 2023.12, the oldest release the entity form supports
    /// (MQTT_ENTITY_DEVICE_INFO_SCHEMA in its homeassistant/components/mqtt/mixins.py): it refuses
    /// the whole entity for any other, `serial_number` (2024.2) and `model_id` (2024.8) among them.
    static let deviceKeys2023_12: Set<String> = [
        "identifiers", "connections", "name", "manufacturer", "model", "sw_version", "hw_version", "via_device",
        "configuration_url", "suggested_area",
    ]

    func check(_ payload: JSONTree) throws {
        guard case let .object(root)? = Optional(payload), case let .object(components)? = root["cmps"],
              case let .object(device)? = root["dev"] else {
            Issue.record("no dev or cmps")
            return
        }
        #expect(Set(device.keys).isSubset(of: Self.deviceKeys), "device keys: \(Set(device.keys).subtracting(Self.deviceKeys))")
        #expect(root["o"]?["name"] != nil, "origin needs a name")
        for (key, component) in components {
            guard case let .object(options) = component, let platform = options["p"]?.stringValue,
                  let schema = Self.platforms[platform] else {
                Issue.record("\(key): unknown platform")
                continue
            }
            let unknown = Set(options.keys).subtracting(Self.common).subtracting(schema.options)
            #expect(unknown.isEmpty, "\(key) (\(platform)) uses undocumented \(unknown)")
            for needed in schema.required {
                #expect(options[needed] != nil || root[needed] != nil, "\(key) (\(platform)) lacks \(needed)")
            }
        }
    }

    /// The per-entity form: each config is one component with its `device` and `origin`, and no `p`.
    func checkEntity(_ topic: String, _ payload: JSONTree) {
        let platform = String(topic.split(separator: "/")[1])
        guard case let .object(options) = payload, let schema = Self.platforms[platform] else {
            Issue.record("\(topic): unknown platform")
            return
        }
        let unknown = Set(options.keys).subtracting(Self.common).subtracting(schema.options).subtracting(["device", "origin"])
        #expect(unknown.isEmpty, "\(topic) uses undocumented \(unknown)")
        #expect(options["p"] == nil)
        for needed in schema.required { #expect(options[needed] != nil, "\(topic) lacks \(needed)") }
        if case let .object(device)? = options["device"] {
            #expect(Set(device.keys).isSubset(of: Self.deviceKeys2023_12),
                    "\(topic): device keys Home Assistant 2023.12 refuses: \(Set(device.keys).subtracting(Self.deviceKeys2023_12))")
        } else {
            Issue.record("\(topic) has no device")
        }
        #expect(options["origin"]?["name"] != nil)
    }

    @Test func theEntityFormFollowsTheSchema() throws {
        let configuration = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4", firmwareVersion: "1.4.2",
                                                      bottleSerial: "F4:12:FA:00:A3:F2", bottleModel: "Puck v1.0", bridgeID: "kitchen",
                                                      bridgeVersion: "0.1.0")
        for (topic, payload) in HomeAssistantDiscovery.entityPayloads(for: configuration) { checkEntity(topic, tree(payload)) }
        checkEntity(configuration.topics.bridgeEntityDiscovery, tree(HomeAssistantDiscovery.bridgeEntityPayload(for: configuration)))
    }

    @Test func theBottleDeviceFollowsTheSchema() throws {
        let configuration = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4",
                                                      bottleSerial: "F4:12:FA:00:A3:F2", bottleModel: "Puck v1.0",
                                                      bridgeID: "kitchen", bridgeVersion: "0.1.0")
        try check(tree(HomeAssistantDiscovery.payload(for: configuration)))
        try check(tree(HomeAssistantDiscovery.bridgePayload(for: configuration)))
        let goal = try #require(tree(HomeAssistantDiscovery.payload(for: configuration))["cmps"]?["goal_setting"])
        #expect(goal["min"] == .int(1000) && goal["max"] == .int(4000) && goal["step"] == .int(1) && goal["unit_of_measurement"] == "mL")
    }
}
