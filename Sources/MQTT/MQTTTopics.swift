// The topics of one bottle (docs/integrations.md 2, "Suggested layout"):
//
//     aquavate/bridge/<bridge>/availability  online / offline, retained; offline is the last will
//                                  (the bottle is available while its bridge is)
//     aquavate/<id>/state          BridgeSnapshot as JSON, retained
//     aquavate/<id>/drink          one JSON event per stored record, not retained
//     aquavate/<id>/notification   one JSON event per notification, not retained
//     aquavate/<id>/command        subscribed: commands in (SinkCommandParser)
//     aquavate/<id>/command/result the answer to each command: accepted or refused, not retained
//     aquavate/<id>/command/last   the state of the last bottle command, retained
//     homeassistant/device/aquavate_<id>/config   the bottle's device discovery, retained
//     homeassistant/device/aquavate_bridge_<bridge>/config   the bridge's device, retained
//     homeassistant/<platform>/aquavate_<id>/<key>/config   per-entity discovery instead
//                                  (mqtt.discovery_format = entity: Home Assistant before 2024.11)
//     homeassistant/status         subscribed: Home Assistant's birth message → re-announce
//
// `<id>` is the bottle's address without colons, lower case (`f412fa00a3f4`), unless configured.

package struct MQTTTopics: Sendable, Equatable {
    package let bottleID: String
    package let availability: String
    package let state: String
    package let drink: String
    package let notification: String
    package let command: String
    package let commandResult: String
    package let commandLast: String
    package let discovery: String
    package let homeAssistantStatus: String
    package let bridgeID: String
    package let bridgeDiscovery: String
    /// The bridge's `online` entity in the per-entity form.
    package let bridgeEntityDiscovery: String
    private let discoveryPrefix: String

    package init(bottleID: String, bridgeID: String = "bridge", topicPrefix: String = "aquavate",
                discoveryPrefix: String = "homeassistant") {
        self.bottleID = bottleID
        self.bridgeID = bridgeID
        let base = "\(topicPrefix)/\(bottleID)"
        availability = "\(topicPrefix)/bridge/\(bridgeID)/availability"
        bridgeDiscovery = "\(discoveryPrefix)/device/aquavate_bridge_\(bridgeID)/config"
        state = "\(base)/state"
        drink = "\(base)/drink"
        notification = "\(base)/notification"
        command = "\(base)/command"
        commandResult = "\(base)/command/result"
        commandLast = "\(base)/command/last"
        bridgeEntityDiscovery = "\(discoveryPrefix)/binary_sensor/aquavate_bridge_\(bridgeID)/online/config"
        self.discoveryPrefix = discoveryPrefix
        discovery = "\(discoveryPrefix)/device/aquavate_\(bottleID)/config"
        homeAssistantStatus = "\(discoveryPrefix)/status"
    }

    /// One entity's config topic in the per-entity form.
    package func entityDiscovery(platform: String, key: String) -> String {
        "\(discoveryPrefix)/\(platform)/aquavate_\(bottleID)/\(key)/config"
    }

    /// `F4:12:FA:00:A3:F4` → `f412fa00a3f4`.
    package static func bottleID(fromAddress address: String) -> String {
        address.filter { $0 != ":" && $0 != "-" }.lowercased()
    }

    /// Home Assistant's object-id characters, which are also safe in any MQTT topic level.
    package static func isValidID(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }
    }

    /// A prefix of one or more topic levels: no wildcards, no empty level, no NUL.
    package static func isValidPrefix(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("+") && !text.contains("#") && !text.contains("\u{0}")
            && !text.split(separator: "/", omittingEmptySubsequences: false).contains { $0.isEmpty }
    }
}
