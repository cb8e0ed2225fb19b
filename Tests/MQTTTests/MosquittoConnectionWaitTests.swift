// MosquittoClient.waitUntilConnected: what `bottle forget` and `doctor` wait on before they
// publish or listen. Woken by the connect callback; ends with false when no broker answers.

import BusTestSupport
import Foundation
import Logging
@testable import MQTT
import Testing

@Suite struct MosquittoConnectionWaitTests {
    private static func client(port: Int, log: Recorder<LogLine> = Recorder()) throws -> MosquittoClient {
        try MosquittoClient(
            options: .init(broker: MQTTBrokerURL(host: "127.0.0.1", port: port), reconnectDelay: 0.1...0.5),
            handlers: .init(connected: { _ in }, message: { _, _ in }),
            logger: capturingLogger(log))
    }

    @Test func aClientWaitsForItsBrokerAndIsConnectedThen() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        defer { broker.kill() }
        let log = Recorder<LogLine>()
        let client = try Self.client(port: broker.port, log: log)
        client.start()
        #expect(await client.waitUntilConnected(within: .seconds(20)), "its log: \(log.all.map(\.description))")
        #expect(client.isConnected)
        // Connected already: at once, and again.
        #expect(await client.waitUntilConnected(within: .seconds(20)))
        await client.stop()
    }

    @Test func withoutABrokerTheWaitEndsWithFalse() async throws {
        let port = try freeTCPPort()  // nothing listens there
        let client = try Self.client(port: port)
        client.start()
        // Two waits at once both end, neither resumed twice.
        async let first = client.waitUntilConnected(within: .milliseconds(300))
        async let second = client.waitUntilConnected(within: .milliseconds(600))
        #expect(await first == false)
        #expect(await second == false)
        #expect(!client.isConnected)
        await client.stop()
    }
}
