// `mqtts://`: the sink talks TLS to a mosquitto listener with a self-signed certificate made by
// openssl for the test, checked against that certificate as CA, host name (IP SAN) included.

import BusTestSupport
import Foundation
@testable import MQTT
@testable import Sinks
import Testing
import Timekeeping

@Suite(.serialized) struct MQTTTLSTests {
    /// A self-signed certificate for 127.0.0.1 and its key, in `directory`.
    static func makeCertificate(in directory: URL, name: String) async throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("\(name).pem").path
        let key = directory.appendingPathComponent("\(name)-key.pem").path
        let openssl = try await runTool("/usr/bin/openssl", [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
            "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        guard openssl.status == 0 else {
            throw MosquittoBroker.BrokerFailed(reason: "openssl exited with \(openssl.status): \(openssl.error)")
        }
        return (certificate, key)
    }

    @Test func mqttsConnectsWithTheBrokersCertificateAndRefusesAnother() async throws {
        let tlsPort = try freeTCPPort()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sinks-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try await Self.makeCertificate(in: scratch, name: "server")
        let stranger = try await Self.makeCertificate(in: scratch, name: "stranger")
        // The base listener stays plain for the watching client; the second one speaks TLS.
        let broker = try MosquittoBroker(extraConfiguration: [
            "listener \(tlsPort) 127.0.0.1", "certfile \(server.certificate)", "keyfile \(server.key)",
        ])
        try await broker.start()
        // `start` waits for the plain listener only; under a loaded machine the TLS listener can
        // come up later, so wait for it too (with a deadline) before the sink's first attempt.
        let deadline = ContinuousClock.now + .seconds(20)
        while !canConnect(port: tlsPort) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(canConnect(port: tlsPort), "the TLS listener on \(tlsPort) never came up")
        let watcher = try TestMQTTClient(port: broker.port)
        do {
            try await watcher.start()
        } catch {
            Issue.record("\(error); \(broker.log)")
            throw error
        }

        let lines = Recorder<LogLine>()
        let sink = try MQTTSink(configuration: MQTTSinkConfiguration(
            url: "mqtts://127.0.0.1:\(tlsPort)", bottleAddress: BridgeUnderTest.address, bridgeVersion: "0.1.0",
            reconnectDelay: 0.1...0.5, caFile: server.certificate), logger: capturingLogger(lines))
        let hub = SinkHub(sinks: [sink], clock: ManualClock(), logger: capturingLogger(lines))
        await hub.start()
        try await watcher.waitFor(sink.topics.availability) { $0.text == "online" }
        hub.deliver(notification("over-tls"))
        try await watcher.waitFor(sink.topics.notification) { JSONTree.parse($0.payload)?["id"] == "over-tls" }
        #expect(lines.matching("MQTT: connected to mqtts://127.0.0.1:\(tlsPort)").count == 1)
        await hub.stop()

        // A certificate the broker does not have: no connection, one warning.
        let refusedLines = Recorder<LogLine>()
        let refused = try MQTTSink(configuration: MQTTSinkConfiguration(
            url: "mqtts://127.0.0.1:\(tlsPort)", bottleAddress: BridgeUnderTest.address, bottleID: "other",
            bridgeVersion: "0.1.0", reconnectDelay: 0.1...0.2, caFile: stranger.certificate), logger: capturingLogger(refusedLines))
        let refusedHub = SinkHub(sinks: [refused], clock: ManualClock(), logger: capturingLogger(refusedLines))
        await refusedHub.start()
        try await refusedLines.wait(for: "a few attempts") { $0.filter { $0.message.contains("MQTT: attempt") }.count >= 2 }
        #expect(refusedLines.matching("MQTT: cannot connect to mqtts://127.0.0.1:\(tlsPort)", minimum: .warning).count == 1)
        #expect(!refused.isConnected)
        await refusedHub.stop()
        await watcher.stop()
    }

    @Test func anUnreadableCAFileIsASetupError() {
        #expect(throws: SinkConfigurationError.self) {
            try MQTTSink(configuration: MQTTSinkConfiguration(
                url: "mqtts://127.0.0.1", bottleAddress: BridgeUnderTest.address, bridgeVersion: "0.1.0",
                caFile: "/nonexistent/ca.pem"), logger: capturingLogger(Recorder()))
        }
    }
}
