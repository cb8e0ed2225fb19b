// The MQTT and push sinks' configurations: the topics follow the bottle's address (or its id) and
// the two prefixes, unusable ids and prefixes are refused, push credentials leave the URL for an
// Authorization header, and URLs a push sink cannot use are refused.

import Foundation
@testable import MQTT
@testable import Sinks
import Testing

@Suite struct ConfigurationTests {
    @Test func topicsFollowTheBottleAddressAndThePrefixes() throws {
        let configuration = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4", bridgeVersion: "0.1.0")
        let topics = configuration.topics
        #expect(topics.bottleID == "f412fa00a3f4")
        #expect(topics.availability == "aquavate/bridge/bridge/availability", "the bridge's: the bottle is available while it is")
        #expect(topics.state == "aquavate/f412fa00a3f4/state")
        #expect(topics.drink == "aquavate/f412fa00a3f4/drink")
        #expect(topics.notification == "aquavate/f412fa00a3f4/notification")
        #expect(topics.command == "aquavate/f412fa00a3f4/command")
        #expect(topics.discovery == "homeassistant/device/aquavate_f412fa00a3f4/config")
        #expect(topics.homeAssistantStatus == "homeassistant/status")

        let custom = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4", bottleID: "kitchen",
                                               bridgeVersion: "0.1.0", topicPrefix: "home/bottles", discoveryPrefix: "ha")
        #expect(custom.topics.state == "home/bottles/kitchen/state")
        #expect(custom.topics.discovery == "ha/device/aquavate_kitchen/config")
        #expect(custom.topics.homeAssistantStatus == "ha/status")
    }

    @Test func unusableIDsAndPrefixesAreRefused() {
        #expect(throws: SinkConfigurationError.self) {
            try MQTTSinkConfiguration(url: "mqtt://h", bottleAddress: "F4:12", bottleID: "my bottle", bridgeVersion: "0")
        }
        #expect(throws: SinkConfigurationError.self) {
            try MQTTSinkConfiguration(url: "mqtt://h", bottleAddress: "F4:12", bottleID: "a/b", bridgeVersion: "0")
        }
        for prefix in ["", "aqua/#", "+", "aqua//vate", "/aquavate", "aquavate/"] {
            #expect(throws: SinkConfigurationError.self) {
                try MQTTSinkConfiguration(url: "mqtt://h", bottleAddress: "F4:12", bridgeVersion: "0", topicPrefix: prefix)
            }
        }
    }

    @Test func pushCredentialsBecomeAnAuthorizationHeaderAndLeaveTheURL() throws {
        let plain = try HTTPPushConfiguration(url: "https://ntfy.sh/my-topic")
        #expect(plain.url.absoluteString == "https://ntfy.sh/my-topic")
        #expect(plain.authorization == nil)

        let basic = try HTTPPushConfiguration(url: "https://phil:s%3Acret@push.example.org/alerts")
        #expect(basic.url.absoluteString == "https://push.example.org/alerts")
        #expect(basic.authorization == "Basic " + Data("phil:s:cret".utf8).base64EncodedString())

        #expect(try HTTPPushConfiguration(url: "https://:tk_abc@push.example.org/alerts").authorization == "Bearer tk_abc")
        #expect(try HTTPPushConfiguration(url: "https://tk_abc@push.example.org/alerts").authorization == "Bearer tk_abc")
        #expect(try HTTPPushConfiguration(url: "https://phil:pw@push.example.org/a", token: "tk_x").authorization == "Bearer tk_x")
    }

    @Test func badPushURLsAreRefused() {
        for text in ["ftp://push.example.org/t", "push.example.org/t", "https://", ""] {
            #expect(throws: SinkConfigurationError.self) { try HTTPPushConfiguration(url: text) }
        }
        #expect(throws: SinkConfigurationError.self) {
            try HTTPPushConfiguration(url: "https://ntfy.sh/t", actionURL: "mqtt://broker.lan")
        }
    }
}
