// The MQTT sink against a real mosquitto broker (docs/design.md 4), watched by a second client.

import BusTestSupport
import Foundation
import Logging
@testable import MQTT
@testable import Sinks
import BusTestSupport
import Testing
import Timekeeping

/// The bridge side of a test: the MQTT sink behind a hub, with its log and commands recorded.
struct BridgeUnderTest {
    let sink: MQTTSink
    let hub: SinkHub
    let lines = Recorder<LogLine>()
    let commands = Recorder<SinkCommand>()
    /// The hub's back-off sleeps, as the clock parks them.
    let requested = Recorder<Double>()
    let clock: ManualClock

    static let address = "F4:12:FA:00:A3:F4"
    var topics: MQTTTopics { sink.topics }

    init(port: Int, reconnectDelay: ClosedRange<Double> = 0.1...0.5,
         gate: SinkCommandGate = MQTTCommandTrustTests.gate, role: MQTTSinkConfiguration.Role = .daemon,
         format: MQTTSinkConfiguration.DiscoveryFormat = .device) throws {
        let logger = capturingLogger(lines)
        let requested = self.requested
        clock = ManualClock(onSleep: { requested.append($0) })
        var configuration = try MQTTSinkConfiguration(
            url: "mqtt://127.0.0.1:\(port)", bottleAddress: Self.address, bottleName: "Aquavate-A3F2",
            firmwareVersion: "1.4.2", bottleModel: "Puck v1.0", bridgeVersion: "0.1.0", reconnectDelay: reconnectDelay)
        configuration.role = role
        configuration.discoveryFormat = format
        sink = try MQTTSink(configuration: configuration, gate: gate, clock: clock, logger: logger)
        hub = SinkHub(sinks: [sink], clock: clock, logger: logger)
        let commands = self.commands
        let stream = hub.commands
        Task { for await command in stream { commands.append(command) } }
    }

    func start() async { await hub.start() }
    func stop() async { await hub.stop() }
}

@Suite(.serialized) struct MQTTSinkTests {
    @Test func discoveryAvailabilityAndStateAreRetained() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        let state = snapshot(total: 1250)
        bridge.hub.publish(state)
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        try await watcher.waitFor(bridge.topics.availability, "online") { $0.text == "online" }
        try await watcher.waitFor(bridge.topics.state, "the state") { $0.text == MQTTPayloads.state(state).text }

        // A client that subscribes now gets all three from the broker's store, flagged retained.
        let late = try TestMQTTClient(port: broker.port)
        try await late.start()
        let availability = try await late.waitFor(bridge.topics.availability)
        #expect(availability.map(\.text) == ["online"] && availability.allSatisfy(\.retain))
        let stored = try await late.waitFor(bridge.topics.state)
        #expect(stored.map(\.text) == [MQTTPayloads.state(state).text] && stored.allSatisfy(\.retain))
        let discovery = try await late.waitFor(bridge.topics.discovery)
        #expect(discovery.count == 1 && discovery[0].retain)
        #expect(bridge.topics.discovery == "homeassistant/device/aquavate_f412fa00a3f4/config")

        let config = try #require(JSONTree.parse(discovery[0].payload), "discovery is not JSON")
        #expect(config["dev"]?["identifiers"] == .array(["aquavate_f412fa00a3f4"]))
        #expect(config["dev"]?["connections"] == .array([.array(["mac", "F4:12:FA:00:A3:F4"])]))
        #expect(config["dev"]?["manufacturer"] == "Aquavate" && config["dev"]?["model"] == "Puck v1.0")
        #expect(config["dev"]?["sw_version"] == "1.4.2" && config["dev"]?["name"] == "Aquavate-A3F2")
        #expect(config["o"]?["name"] == "aquavate-bridge" && config["o"]?["sw"] == "0.1.0")
        #expect(config["availability_topic"] == .string(bridge.topics.availability))
        #expect(config["state_topic"] == .string(bridge.topics.state))
        #expect(config["cmps"]?["daily_total"]?["device_class"] == "volume")
        #expect(config["cmps"]?["connected"]?["p"] == "binary_sensor")
        #expect(config["cmps"]?["daily_limit"]?["command_topic"] == .string(bridge.topics.command))

