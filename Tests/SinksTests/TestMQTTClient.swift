// A second MQTT client for the tests, built on the same libmosquitto wrapper: it subscribes with
// MQTT 5's retain-as-published, so every message it records carries the retain flag the
// publisher set, and "retained" can be asserted on live messages too.

import BusTestSupport
import Foundation
import Logging
@testable import MQTT
@testable import Sinks

final class TestMQTTClient: @unchecked Sendable {
    private(set) var client: MosquittoClient!
    let messages = Recorder<MosquittoClient.Message>()
    let connections = Recorder<Bool>()
    /// The client's own log (its failed attempts say why), for failure messages.
    let log = Recorder<LogLine>()
    private let probeTopic = "test/probe/\(UUID().uuidString)"

    init(port: Int, subscriptions: [String] = ["aquavate/#", "homeassistant/#"]) throws {
        let messages = self.messages
        let connections = self.connections
        let probeTopic = self.probeTopic
        let options = MosquittoClient.Options(
            broker: MQTTBrokerURL(host: "127.0.0.1", port: port), protocolVersion5: true, reconnectDelay: 0.1...0.5)
        client = try MosquittoClient(
            options: options,
            handlers: .init(
                connected: { client in
                    for topic in subscriptions + [probeTopic] {
                        try? client.subscribe(topic, qos: 1, retainAsPublished: true)
                    }
                    connections.append(true)
                },
                message: { _, message in messages.append(message) }),
            logger: capturingLogger(log))
    }

    /// Connects and returns once the subscriptions are active.
    func start() async throws {
        client.start()
        do {
            try await connections.waitForCount(1, "test client connection")
        } catch {
            throw WaitTimedOut(what: "test client connection (its log: \(log.all.suffix(6).map(\.description)))")
        }
        try await probe()
    }

    /// Its subscriptions are in place once a message it publishes itself comes back: the broker
    /// handles one connection's packets in order.
    func probe() async throws {
        let token = UUID().uuidString
        try client.publish(.init(topic: probeTopic, text: token))
        let topic = probeTopic
        try await messages.wait(for: "the probe") { $0.contains { $0.topic == topic && $0.text == token } }
    }

    func publish(_ topic: String, _ text: String, retain: Bool = false) throws {
        try client.publish(.init(topic: topic, text: text, retain: retain))
    }

    func on(_ topic: String) -> [MosquittoClient.Message] {
        messages.all.filter { $0.topic == topic }
    }

    @discardableResult
    func waitFor(_ topic: String, count: Int = 1, _ what: String? = nil,
                 where condition: @escaping @Sendable (MosquittoClient.Message) -> Bool = { _ in true }) async throws
        -> [MosquittoClient.Message] {
        try await messages.wait(for: what ?? "\(count) on \(topic)") {
            $0.filter { $0.topic == topic && condition($0) }.count >= count
        }.filter { $0.topic == topic && condition($0) }
    }

    func stop() async { await client.stop() }
}
