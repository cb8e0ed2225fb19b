// Which sinks the configuration asks for (`SinkSetup`, docs/reminders.md 1): the journal always,
// MQTT when `mqtt.url` is set, HTTP push when `push.url` is set, each built from its settings (the
// bottle's address and the prefixes in MQTT's topics, the push token as a header); a sink whose
// settings are wrong is left out with one warning while the others still deliver; MQTT's command
// gate is the catalog's, so the broker may set only the person's settings; and a reminder
// engine's delivery as the sinks take it.

import BusTestSupport
@testable import Delivery
import Foundation
import History
import Logging
import MQTT
import Reminders
import Settings
@testable import Sinks
import Testing
import Timekeeping

@Suite("Delivery: the sinks a configuration asks for")
struct SinkSetupTests {
    static let bottle = BottleRecord(id: "F4:12:FA:00:A3:F4", serial: "AQ1", address: "F4:12:FA:00:A3:F4")

    func configuration(_ assignments: String...) throws -> Configuration {
        var configuration = Configuration()
        try configuration.applyOverride("desktop.enabled=false")
        for assignment in assignments { try configuration.applyOverride(assignment) }
        return configuration
    }

    func sinks(_ configuration: Configuration, log: Recorder<LogLine> = Recorder()) -> [any NotificationSink] {
        SinkSetup.sinks(configuration: configuration, bottle: Self.bottle, logger: capturingLogger(log))
    }

    @Test("nothing configured: the journal alone")
    func theJournalAlways() throws {
        let sinks = sinks(try configuration())
        #expect(sinks.count == 1 && sinks[0] is JournalSink)
    }

    @Test("mqtt.url and push.url add their sinks, built from the settings and the bottle")
    func mqttAndPush() throws {
        let sinks = sinks(try configuration("mqtt.url=mqtt://broker.lan:1884", "mqtt.topic_prefix=home/bottles", "bridge.id=pi-kitchen",
                                            "push.url=https://push.example.org/alerts", "push.token=tk_abc"))
        #expect(sinks.count == 3)
        let mqtt = try #require(sinks.compactMap { $0 as? MQTTSink }.first)
        #expect(mqtt.configuration.broker == MQTTBrokerURL(host: "broker.lan", port: 1884))
        #expect(mqtt.configuration.topics.state == "home/bottles/f412fa00a3f4/state")
        #expect(mqtt.configuration.topics.availability == "home/bottles/bridge/pi-kitchen/availability")
        #expect(mqtt.configuration.bottleSerial == "AQ1" && mqtt.configuration.role == .daemon)
        let push = try #require(sinks.compactMap { $0 as? HTTPPushSink }.first)
        #expect(push.configuration.url.absoluteString == "https://push.example.org/alerts")
        #expect(push.configuration.authorization == "Bearer tk_abc")
    }

    @Test("a sink whose settings are wrong is left out with one warning; the others still deliver")
    func aWrongSinkIsLeftOut() throws {
        let log = Recorder<LogLine>()
        let sinks = sinks(try configuration("mqtt.url=mqtt://broker.lan", "mqtt.bottle_id=my bottle",
                                            "push.url=https://push.example.org/alerts"), log: log)
        #expect(sinks.count == 2 && sinks.contains { $0 is JournalSink } && sinks.contains { $0 is HTTPPushSink })
        #expect(!sinks.contains { $0 is MQTTSink })
        let warnings = log.all.filter { $0.level == .warning }
        #expect(warnings.count == 1 && warnings[0].message.hasPrefix("MQTT is not used: "), "\(log.all)")
    }

    @Test("the daemon's MQTT sink is built with the catalog's gate")
    func daemonSinkHasTheGate() throws {
        var configuration = Configuration()
        try configuration.applyOverride("mqtt.url=mqtt://127.0.0.1:1")
        try configuration.applyOverride("desktop.enabled=false")
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let sinks = SinkSetup.sinks(configuration: configuration, bottle: BottleRecord(id: "F4:12:FA:00:A3:F4", address: "F4:12:FA:00:A3:F4"), logger: logger)
        let mqtt = try #require(sinks.compactMap { $0 as? MQTTSink }.first)
        #expect(mqtt.gate.refusal(.configSet(key: "push.url", value: "http://attacker.example/")) != nil)
        #expect(mqtt.gate.refusal(.configSet(key: "messages.pool", value: "/etc/passwd")) != nil)
        #expect(mqtt.gate.refusal(.configSet(key: "reminders.daily_limit", value: "false")) == nil)
    }

    @Test("the catalog's gate lets every command but a config change through")
    func theGatePassesOtherCommands() {
        #expect(SettingCatalog.sinkCommandGate.refusal(.log(type: "vitamin-d")) == nil)
        #expect(SettingCatalog.sinkCommandGate.refusal(.configSet(key: "bottle.address", value: "AA:00:00:00:00:09")) != nil)
        #expect(SettingCatalog.sinkCommandGate.refusal(.configSet(key: "goal_ml", value: "2200")) == nil)
    }

    @Test("bridge.id names the bridge; without it, the host name made safe for a topic")
    func theBridgesID() throws {
        #expect(SinkSetup.bridgeID(try configuration("bridge.id=pi-kitchen")) == "pi-kitchen")
        let fromHost = SinkSetup.bridgeID(try configuration())
        #expect(!fromHost.isEmpty && MQTTTopics.isValidID(fromHost), "\(fromHost)")
    }

    @Test("the desktop sink only where a session bus is")
    func theSessionBus() throws {
        #expect(SinkSetup.sessionBusExists(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus"]))
        #expect(!SinkSetup.sessionBusExists(environment: [:]))
        #expect(!SinkSetup.sessionBusExists(environment: ["DBUS_SESSION_BUS_ADDRESS": ""]))
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        #expect(!SinkSetup.sessionBusExists(environment: ["XDG_RUNTIME_DIR": runtime.path]), "a runtime folder without a bus")
        _ = FileManager.default.createFile(atPath: runtime.appendingPathComponent("bus").path, contents: nil)
        #expect(SinkSetup.sessionBusExists(environment: ["XDG_RUNTIME_DIR": runtime.path]))
    }

    @Test("a reminder engine's delivery as the sinks take it: the kind's raw value, the text, the time and the actions")
    func aDeliveryForTheSinks() {
        let delivery = Reminders.Delivery(id: "reminder-1795330800", kind: .backOnTrack, time: WallInstant(secondsSince1970: 1_795_330_800), title: "Back on track",
                                          body: "750 ml of 2500 ml", actions: [NotificationAction(id: "snooze", label: "Later")])
        let notification = SinkSetup.notification(delivery)
        #expect(notification.id == "reminder-1795330800" && notification.kind == "back_on_track")
        #expect(notification.title == "Back on track" && notification.body == "750 ml of 2500 ml")
        #expect(notification.time == WallInstant(secondsSince1970: 1_795_330_800))
        #expect(notification.actions == [SinkAction(id: "snooze", label: "Later")])
    }
}
