// What a broker login may do to the bridge: on a typical Home Assistant broker every login may
// publish on the command topic, so whoever does is not trusted with more than the person's own
// settings (never a URL, a path or a secret), nor with unlimited or oversized commands
// (docs/home-assistant.md, "What the broker may change"). Each test runs the attack against a real
// mosquitto broker and checks it is refused, answered on the broker and logged.

import BusTestSupport
import Foundation
import Logging
@testable import MQTT
@testable import Sinks
import BusTestSupport
import Testing

@Suite(.serialized) struct MQTTCommandTrustTests {
    /// Only daily_limit may change: the gate the tests give the sink (the daemon's is built from
    /// the setting catalog, tested in EndToEndTests).
    static let gate = SinkCommandGate { command in
        guard case let .configSet(key, _) = command, key != "reminders.daily_limit" else { return nil }
        return SinkCommandRefusal(.setting, "\(key) cannot be changed from outside the bridge")
    }

    /// A broker, a controller subscribed to everything, and the bridge's MQTT sink online.
    static func started() async throws -> (MosquittoBroker, TestMQTTClient, BridgeUnderTest) {
        let broker = try MosquittoBroker()
        try await broker.start()
        let controller = try TestMQTTClient(port: broker.port, subscriptions: ["aquavate/#"])
        try await controller.start()
        let bridge = try BridgeUnderTest(port: broker.port, gate: Self.gate)
        await bridge.start()
        try await controller.waitFor(bridge.topics.availability, "online") { $0.text == "online" }
        return (broker, controller, bridge)
    }

    @Test func aURLAPathOrASecretCannotBeConfiguredFromTheBroker() async throws {
        let (broker, controller, bridge) = try await Self.started()

        try controller.publish(bridge.topics.command, "config push.url http://attacker.example/steal")
        try controller.publish(bridge.topics.command, #"{"config":{"key":"messages.pool","value":"/etc/aquavate/bridge.toml"}}"#)
        try controller.publish(bridge.topics.command, "config push.token tk_secret_value")
        try controller.publish(bridge.topics.command, "config reminders.daily_limit false")

        let received = try await bridge.commands.waitForCount(1, "the allowed command")
        #expect(received == [.configSet(key: "reminders.daily_limit", value: "false")])
        let results = try await controller.waitFor(bridge.topics.commandResult, count: 4, "four answers")
        let answers = results.compactMap { JSONTree.parse($0.payload) }
        #expect(answers.map { $0["status"] } == [.string("refused"), .string("refused"), .string("refused"), .string("accepted")])
        #expect(answers.map { $0["key"] } == [.string("push.url"), .string("messages.pool"), .string("push.token"),
                                              .string("reminders.daily_limit")])
        #expect(answers[0]["message"]?.stringValue?.contains("push.url cannot be changed") == true)
        // The reason is an enum value a program reads; an accepted command has none. Each refusal is counted.
        #expect(answers.map { $0["reason"] } == [.string("setting"), .string("setting"), .string("setting"), nil])
        #expect(bridge.sink.refusals.snapshot == [.setting: 3])
        #expect(results.allSatisfy { !$0.retain })
        // The refused secret is never echoed, not on the broker and not in the log.
        #expect(!results.contains { $0.text.contains("tk_secret_value") })
        #expect(!bridge.lines.all.contains { $0.message.contains("tk_secret_value") })
        #expect(bridge.lines.matching("MQTT: refused command config push.url", minimum: .warning).count == 1)
        #expect(bridge.lines.matching("MQTT: refused command config messages.pool", minimum: .warning).count == 1)

