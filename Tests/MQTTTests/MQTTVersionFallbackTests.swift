// The bridge speaks MQTT 5 (for Maximum Packet Size); a broker that only knows 3.1.1 refuses the
// CONNECT with "unacceptable protocol version", and the bridge must then try 3.1.1 instead of
// failing for ever (every MQTT user shares the client: the Home Assistant sink,
// the household). A fake broker that refuses every CONNECT records the protocol level of each.

import BusTestSupport
import Foundation
import Logging
@testable import MQTT
import Testing

/// Answers every CONNECT with a 3.1.1 CONNACK "unacceptable protocol version" and records the
/// protocol level byte of each CONNECT (5 or 4).
final class VersionRefusingBroker: Sendable {
    let port: Int
    private let listener: Int32
    let levels = Recorder<UInt8>()

    init() throws {
        guard let socket = LoopbackListener(backlog: 8) else {
            throw MosquittoBroker.BrokerFailed(reason: "fake broker: cannot listen (\(errno))")
        }
        let listener = socket.descriptor
        self.listener = listener
        port = socket.port
        let levels = self.levels
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                // CONNECT: 0x10, remaining length (1 byte here), 00 04 "MQTT", protocol level.
                var head: [UInt8] = []
                var byte: UInt8 = 0
                while head.count < 9, read(connection, &byte, 1) == 1 { head.append(byte) }
                if head.count == 9, head[0] == 0x10 { levels.append(head[8]) }
                let refusal: [UInt8] = [0x20, 0x02, 0x00, 0x01]
                _ = refusal.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
        }.start()
    }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

@Suite struct MQTTVersionFallbackTests {
    @Test func aBrokerWithoutMQTT5IsTriedAgainWith311() async throws {
        let broker = try VersionRefusingBroker()
        defer { broker.stop() }
        let lines = Recorder<LogLine>()
        let client = try MosquittoClient(
            // A client that bounds what it receives speaks MQTT 5 (Maximum Packet Size), as the sink does.
            options: .init(broker: MQTTBrokerURL(host: "127.0.0.1", port: broker.port), reconnectDelay: 0.05...0.1,
                           maximumPacketSize: 64 * 1024),
            handlers: .init(connected: { _ in }, message: { _, _ in }),
            logger: capturingLogger(lines))
        client.start()
        let levels: [UInt8]
        do {
            levels = try await broker.levels.waitForCount(3, "three CONNECTs")
        } catch {
            Issue.record("levels \(broker.levels.all), log: \(lines.all.map(\.description))")
            throw error
        }
        #expect(Array(levels.prefix(3)) == [5, 4, 4])
        #expect(lines.matching("does not speak MQTT 5; using 3.1.1", minimum: .notice).count == 1)
        await client.stop()
    }
}