        await late.stop()
        await watcher.stop()
        await bridge.stop()
    }

    @Test func drinksAndNotificationsAreEventsThatAreNotRetained() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        try await watcher.waitFor(bridge.topics.availability, "online") { $0.text == "online" }

        let drinks = [
            storedDrink(17, at: 1_763_712_600, amountML: 250, bottleLevelML: 330),
            storedDrink(18, at: 1_763_713_200, amountML: 120, bottleLevelML: 210, pour: true),
        ]
        for drink in drinks { bridge.hub.publish(drink) }
        let reminder = SinkNotification(id: "hydration-3", kind: "reminder", title: "Hydration Reminder",
                                        body: "You're falling behind! Drink 550ml to catch up.", time: 1_763_713_500,
                                        priority: .high)
        bridge.hub.deliver(reminder)

        let drinkEvents = try await watcher.waitFor(bridge.topics.drink, count: 2)
        #expect(drinkEvents.map(\.text) == drinks.map { MQTTPayloads.drink($0).text })
        #expect(drinkEvents.allSatisfy { !$0.retain })
        #expect(drinkEvents.map { JSONTree.parse($0.payload)?["record_id"] } == [.int(17), .int(18)])
        let events = try await watcher.waitFor(bridge.topics.notification)
        #expect(events.map(\.text) == [MQTTPayloads.notification(reminder).text])
        #expect(events.allSatisfy { !$0.retain })
        #expect(JSONTree.parse(events[0].payload)?["priority"] == .int(4))

        await watcher.stop()
        await bridge.stop()
    }

    @Test func commandsFromTheCommandTopicArriveAsSinkCommands() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let controller = try TestMQTTClient(port: broker.port, subscriptions: ["aquavate/#"])
        try await controller.start()
        // A retained command would run again at every reconnection: it must be ignored.
        let commandTopic = MQTTTopics(bottleID: "f412fa00a3f4").command
        try controller.publish(commandTopic, "log stale-retained", retain: true)
        // Stored by the broker before the bridge subscribes (the controller hears it back):
        // otherwise the bridge would get it as a live message.
        try await controller.waitFor(commandTopic, "the retained command stored") { $0.text == "log stale-retained" }
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        try await controller.waitFor(bridge.topics.availability, "online") { $0.text == "online" }
        try await bridge.lines.wait(for: "the retained command to be ignored") {
            $0.contains { $0.message.contains("ignored a retained message on \(commandTopic)") && $0.level == .warning }
        }

        try controller.publish(commandTopic, #"{"config":{"key":"reminders.daily_limit","value":"false"}}"#)
        try controller.publish(commandTopic, "reboot now")
        try controller.publish(commandTopic, #"{"log":"vitamin-d"}"#)
        try controller.publish(commandTopic, "action ritual-morning-2026-11-22 did-this")
        try controller.publish(commandTopic, #"{"action":{"id":"ritual-evening-2026-11-22","action":"start-ritual"}}"#)
        try controller.publish(commandTopic, "config reminders.daily_limit true")

        let received = try await bridge.commands.waitForCount(5, "commands")
        #expect(received == [
            .configSet(key: "reminders.daily_limit", value: "false"),
            .log(type: "vitamin-d"),
            .action(notificationID: "ritual-morning-2026-11-22", actionID: "did-this"),
            .action(notificationID: "ritual-evening-2026-11-22", actionID: "start-ritual"),
            .configSet(key: "reminders.daily_limit", value: "true"),
        ])
        #expect(bridge.lines.matching("refused command on \(commandTopic): unknown command `reboot`", minimum: .warning).count == 1)

        await controller.stop()
        await bridge.stop()
    }

    @Test func homeAssistantsBirthMessageMakesTheBridgeAnnounceAgain() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        bridge.hub.publish(snapshot(total: 900))
        try await watcher.waitFor(bridge.topics.discovery)
        try await watcher.waitFor(bridge.topics.state)

        // A stray client left a retained `offline` on the bridge's availability (what a CLI
        // command did before it had its own identity): Home Assistant's birth message repairs it.
        try watcher.publish(bridge.topics.availability, "offline", retain: true)
        try await watcher.waitFor(bridge.topics.availability, "the stray offline") { $0.text == "offline" }
        try watcher.publish("homeassistant/status", "offline")
        try watcher.publish("homeassistant/status", "online")
        let discovery = try await watcher.waitFor(bridge.topics.discovery, count: 2, "discovery announced again")
        #expect(discovery.count == 2 && discovery[0].payload == discovery[1].payload)
        try await watcher.waitFor(bridge.topics.state, count: 2, "state sent again")
        let availability = try await watcher.waitFor(bridge.topics.availability, count: 3, "online again")
        #expect(availability.last?.text == "online" && availability.last?.retain == true, "\(availability.map(\.text))")
        let late = try TestMQTTClient(port: broker.port)
        try await late.start()
        #expect(try await late.waitFor(bridge.topics.availability).map(\.text) == ["online"], "the retained one is online")
        await late.stop()
        #expect(bridge.lines.matching("Home Assistant is online").count == 1)

        await watcher.stop()
        await bridge.stop()
    }

    @Test func aCLICommandDeliversWithoutTouchingTheDaemonsAvailabilityOrDevice() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        let daemon = try BridgeUnderTest(port: broker.port)
        await daemon.start()
        try await watcher.waitFor(daemon.topics.availability, "online") { $0.text == "online" }
        try await watcher.waitFor(daemon.topics.discovery, "the device")

        // `notify test` while the daemon runs: it delivers its notification and exits.
        let visitor = try BridgeUnderTest(port: broker.port, role: .visitor(command: "notify"))
        #expect(!visitor.sink.publishesState)
        await visitor.start()
        visitor.hub.deliver(SinkNotification(id: "test", kind: "test", title: "Test", body: "a test", time: 1_763_712_000))
        try await watcher.waitFor(visitor.topics.notification, "the visitor's notification")
        visitor.hub.publish(snapshot(total: 5))
        await visitor.stop()

        // The daemon is still online, alone on its topics: one `online`, one device config.
        try await watcher.probe()  // everything published before has arrived
        #expect(watcher.on(daemon.topics.availability).map(\.text) == ["online"])
        #expect(watcher.on(daemon.topics.discovery).count == 1)
        #expect(watcher.on(daemon.topics.state).isEmpty, "a visitor publishes no state")
        #expect(daemon.sink.isConnected)
        let late = try TestMQTTClient(port: broker.port)
        try await late.start()
        #expect(try await late.waitFor(daemon.topics.availability).map(\.text) == ["online"])
        await late.stop()
        await daemon.stop()
        await watcher.stop()
    }

    @Test func theEntityFormAnnouncesEachEntityAndNoDevice() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        let bridge = try BridgeUnderTest(port: broker.port, format: .entity)
        await bridge.start()
        let battery = try await watcher.waitFor("homeassistant/sensor/aquavate_f412fa00a3f4/battery/config", "the battery's own config")
        let config = try #require(JSONTree.parse(battery[0].payload))
        #expect(config["device"]?["name"] == "Aquavate-A3F2" && config["state_topic"] == .string(bridge.topics.state))
        try await watcher.waitFor(bridge.topics.bridgeEntityDiscovery, "the bridge's online entity")
        try await watcher.probe()
        #expect(watcher.on(bridge.topics.discovery).isEmpty && watcher.on(bridge.topics.bridgeDiscovery).isEmpty, "no device-based config")
        await bridge.stop()
        await watcher.stop()
    }

    @Test func aConfigLeftByTheOtherFormIsRemovedAndTheDeviceAnnouncedAfterIt() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        // What a bridge in the entity form left retained before mqtt.discovery_format became device.
        let stale = "homeassistant/sensor/aquavate_f412fa00a3f4/battery/config"
        try watcher.publish(stale, #"{"name":"Battery","state_topic":"aquavate/f412fa00a3f4/state"}"#, retain: true)
        try await watcher.waitFor(stale, "the stale config")
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        try await watcher.waitFor(stale, count: 2, "the stale config emptied") { _ in true }
        #expect(watcher.on(stale).last?.payload.isEmpty == true)
        let devices = try await watcher.waitFor(bridge.topics.discovery, count: 2, "the device announced again after the removal")
        let all = watcher.messages.all
        let removed = try #require(all.lastIndex { $0.topic == stale && $0.payload.isEmpty })
        #expect(all.lastIndex { $0.topic == bridge.topics.discovery } ?? 0 > removed, "the device config comes after the removal")
        #expect(!devices.isEmpty)
        let late = try TestMQTTClient(port: broker.port)
        try await late.start()
        try await late.probe()
        #expect(late.on(stale).isEmpty, "nothing is retained there any more")
        await late.stop()
        await bridge.stop()
        await watcher.stop()
    }

    @Test func theLastWillSaysOfflineWhenTheConnectionDiesUncleanly() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        // A long reconnect delay keeps the bridge away long enough to look at the will.
        let bridge = try BridgeUnderTest(port: broker.port, reconnectDelay: 600...600)
        await bridge.start()
        try await watcher.waitFor(bridge.topics.availability, "online") { $0.text == "online" }

        bridge.sink.dropConnectionUncleanly()
        let will = try await watcher.waitFor(bridge.topics.availability, "the last will") { $0.text == "offline" }
        #expect(will.count == 1 && will[0].retain)
        let late = try TestMQTTClient(port: broker.port)
        try await late.start()
        let stored = try await late.waitFor(bridge.topics.availability)
        #expect(stored.map(\.text) == ["offline"] && stored[0].retain)
        let lost = try await bridge.lines.wait(for: "the bridge to notice") {
            $0.contains { $0.message.contains("MQTT: lost the connection to mqtt://127.0.0.1") }
        }
        #expect(lost.filter { $0.message.contains("MQTT: lost the connection to mqtt://127.0.0.1:\(broker.port)") && $0.level == .warning }.count == 1)

        // stop() cuts the 10-minute wait short.
        await bridge.stop()
        await late.stop()
        await watcher.stop()
    }

    @Test func aCleanStopPublishesOffline() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        try await watcher.waitFor(bridge.topics.availability, "online") { $0.text == "online" }
        await bridge.stop()
        let offline = try await watcher.waitFor(bridge.topics.availability, "offline") { $0.text == "offline" }
        #expect(offline.count == 1 && offline[0].retain)
        #expect(!bridge.sink.isConnected)
        await watcher.stop()
    }

    @Test func afterTheBrokerRestartsTheBridgeReconnectsAndAnnouncesEverythingAgain() async throws {
        let broker = try MosquittoBroker()
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        let state = snapshot(total: 1750)
        bridge.hub.publish(state)
        try await watcher.waitFor(bridge.topics.state)
        try await watcher.waitFor(bridge.topics.discovery)

        broker.kill()
        try await bridge.lines.wait(for: "the bridge to notice") {
            $0.contains { $0.message.contains("MQTT: lost the connection") }
        }
        // Delivered while the broker is down: the hub keeps it and retries once the sink is back.
        bridge.hub.deliver(notification("during-outage"))
        try await bridge.requested.waitForCount(1, "the hub's back-off")
        #expect(bridge.hub.status().first?.failingSince != nil)

        try await broker.start()  // same port, empty store
        try await watcher.waitFor(bridge.topics.availability, count: 2, "online again") { $0.text == "online" }
        try await watcher.waitFor(bridge.topics.discovery, count: 2, "discovery again")
        let states = try await watcher.waitFor(bridge.topics.state, count: 2, "state again")
        #expect(states.last?.text == MQTTPayloads.state(state).text)
        try await bridge.lines.wait(for: "the hub to deliver the held notification") {
            $0.contains { $0.message.contains("sink mqtt: delivering again") }
        }
        #expect(bridge.hub.status().first?.failingSince == nil)
        #expect(bridge.lines.matching("MQTT: connected to mqtt://127.0.0.1:\(broker.port) again after", minimum: .notice).count == 1)
        // The hub's back-off was never waited out: the reconnection cut it short.
        #expect(bridge.clock.now == ManualClock().now)

        // And the broker's store is whole again for anyone subscribing later.
        let late = try TestMQTTClient(port: broker.port)
        try await late.start()
        try await late.waitFor(bridge.topics.availability) { $0.text == "online" && $0.retain }
        try await late.waitFor(bridge.topics.discovery) { $0.retain }
        try await late.waitFor(bridge.topics.state) { $0.retain }

        await late.stop()
        await watcher.stop()
        await bridge.stop()
    }

    @Test func aBridgeStartedBeforeItsBrokerConnectsWhenTheBrokerComes() async throws {
        let broker = try MosquittoBroker()
        let bridge = try BridgeUnderTest(port: broker.port)
        await bridge.start()
        try await bridge.lines.wait(for: "the first failure") {
            $0.contains { $0.message.contains("MQTT: cannot connect to mqtt://127.0.0.1:\(broker.port)") }
        }
        bridge.hub.deliver(notification("early"))
        try await broker.start()
        let watcher = try TestMQTTClient(port: broker.port)
        try await watcher.start()
        try await watcher.waitFor(bridge.topics.availability) { $0.text == "online" }
        try await bridge.lines.wait(for: "the early notification") {
            $0.contains { $0.message.contains("sink mqtt: delivering again") }
        }
        #expect(bridge.lines.matching("MQTT: cannot connect", minimum: .warning).count == 1)
        try await bridge.lines.wait(for: "the connection notice") {
            $0.contains { $0.message.hasPrefix("MQTT: connected to mqtt://127.0.0.1:\(broker.port) after ") && $0.level == .notice }
        }
        #expect(bridge.lines.matching("sink mqtt: cannot deliver notification id=early", minimum: .warning).count == 1)
        await watcher.stop()
        await bridge.stop()
    }

    @Test func wrongCredentialsAreReportedOnceWithWhatToCheck() async throws {
        let broker = try MosquittoBroker(extraConfiguration: [])
        // Rewrite the configuration: no anonymous clients.
        let text = try String(contentsOf: broker.configurationFile, encoding: .utf8)
            .replacingOccurrences(of: "allow_anonymous true", with: "allow_anonymous false")
        try text.write(to: broker.configurationFile, atomically: true, encoding: .utf8)
        try await broker.start()
        let lines = Recorder<LogLine>()
        let sink = try MQTTSink(configuration: MQTTSinkConfiguration(
            url: "mqtt://nobody:wrong@127.0.0.1:\(broker.port)", bottleAddress: BridgeUnderTest.address,
            bridgeVersion: "0.1.0", reconnectDelay: 0.1...0.2), logger: capturingLogger(lines))
        let hub = SinkHub(sinks: [sink], clock: ManualClock(), logger: capturingLogger(lines))
        await hub.start()
        try await lines.wait(for: "the refusal") { $0.contains { $0.message.contains("refused the connection") } }
        try await lines.wait(for: "a few retries") { $0.filter { $0.message.contains("MQTT: attempt") }.count >= 2 }
        let refusals = lines.matching("refused the connection", minimum: .warning)
        #expect(refusals.count == 1)
        #expect(refusals.first?.message.lowercased().contains("not authori") == true)  // 3.1.1: "not authorised", 5: "Not authorized"
        #expect(refusals.first?.message.contains("check user and password in mqtt.url") == true)
        #expect(!sink.isConnected)
        await hub.stop()
    }
}