        await controller.stop()
        await bridge.stop()
        withExtendedLifetime(broker) {}  // the broker runs until the end of the test
    }

    @Test func commandsAreRateLimitedWithABurstOfTenThenOnePerSecond() async throws {
        let (broker, controller, bridge) = try await Self.started()

        for _ in 0..<15 { try controller.publish(bridge.topics.command, "log vitamin-d") }
        // Every refusal is counted (debug); the warning comes once for the whole flood.
        try await bridge.lines.wait(for: "five refusals") {
            $0.filter { $0.message.contains("MQTT: refused command: rate limit") }.count == 5
        }
        // The accepted ones reach the command handler on their own task: the refusals may be
        // logged before all ten arrived.
        try await bridge.commands.waitForCount(10, "the burst of ten")
        #expect(bridge.lines.matching("MQTT: refused command: rate limit", minimum: .warning).count == 1)
        let answers = try await controller.waitFor(bridge.topics.commandResult, count: 11, "ten accepted and one refusal")
        #expect(answers.filter { JSONTree.parse($0.payload)?["status"] == "refused" }.count == 1)
        #expect(bridge.commands.all.count == 10)
        // Answered and warned once, but every refusal of the flood is counted.
        #expect(answers.compactMap { JSONTree.parse($0.payload)?["reason"] } == [.string("rate_limit")])
        #expect(bridge.sink.refusals.snapshot == [.rateLimit: 5])

        // Two seconds later two more tokens are there: the next command goes through, and the
        // end of the flood is summed up.
        bridge.clock.advance(by: .seconds(2))
        try controller.publish(bridge.topics.command, "log vitamin-d")
        try await bridge.commands.waitForCount(11, "the command after the pause")
        #expect(bridge.lines.matching("refused 5 commands", minimum: .notice).count == 1)

        await controller.stop()
        await bridge.stop()
        withExtendedLifetime(broker) {}  // the broker runs until the end of the test
    }

    @Test func anOversizedCommandIsRefusedFromItsLengthAlone() async throws {
        let (broker, controller, bridge) = try await Self.started()

        try controller.publish(bridge.topics.command, "log " + String(repeating: "x", count: 10_000))
        let answer = try await controller.waitFor(bridge.topics.commandResult, "the refusal")
        #expect(JSONTree.parse(answer[0].payload)?["status"] == "refused")
        #expect(answer[0].text.contains("10004 bytes"))
        #expect(JSONTree.parse(answer[0].payload)?["reason"] == "too_long")
        #expect(bridge.sink.refusals.snapshot == [.tooLong: 1])
        #expect(bridge.lines.matching("MQTT: refused a command of 10004 bytes", minimum: .warning).count == 1)
        #expect(bridge.commands.all.isEmpty)

        await controller.stop()
        await bridge.stop()
        withExtendedLifetime(broker) {}  // the broker runs until the end of the test
    }

    /// MQTT 5: the bridge tells the broker its maximum packet size when it connects, and the
    /// broker drops anything larger instead of sending it (libmosquitto would allocate it whole).
    @Test func aHugeCommandNeverReachesTheBridge() async throws {
        let (broker, controller, bridge) = try await Self.started()

        try controller.publish(bridge.topics.command, "log " + String(repeating: "x", count: 1_000_000))
        try controller.publish(bridge.topics.command, "log vitamin-d")
        // The broker keeps one connection's messages in order: once the small command arrived,
        // the huge one would have too.
        #expect(try await bridge.commands.waitForCount(1, "the small command") == [.log(type: "vitamin-d")])
        #expect(bridge.lines.matching("1000004 bytes").isEmpty)

        // Reconnections send the limit again (libmosquitto keeps the CONNECT properties).
        broker.kill()
        try await bridge.lines.wait(for: "the bridge to notice") {
            $0.contains { $0.message.contains("MQTT: lost the connection") }
        }
        try await broker.start()
        try await controller.waitFor(bridge.topics.availability, count: 2, "online again") { $0.text == "online" }
        try controller.publish(bridge.topics.command, "log " + String(repeating: "y", count: 1_000_000))
        try controller.publish(bridge.topics.command, "log magnesium")
        // The controller may send "log vitamin-d" again: libmosquitto re-sends a QoS 1 message whose
        // acknowledgement it had not taken in when the broker was killed (seen: [vitamin-d,
        // vitamin-d], about one run in five). What matters is that magnesium arrives and the huge
        // command does not.
        let afterRestart = try await bridge.commands.wait(for: "the small command after the restart") {
            $0.contains(.log(type: "magnesium"))
        }
        #expect(afterRestart.allSatisfy { $0 == .log(type: "vitamin-d") || $0 == .log(type: "magnesium") }, "\(afterRestart)")
        #expect(bridge.lines.matching("1000004 bytes").isEmpty)

        await controller.stop()
        await bridge.stop()
        withExtendedLifetime(broker) {}  // the broker runs until the end of the test
    }
}
