// One bridge, several bottles (docs/design.md 6), against a real mosquitto: each identified
// bottle keeps its own Home Assistant device, topics and retained state; a second bottle never
// removes the first one's device.

import BusTestSupport
import Foundation
@testable import MQTT
@testable import Sinks
import BusTestSupport
import Testing

@Suite(.serialized) struct MQTTSeveralBottlesTests {
    static let second = SinkBottle(address: "F4:12:FA:00:B0:04", serial: "F4:12:FA:00:B0:02", name: "Aquavate-B002")

    @Test func eachBottleHasItsOwnDeviceTopicsAndRetainedState() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        let first = bridge.topics
        let second = MQTTTopics(bottleID: "f412fa00b004", bridgeID: first.bridgeID)
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        try await watcher.waitFor(first.availability, "online") { $0.text == "online" }

        bridge.hub.identify(Self.second)
        var firstState = snapshot(total: 900)
        firstState.bottle = BridgeUnderTest.address
        var secondState = snapshot(total: 300)
        secondState.bottle = "F4:12:FA:00:B0:02"  // by its serial
        bridge.hub.publish(firstState)
        bridge.hub.publish(secondState)
        bridge.hub.publish(storedDrink(4, at: 1_763_712_600, amountML: 250, bottleLevelML: 330, bottle: "F4:12:FA:00:B0:02"))
        bridge.hub.publish(storedDrink(9, at: 1_763_712_700, amountML: 100, bottleLevelML: 200, bottle: BridgeUnderTest.address))
        bridge.hub.deliver(SinkNotification(id: "hydration-1@F4:12:FA:00:B0:02", kind: "reminder", title: "Bea: Hydration Reminder",
                                            body: "Drink", time: 1_763_712_800, bottle: "F4:12:FA:00:B0:02"))

        let secondDrinks = try await watcher.waitFor(second.drink)
        #expect(secondDrinks.map { JSONTree.parse($0.payload)?["record_id"] } == [.int(4)])
        let firstDrinks = try await watcher.waitFor(first.drink)
        #expect(firstDrinks.map { JSONTree.parse($0.payload)?["record_id"] } == [.int(9)])
        let notes = try await watcher.waitFor(second.notification)
        #expect(JSONTree.parse(notes[0].payload)?["title"] == "Bea: Hydration Reminder")

        // A client that subscribes now finds both devices and both states retained.
        let late = try TestMQTTClient(port: broker.port)
        try await late.start()
        let firstDevice = try await late.waitFor(first.discovery)
        let secondDevice = try await late.waitFor(second.discovery)
        #expect(firstDevice.count == 1 && !firstDevice[0].payload.isEmpty, "the first bottle's device stays")
        let config = try #require(JSONTree.parse(secondDevice[0].payload))
        #expect(config["dev"]?["identifiers"] == .array(["aquavate_f412fa00b002"]), "the serial identifies the device")
        #expect(config["dev"]?["name"] == "Aquavate-B002")
        #expect(config["state_topic"] == .string(second.state))
        #expect(config["availability_topic"] == .string(first.availability), "a bottle is available while its bridge is")
        #expect(try await late.waitFor(first.state).map(\.text) == [MQTTPayloads.state(firstState).text])
        #expect(try await late.waitFor(second.state).map(\.text) == [MQTTPayloads.state(secondState).text])

        // A command on a bottle's own topic is for that bottle.
        try watcher.publish(second.command, #"{"goal":2000}"#)
        try watcher.publish(first.command, "tare")
        // A manual intake too; one that names its bottle keeps it, whatever topic it came on.
        try watcher.publish(second.command, "log zinc")
        try watcher.publish(second.command, #"{"log":{"type":"iron","bottle":"AA:BB:CC:DD:EE:FF"}}"#)
        let commands = try await bridge.commands.waitForCount(4, "commands")
        #expect(Set(commands.map { "\($0)" }) == [
            "\(SinkCommand.bottleOf(.goal(2000), bottle: "F4:12:FA:00:B0:02"))",
            "\(SinkCommand.bottleOf(.tare, bottle: BridgeUnderTest.address))",
            "\(SinkCommand.log(type: "zinc", bottle: "F4:12:FA:00:B0:02"))",
            "\(SinkCommand.log(type: "iron", bottle: "AA:BB:CC:DD:EE:FF"))",
        ])

        await late.stop()
        await watcher.stop()
        await bridge.stop()
    }

    @Test func aBottleHeardByTwoBridgesIsAvailableWhileEitherIs() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let kitchen = try BridgeUnderTest(port: broker.port)
        await kitchen.start()
        let office = try MQTTSink(configuration: MQTTSinkConfiguration(
            url: "mqtt://127.0.0.1:\(broker.port)", bottleAddress: BridgeUnderTest.address, bottleName: "Aquavate-A3F2",
            bridgeID: "office", bridgeVersion: "0.1.0", reconnectDelay: 0.1...0.5), logger: capturingLogger(Recorder<LogLine>()))
        let officeHub = SinkHub(sinks: [office], logger: capturingLogger(Recorder<LogLine>()))
        await officeHub.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        let both = Set(["aquavate/bridge/bridge/availability", "aquavate/bridge/office/availability"])
        // Whichever bridge announced last, the retained config names both bridges, any of them enough.
        let configs = try await watcher.waitFor(kitchen.topics.discovery, "a config naming both bridges") { message in
            guard let config = JSONTree.parse(message.payload), case let .array(entries)? = config["availability"] else { return false }
            return Set(entries.compactMap { $0["topic"]?.stringValue }) == both && config["availability_mode"] == "any"
        }
        #expect(!configs.isEmpty)
        await officeHub.stop()
        await watcher.stop()
        await kitchen.stop()
    }
}
