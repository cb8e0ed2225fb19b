// What Home Assistant sees, end to end (docs/design.md 3.5, docs/integrations.md 2): the daemon against
// a real mosquitto and a simulated bottle, and a client reading the broker as Home Assistant
// would — the retained device configs and state, and the bottle's controls through the command
// topic.

import BusTestSupport
import Foundation
import History
import Locking
import Logging
@testable import MQTT
import ProcessSupport
@testable import Sinks
import TestFixtures
import Testing

@Suite("Home Assistant against the daemon")
struct HomeAssistantLiveTests {
    static let serial = "F4:12:FA:00:A3:F2"

    /// A broker on loopback, a simulator with `records` drinks, and a client hearing `aquavate/#`
    /// and the discovery prefix.
    func withBroker(records: Int, _ body: (PrivateBus, TemporaryFolder, Int, Locked<[MosquittoClient.Message]>, MosquittoClient) async throws -> Void) async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            try await LiveCommandTests().startSimulator(on: bus, folder: folder, records: records)
            let port = try freeTCPPort()
            let broker = try startMosquitto(on: bus, in: folder, port: port)
            defer { broker.killNow() }
            let heard = Locked<[MosquittoClient.Message]>([])
            let client = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(host: "127.0.0.1", port: port), reconnectDelay: 0.1...0.5),
                handlers: .init(
                    connected: { client in
                        try? client.subscribe("aquavate/#")
                        try? client.subscribe("homeassistant/#")
                    },
                    message: { _, message in heard.withLock { $0.append(message) } }),
                logger: Logger(label: "home-assistant") { _ in SwiftLogNoOpLogHandler() })
            client.start()
            try await waitUntil(.seconds(10), "the client to connect") { client.isConnected }
            try await body(bus, folder, port, heard, client)
            await client.stop()
        }
    }

    func json(_ message: MosquittoClient.Message) throws -> JSONTree {
        try #require(JSONTree.parse(message.payload), "not JSON: \(message.text)")
    }

    @Test("after run --once the retained state tells the truth, and the device is the bottle's serial, via the bridge")
    func truthAfterRunOnce() async throws {
        try await withBroker(records: 6) { bus, folder, port, heard, _ in
            let db = folder.path + "/history.sqlite"
            let run = try await LiveCommandTests().bridge(bus, [
                "run", "--once", "--db", db, "--set", "mqtt.url=mqtt://127.0.0.1:\(port)", "--set", "bridge.id=kitchen",
                "--set", "desktop.enabled=false",
            ])
            #expect(run.status == 0, "\(run)")
            let simulator = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/sim.json"))) as? [String: Any])
            try await waitUntil(.seconds(10), "the retained state: \(heard.withLock { $0.map { $0.topic + " " + $0.text.prefix(80) } })") {
                heard.withLock { $0.contains { $0.topic == "aquavate/f412fa00a3f4/state" } }
            }
            let messages = heard.withLock { $0 }
            // No device was announced before the bottle was known: only the bridge and the bottle.
            let configs = Set(messages.filter { $0.topic.hasPrefix("homeassistant/device/") && !$0.payload.isEmpty }.map(\.topic))
            #expect(configs == ["homeassistant/device/aquavate_bridge_kitchen/config", "homeassistant/device/aquavate_f412fa00a3f4/config"])
            let device = try json(try #require(messages.last { $0.topic == "homeassistant/device/aquavate_f412fa00a3f4/config" }))
            #expect(device["dev"]?["identifiers"] == .array(["aquavate_f412fa00a3f2"]), "the serial")
            #expect(device["dev"]?["sw_version"] == "0.1.0")
            #expect(device["dev"]?["model"] == "Puck v1.0")
            #expect(device["dev"]?["via_device"] == "aquavate_bridge_kitchen")
            #expect(device["availability_topic"] == "aquavate/bridge/kitchen/availability")
            let bridge = try json(try #require(messages.last { $0.topic == "homeassistant/device/aquavate_bridge_kitchen/config" }))
            #expect(bridge["dev"]?["identifiers"] == .array(["aquavate_bridge_kitchen"]))

            let state = try json(try #require(messages.last { $0.topic == "aquavate/f412fa00a3f4/state" }))
            #expect(state["battery"] == .int(simulator["battery_percent"] as? Int ?? -1), "\(state)")
            #expect(state["battery"] != .int(0))
            #expect(state["bottle_level_ml"] == .int(Int((simulator["water_ml"] as? Double ?? -1).rounded(.down))), "\(state)")
            #expect(state["connected"] == .bool(false), "the run ended: not connected")
            #expect(state["bottle_goal_ml"] == .int(2500))
            #expect(messages.contains { $0.topic == "aquavate/bridge/kitchen/availability" && $0.text == "offline" })
        }
    }

    @Test("the goal number and the tare button of Home Assistant reach the bottle through the queue; a bad goal is refused")
    func controlsFromHomeAssistant() async throws {
        try await withBroker(records: 2) { bus, folder, port, heard, client in
            let db = folder.path + "/history.sqlite"
            // The bottle is known first (a run --once), so the daemon announces it at start.
            #expect(try await LiveCommandTests().bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let daemon = try bus.spawn(LiveCommandTests.bridge, [
                "run", "--db", db, "--cooldown", "1", "--set", "mqtt.url=mqtt://127.0.0.1:\(port)", "--set", "bridge.id=kitchen",
                "--set", "desktop.enabled=false",
            ], logName: "daemon")
            defer { daemon.killNow() }
            let command = "aquavate/f412fa00a3f4/command", result = "aquavate/f412fa00a3f4/command/result"
            try await waitUntil(.seconds(30), "the bottle's command topic to be served (\(bus.log("daemon").suffix(600)))") {
                heard.withLock { $0.contains { $0.topic == "homeassistant/device/aquavate_f412fa00a3f4/config" } }
            }
            let device = try json(try #require(heard.withLock { $0.last { $0.topic == "homeassistant/device/aquavate_f412fa00a3f4/config" } }))
            let template = try #require(device["cmps"]?["goal_setting"]?["command_template"]?.stringValue)
            // What Home Assistant's number entity publishes for 3000: its template rendered.
            try client.publish(.init(topic: command, text: template.replacingOccurrences(of: "{{ value | int }}", with: "3000")))
            try client.publish(.init(topic: command, text: try #require(device["cmps"]?["tare"]?["payload_press"]?.stringValue)))
            try client.publish(.init(topic: command, text: #"{"goal": 50}"#))
            let stateFile = folder.path + "/sim.json"
            try await waitUntil(.seconds(60), "the goal applied on the bottle (\(bus.log("daemon").suffix(800)))") {
                let text = try? String(contentsOfFile: stateFile, encoding: .utf8)
                return text?.contains("\"goal_ml\" : 3000") == true
            }
            try await waitUntil(.seconds(30), "the results") {
                heard.withLock { $0.filter { $0.topic == result && $0.text.contains("\"applied\"") }.count >= 2 }
            }
            let results = heard.withLock { $0.filter { $0.topic == result } }.map(\.text)
            #expect(results.contains { $0.contains("\"goal\"") && $0.contains("\"pending\"") })
            #expect(results.contains { $0.contains("\"refused\"") && $0.contains("1000 to 4000") }, "\(results)")
            #expect(results.contains { $0.contains("\"tare\"") && $0.contains("\"applied\"") }, "\(results)")
            #expect(try DrinkHistory(path: db).commands.all().map(\.command) == ["goal", "tare"], "the refused goal was never queued")
            daemon.send(SIGTERM)
            if await daemon.waitForExit(timeout: .seconds(20)) == nil { daemon.killNow() }
        }
    }

    @Test("demo --mqtt publishes the story's day live: its bridge and bottle devices, and states that change as it goes")
    func demoPublishesTheDay() async throws {
        try await withBroker(records: 0) { _, _, port, heard, _ in
            let demo = try await runTool(LiveCommandTests.bridge, ["demo", "--records", "3", "--mqtt", "mqtt://127.0.0.1:\(port)"],
                                         timeout: .seconds(180))
            #expect(demo.status == 0, "\(demo)")
            #expect(demo.output.contains("demo: publishing to MQTT mqtt://127.0.0.1:\(port) as bridge demo"), "\(demo.output.prefix(600))")
            try await waitUntil(.seconds(10), "the demo's last messages") {
                heard.withLock { $0.contains { $0.topic == "aquavate/bridge/demo/availability" && $0.text == "offline" } }
            }
            let messages = heard.withLock { $0 }
            #expect(messages.contains { $0.topic == "homeassistant/device/aquavate_bridge_demo/config" && !$0.payload.isEmpty })
            let bottleConfigs = messages.filter { $0.topic.hasPrefix("homeassistant/device/aquavate_") && !$0.topic.contains("bridge_demo") && !$0.payload.isEmpty }
            #expect(!bottleConfigs.isEmpty, "the simulated bottle's device")
            // The day as it goes: the total grows with each sync, and the urgency is an id.
            let states = messages.filter { $0.topic.hasPrefix("aquavate/") && $0.topic.hasSuffix("/state") }.compactMap { try? json($0) }
            let totals = states.compactMap { $0["daily_total_ml"] }
            #expect(Set(totals.map { "\($0)" }).count >= 3, "\(totals)")
            #expect(states.allSatisfy { ["on_track", "attention", "overdue"].contains($0["urgency"]?.stringValue ?? "") })
        }
    }
}
