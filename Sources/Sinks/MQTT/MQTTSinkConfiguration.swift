// Everything the MQTT sink needs, checked once at start-up so that a bad setting is one clear
// line at start, not a silent broker that never receives anything. The daemon fills it from
// `[mqtt]` (docs/design.md 3.2: mqtt.url, mqtt.topic_prefix, mqtt.discovery_prefix) and the adopted
// bottle (`bottle.address`, its name and firmware).

import MQTT

package struct MQTTSinkConfiguration: Sendable, Equatable {
    /// Which of Home Assistant's discovery forms is published (`mqtt.discovery_format`).
    package enum DiscoveryFormat: String, Sendable, Equatable, CaseIterable {
        /// One retained config per device (`homeassistant/device/…`): Home Assistant 2024.11 and later.
        case device
        /// One retained config per entity (`homeassistant/<platform>/…`): Home Assistant 2023.12
        /// and later, also those before 2024.11, which ignore the device form.
        case entity
    }

    /// Who this client is on the broker. The availability topic and the retained device belong
    /// to the daemon alone: its last will says `offline` there. A command of the CLI (`notify
    /// test`) that delivers through the sink is a visitor: its own client id, no will, no
    /// availability, no discovery, no state and no subscriptions — so its exit cannot take the
    /// running daemon's device offline in Home Assistant, and it never takes the daemon's commands.
    package enum Role: Sendable, Equatable {
        case daemon
        /// `command` names the CLI command, in the client id (`aquavate-<bridge>-<command>-<n>`).
        case visitor(command: String)
    }

    package var broker: MQTTBrokerURL
    package var topics: MQTTTopics
    /// `F4:12:FA:00:A3:F4`: the Home Assistant device's MAC connection; nil until a bottle is known.
    package var bottleAddress: String?
    /// The bottle's Device Information serial: the device's identifier in Home Assistant.
    package var bottleSerial: String?
    /// The device name shown in Home Assistant, e.g. the advertised `Aquavate-A3F2`.
    package var bottleName: String
    /// The bottle's firmware (`sw_version` of the device), when known.
    package var firmwareVersion: String?
    /// The bottle's Device Information model, when known.
    package var bottleModel: String?
    /// `mqtt.bottle_id`, which fixes the bottle's topic id whatever its address.
    package var bottleIDOverride: String?
    /// Whether a bottle is known: before one is, no bottle device is announced.
    package var hasBottle: Bool { bottleAddress != nil || bottleSerial != nil || bottleIDOverride != nil }
    /// `o.sw` of the discovery payload.
    package var bridgeVersion: String
    /// `o.url` of the discovery payload, when there is one to give.
    package var supportURL: String?
    /// Publish Home Assistant discovery (and re-announce on its birth message).
    package var discovery: Bool
    package var discoveryFormat: DiscoveryFormat = .device
    /// The dashboard's address when `run` serves it: the devices' `configuration_url`.
    package var dashboardURL: String?
    package var role: Role = .daemon
    /// Empty = libmosquitto picks a random one (with a clean session, nothing depends on it).
    package var clientID: String?
    package var keepAliveSeconds: Int
    /// Waits between reconnection attempts, doubling from the lower bound to the upper one.
    package var reconnectDelay: ClosedRange<Double>
    /// For `mqtts`: a PEM file of CA certificates; nil = the system's store (`caDirectory`).
    package var caFile: String?
    package var caDirectory: String
    let topicPrefix: String
    let discoveryPrefix: String

    /// The same broker and bridge for a further bottle (docs/design.md 6): no identity yet, and
    /// no fixed topic id (`mqtt.bottle_id` names the first bottle only).
    package func forAnotherBottle() -> MQTTSinkConfiguration {
        var copy = self
        copy.bottleAddress = nil
        copy.bottleSerial = nil
        copy.firmwareVersion = nil
        copy.bottleModel = nil
        copy.bottleIDOverride = nil
        copy.bottleName = "Aquavate unknown"
        copy.topics = MQTTTopics(bottleID: "unknown", bridgeID: topics.bridgeID, topicPrefix: topicPrefix, discoveryPrefix: discoveryPrefix)
        return copy
    }

    /// A visitor's client id: its own, never the daemon's (a broker disconnects the older of two
    /// clients with one id), and unique among visitors running at once.
    var visitorClientID: String? {
        guard case let .visitor(command) = role else { return nil }
        let safe = String(command.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }.map(Character.init))
        return "aquavate-\(topics.bridgeID)-\(safe.isEmpty ? "cli" : safe)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The availability topic of bridge `id` (another bridge of the household).
    func bridgeAvailabilityTopic(of id: String) -> String { "\(topicPrefix)/bridge/\(id)/availability" }

    /// Every bridge's availability topic, for the subscription.
    var bridgesAvailabilityFilter: String { "\(topicPrefix)/bridge/+/availability" }

    /// Whether this is the bottle with `bottle`'s address or serial.
    func isBottle(_ bottle: SinkBottle) -> Bool {
        [bottle.address, bottle.serial].compactMap { $0 }.contains { isBottle($0) }
    }

    /// Whether `key` (an address or serial, any case) is this bottle's.
    func isBottle(_ key: String) -> Bool {
        let key = key.uppercased()
        return bottleAddress?.uppercased() == key || bottleSerial?.uppercased() == key
    }

    /// The same configuration for the bottle now known as `bottle`: its identity, and its topics
    /// (the id follows its address unless `mqtt.bottle_id` fixes it).
    package func identifying(_ bottle: SinkBottle) -> MQTTSinkConfiguration {
        var copy = self
        copy.bottleAddress = bottle.address ?? bottleAddress
        copy.bottleSerial = bottle.serial ?? bottleSerial
        copy.firmwareVersion = bottle.firmware ?? firmwareVersion
        copy.bottleModel = bottle.model ?? bottleModel
        if let name = bottle.name { copy.bottleName = name }
        let id = bottleIDOverride ?? (copy.bottleAddress ?? copy.bottleSerial).map(MQTTTopics.bottleID(fromAddress:)) ?? topics.bottleID
        copy.topics = MQTTTopics(bottleID: id, bridgeID: topics.bridgeID, topicPrefix: topicPrefix, discoveryPrefix: discoveryPrefix)
        if bottle.name == nil && bottleName == "Aquavate \(topics.bottleID)" { copy.bottleName = "Aquavate \(id)" }
        return copy
    }

    /// - Parameters:
    ///   - url: `mqtt.url`.
    ///   - bottleID: overrides the id derived from the address; `[A-Za-z0-9_-]`, at most 64.
    package init(url: String, bottleAddress: String?, bottleID: String? = nil, bottleName: String? = nil,
                firmwareVersion: String? = nil, bottleSerial: String? = nil, bottleModel: String? = nil,
                bridgeID: String = "bridge", bridgeVersion: String, supportURL: String? = nil,
                topicPrefix: String = "aquavate", discoveryPrefix: String = "homeassistant",
                discovery: Bool = true, clientID: String? = nil, keepAliveSeconds: Int = 60,
                reconnectDelay: ClosedRange<Double> = 1...60, caFile: String? = nil,
                caDirectory: String = "/etc/ssl/certs") throws(SinkConfigurationError) {
        broker = try MQTTBrokerURL(parsing: url)
        let id = bottleID ?? (bottleAddress ?? bottleSerial).map(MQTTTopics.bottleID(fromAddress:)) ?? "unknown"
        guard MQTTTopics.isValidID(id) else {
            throw .invalidName(setting: bottleID == nil ? "bottle.address" : "mqtt.bottle_id", value: id,
                               expected: "1 to 64 of A-Z a-z 0-9 _ - (a Bluetooth address like F4:12:FA:00:A3:F4 gives f412fa00a3f4)")
        }
        guard MQTTTopics.isValidID(bridgeID) else {
            throw .invalidName(setting: "bridge.id", value: bridgeID, expected: "1 to 64 of A-Z a-z 0-9 _ - (the host name, unless set)")
        }
        guard MQTTTopics.isValidPrefix(topicPrefix) else {
            throw .invalidName(setting: "mqtt.topic_prefix", value: topicPrefix,
                               expected: "topic levels like aquavate or home/aquavate, without + # or empty levels")
        }
        guard MQTTTopics.isValidPrefix(discoveryPrefix) else {
            throw .invalidName(setting: "mqtt.discovery_prefix", value: discoveryPrefix,
                               expected: "Home Assistant's discovery prefix, homeassistant unless changed there")
        }
        guard (5...3600).contains(keepAliveSeconds) else {
            throw .invalidName(setting: "mqtt keep-alive", value: String(keepAliveSeconds), expected: "5 to 3600 seconds")
        }
        topics = MQTTTopics(bottleID: id, bridgeID: bridgeID, topicPrefix: topicPrefix, discoveryPrefix: discoveryPrefix)
        self.topicPrefix = topicPrefix
        self.discoveryPrefix = discoveryPrefix
        self.bottleAddress = bottleAddress
        self.bottleSerial = bottleSerial
        self.bottleModel = bottleModel
        self.bottleIDOverride = bottleID
        self.bottleName = bottleName ?? "Aquavate \(id)"
        self.firmwareVersion = firmwareVersion
        self.bridgeVersion = bridgeVersion
        self.supportURL = supportURL
        self.discovery = discovery
        self.clientID = clientID
        self.keepAliveSeconds = keepAliveSeconds
        self.reconnectDelay = max(0.05, reconnectDelay.lowerBound)...max(0.05, reconnectDelay.upperBound)
        self.caFile = caFile
        self.caDirectory = caDirectory
    }
}
