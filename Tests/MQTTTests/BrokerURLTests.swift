// The broker URL of `mqtt.url` (`MQTTBrokerURL`): the defaults of each scheme, credentials and
// TLS, the shapes refused with the expected form, and a refusal that never echoes a password.

@testable import MQTT
import Testing

@Suite struct BrokerURLTests {
    @Test func brokerURLsWithDefaultsCredentialsAndTLS() throws {
        #expect(try MQTTBrokerURL(parsing: "mqtt://127.0.0.1") == MQTTBrokerURL(host: "127.0.0.1", port: 1883))
        #expect(try MQTTBrokerURL(parsing: "mqtt://broker.lan:1884/") == MQTTBrokerURL(host: "broker.lan", port: 1884))
        #expect(try MQTTBrokerURL(parsing: "mqtt://ha:s%40cret@broker.lan")
            == MQTTBrokerURL(host: "broker.lan", port: 1883, username: "ha", password: "s@cret"))
        #expect(try MQTTBrokerURL(parsing: "mqtts://broker.lan") == MQTTBrokerURL(host: "broker.lan", port: 8883, usesTLS: true))
        #expect(try MQTTBrokerURL(parsing: "mqtt://[::1]:1883").host == "::1")
        #expect(try MQTTBrokerURL(parsing: "mqtt://ha:secret@broker.lan").description == "mqtt://ha@broker.lan:1883")
    }

    @Test(arguments: ["http://broker.lan", "broker.lan:1883", "mqtt://", "mqtt://broker.lan:0", "mqtt://broker.lan:70000",
                      "mqtt://broker.lan/topic", "mqtt://broker.lan?x=1", ""])
    func badBrokerURLsAreRefusedWithTheExpectedShape(_ text: String) {
        #expect(throws: SinkConfigurationError.invalidURL(setting: "mqtt.url", value: text, expected: MQTTBrokerURL.expected)) {
            try MQTTBrokerURL(parsing: text)
        }
    }

    @Test func aRefusedURLNeverEchoesItsPassword() throws {
        let error = #expect(throws: SinkConfigurationError.self) { try MQTTBrokerURL(parsing: "mqtt://ha:hunter2@broker.lan/x") }
        #expect(error?.description.contains("hunter2") == false)
        #expect(error?.description == "mqtt.url = \"mqtt://ha:***@broker.lan/x\" is not a valid URL: expected \(MQTTBrokerURL.expected)")
    }
}
