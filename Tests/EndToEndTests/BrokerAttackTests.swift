// A broker login against the daemon, end to end: the daemon (`aquavate-bridge run`) connected to
// a real mosquitto, and another login on the broker publishing on its command topic. It may change
// the person's settings; it may not point the push token at its own URL or turn a file into daily
// messages. Answers come back on the broker (docs/home-assistant.md, "What the broker may change").

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

@Suite("the broker against the daemon")
struct BrokerAttackTests {
    @Test("a broker login can change the daily limit, not push.url or messages.pool; refusals are answered")
    func brokerCannotRedirectThePushToken() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let state = folder.path + "/sim.json"
            _ = try bus.spawn(LiveCommandTests.simulator, ["--bus", bus.address, "--records", "3", "--state-file", state],
                              logName: "sim")
            try await waitUntil(.seconds(20), "the simulator (\(bus.log("sim")))") { FileManager.default.fileExists(atPath: state) }

            let port = try freeTCPPort()
            let broker = try startMosquitto(on: bus, in: folder, port: port)
            defer { broker.killNow() }

            let db = folder.path + "/history.sqlite"
            let history = try DrinkHistory(path: db)
            let daemon = try bus.spawn(LiveCommandTests.bridge, [
                "run", "--db", db, "--set", "mqtt.url=mqtt://127.0.0.1:\(port)", "--set", "mqtt.bottle_id=attacked", "--set", "bridge.id=bridge",
                "--set", "desktop.enabled=false",
            ], logName: "daemon")
            defer { daemon.killNow() }

            let topics = MQTTTopics(bottleID: "attacked")
            let heard = Locked<[MosquittoClient.Message]>([])
            let attacker = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(host: "127.0.0.1", port: port), reconnectDelay: 0.1...0.5),
                handlers: .init(
                    connected: { client in try? client.subscribe("aquavate/#") },
                    message: { _, message in heard.withLock { $0.append(message) } }),
                logger: Logger(label: "attacker") { _ in SwiftLogNoOpLogHandler() })
            attacker.start()
            try await waitUntil(.seconds(30), "the daemon to be online on the broker (\(bus.log("daemon").suffix(800)))") {
                heard.withLock { $0.contains { $0.topic == topics.availability && $0.text == "online" } }
            }

            try attacker.publish(.init(topic: topics.command, text: "config push.url http://attacker.example/steal"))
            try attacker.publish(.init(topic: topics.command, text: "config messages.pool /etc/aquavate/bridge.toml"))
            try attacker.publish(.init(topic: topics.command, text: "config reminders.daily_limit false"))
            try await waitUntil(.seconds(20), "three answers (\(bus.log("daemon").suffix(800)))") {
                heard.withLock { $0.filter { $0.topic == topics.commandResult }.count == 3 }
            }
            let answers = heard.withLock { $0.filter { $0.topic == topics.commandResult } }.map(\.text)
            #expect(answers[0].contains("\"status\":\"refused\"") && answers[0].contains("push.url"))
            #expect(answers[1].contains("\"status\":\"refused\"") && answers[1].contains("messages.pool"))
            #expect(answers[2].contains("\"status\":\"accepted\""))
            try await waitUntil(.seconds(20), "the allowed setting to be stored") {
                try history.settings.value("reminders.daily_limit") == "false"
            }
            #expect(try history.settings.value("push.url") == nil)
            #expect(try history.settings.value("messages.pool") == nil)
            #expect(bus.log("daemon").contains("MQTT: refused command config push.url"))

            await attacker.stop()
            daemon.send(SIGTERM)
            if await daemon.waitForExit(timeout: .seconds(20)) == nil { daemon.killNow() }
        }
    }
}
