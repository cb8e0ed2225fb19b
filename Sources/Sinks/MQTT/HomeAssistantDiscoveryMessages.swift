// The messages of Home Assistant's MQTT discovery (home-assistant.io/integrations/mqtt), as this
// bridge writes them (HomeAssistantDiscovery fills them in). Keys are Home Assistant's option
// names; an option left nil is left out of the JSON, so each entity carries only what its
// platform documents (DiscoverySchemaTests). What Home Assistant matches on (platforms, device
// and state classes, units, entity categories) is an enum of its documented values.

import MQTT

/// One entity: a component of the device-based message, or (with its `device` and `origin`,
/// without `p`) a per-entity config of its own.
struct DiscoveryEntity: WireMessage, Decodable, Equatable {
    enum Platform: String, Codable {
        case sensor, binarySensor = "binary_sensor", `switch`, number, button, event
    }

    enum DeviceClass: String, Codable {
        case volume, volumeStorage = "volume_storage", battery, enumeration = "enum", timestamp, problem, connectivity
    }

    enum StateClass: String, Codable { case total, measurement }

    enum Unit: String, Codable {
        case millilitres = "mL"
        case percent = "%"
    }

    enum EntityCategory: String, Codable { case diagnostic, config }

    /// A number entity's input: a box to type in, not a slider.
    enum NumberMode: String, Codable { case box }

    /// With several bridges (docs/design.md 6): available while any of them is.
    enum AvailabilityMode: String, Codable { case any }

    var platform: Platform?
    var name: String?
    var uniqueID: String?
    var stateTopic: String?
    var qos: Int?
    var deviceClass: DeviceClass?
    var unit: Unit?
    var stateClass: StateClass?
    var options: [HydrationUrgency]?
    var valueTemplate: String?
    var lastResetValueTemplate: String?
    var icon: String?
    var entityCategory: EntityCategory?
    var jsonAttributesTopic: String?
    var jsonAttributesTemplate: String?
    var commandTopic: String?
    var commandTemplate: String?
    var payloadOn: String?
    var payloadOff: String?
    var stateOn: String?
    var stateOff: String?
    var min: Int?
    var max: Int?
    var step: Int?
    var mode: NumberMode?
    var payloadPress: String?
    var eventTypes: [String]?
    var availabilityTopic: String?
    var availability: [DiscoveryAvailability]?
    var availabilityMode: AvailabilityMode?
    var device: DiscoveryDevice?
    var origin: DiscoveryOrigin?

    enum CodingKeys: String, CodingKey {
        case platform = "p", name, uniqueID = "unique_id", stateTopic = "state_topic", qos,
             deviceClass = "device_class", unit = "unit_of_measurement", stateClass = "state_class", options,
             valueTemplate = "value_template", lastResetValueTemplate = "last_reset_value_template", icon,
             entityCategory = "entity_category", jsonAttributesTopic = "json_attributes_topic",
             jsonAttributesTemplate = "json_attributes_template", commandTopic = "command_topic", commandTemplate = "command_template",
             payloadOn = "payload_on", payloadOff = "payload_off", stateOn = "state_on", stateOff = "state_off", min, max, step, mode,
             payloadPress = "payload_press", eventTypes = "event_types", availabilityTopic = "availability_topic", availability,
             availabilityMode = "availability_mode", device, origin
    }
}

/// One availability topic of `availability`.
struct DiscoveryAvailability: Codable, Equatable {
    var topic: String
}

/// `dev` / `device`: the bottle, or the bridge it is `via_device` of.
struct DiscoveryDevice: Codable, Equatable {
    var identifiers: [String]
    var name: String
    var manufacturer: String
    var model: String?
    var viaDevice: String?
    /// `[["mac", address]]`.
    var connections: [[String]]?
    var swVersion: String?
    var serialNumber: String?
    var configurationURL: String?

    enum CodingKeys: String, CodingKey {
        case identifiers, name, manufacturer, model, viaDevice = "via_device", connections, swVersion = "sw_version",
             serialNumber = "serial_number", configurationURL = "configuration_url"
    }
}

/// `o`: the software that announced the device.
struct DiscoveryOrigin: Codable, Equatable {
    var name: String
    var sw: String
    var url: String?
}

/// The bottle's device-based message: the shared options, the device, the origin and its entities.
struct DeviceDiscovery: WireMessage, Decodable, Equatable {
    var stateTopic: String?
    var qos: Int?
    var availabilityTopic: String?
    var availability: [DiscoveryAvailability]?
    var availabilityMode: DiscoveryEntity.AvailabilityMode?
    var dev: DiscoveryDevice
    var o: DiscoveryOrigin
    var cmps: [String: DiscoveryEntity]

    enum CodingKeys: String, CodingKey {
        case stateTopic = "state_topic", qos, availabilityTopic = "availability_topic", availability,
             availabilityMode = "availability_mode", dev, o, cmps
    }
}

/// The bridge's device-based message: its one `online` entity.
struct BridgeDiscovery: WireMessage, Decodable, Equatable {
    var dev: DiscoveryDevice
    var o: DiscoveryOrigin
    var qos: Int
    var cmps: [String: DiscoveryEntity]
}
