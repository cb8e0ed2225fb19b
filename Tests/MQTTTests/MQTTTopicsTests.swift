// The topics of one bottle and its bridge (`MQTTTopics`, docs/integrations.md 2): the default
// layout, what the two prefixes change, the id made from an address, and the ids and prefixes a
// topic may be built from (a wildcard or an empty level would subscribe to, or publish on, other
// topics than the bottle's).

@testable import MQTT
import Testing

@Suite struct MQTTTopicsTests {
    @Test func theDefaultLayout() {
        let topics = MQTTTopics(bottleID: "f412fa00a3f4", bridgeID: "pi-kitchen")
        #expect(topics.availability == "aquavate/bridge/pi-kitchen/availability")
        #expect(topics.state == "aquavate/f412fa00a3f4/state")
        #expect(topics.drink == "aquavate/f412fa00a3f4/drink")
        #expect(topics.notification == "aquavate/f412fa00a3f4/notification")
        #expect(topics.command == "aquavate/f412fa00a3f4/command")
        #expect(topics.commandResult == "aquavate/f412fa00a3f4/command/result")
        #expect(topics.commandLast == "aquavate/f412fa00a3f4/command/last")
        #expect(topics.discovery == "homeassistant/device/aquavate_f412fa00a3f4/config")
        #expect(topics.bridgeDiscovery == "homeassistant/device/aquavate_bridge_pi-kitchen/config")
        #expect(topics.bridgeEntityDiscovery == "homeassistant/binary_sensor/aquavate_bridge_pi-kitchen/online/config")
        #expect(topics.entityDiscovery(platform: "sensor", key: "day_total") == "homeassistant/sensor/aquavate_f412fa00a3f4/day_total/config")
        #expect(topics.homeAssistantStatus == "homeassistant/status")
    }

    @Test func thePrefixesMoveTheirOwnTopicsOnly() {
        let topics = MQTTTopics(bottleID: "kitchen", topicPrefix: "home/bottles", discoveryPrefix: "ha")
        #expect(topics.state == "home/bottles/kitchen/state")
        #expect(topics.availability == "home/bottles/bridge/bridge/availability", "the bridge id defaults to `bridge`")
        #expect(topics.discovery == "ha/device/aquavate_kitchen/config")
        #expect(topics.entityDiscovery(platform: "switch", key: "daily_limit") == "ha/switch/aquavate_kitchen/daily_limit/config")
        #expect(topics.homeAssistantStatus == "ha/status")
    }

    @Test(arguments: [("F4:12:FA:00:A3:F4", "f412fa00a3f4"), ("f4-12-fa-00-a3-f4", "f412fa00a3f4"), ("AQ1", "aq1")])
    func theIDOfAnAddressIsItsHexDigitsInLowerCase(_ address: String, _ id: String) {
        #expect(MQTTTopics.bottleID(fromAddress: address) == id)
    }

    @Test func idsAreHomeAssistantObjectIDs() {
        for id in ["kitchen", "f412fa00a3f4", "bottle_2", "pi-kitchen", String(repeating: "a", count: 64)] {
            #expect(MQTTTopics.isValidID(id), "\(id)")
        }
        for id in ["", "my bottle", "a/b", "a+b", "a#", "ütf", String(repeating: "a", count: 65)] {
            #expect(!MQTTTopics.isValidID(id), "\(id)")
        }
    }

    @Test func prefixesAreLevelsWithoutWildcards() {
        for prefix in ["aquavate", "home/bottles", "a/b/c"] {
            #expect(MQTTTopics.isValidPrefix(prefix), "\(prefix)")
        }
        for prefix in ["", "aqua/#", "+", "aqua/+/x", "aqua//vate", "/aquavate", "aquavate/", "aqua\u{0}vate"] {
            #expect(!MQTTTopics.isValidPrefix(prefix), "\(prefix)")
        }
    }

    @Test func whitespaceAroundATextIsTrimmedAndInsideItKept() {
        #expect(" \tmqtt://broker.lan \n".trimmingWhitespace == "mqtt://broker.lan")
        #expect("a b".trimmingWhitespace == "a b")
        #expect(" \n ".trimmingWhitespace == "")
    }
}
