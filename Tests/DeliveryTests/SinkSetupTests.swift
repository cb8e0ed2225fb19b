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
        #expect(mqtt.gate.refusal(.bottle(.delete(recordID: 7)))?.reason == .notPermitted, "a record id needs mqtt.commands all")
        // The setting is what the daemon's sink obeys.
        try configuration.applyOverride("mqtt.commands=none")
        let closed = try #require(SinkSetup.sinks(configuration: configuration, bottle: Self.bottle, logger: logger).compactMap { $0 as? MQTTSink }.first)
        #expect(closed.gate.refusal(.bottle(.tare))?.reason == .notPermitted)
        try configuration.applyOverride("mqtt.commands=all")
        let open = try #require(SinkSetup.sinks(configuration: configuration, bottle: Self.bottle, logger: logger).compactMap { $0 as? MQTTSink }.first)
        #expect(open.gate.refusal(.bottle(.delete(recordID: 7))) == nil)
        #expect(open.gate.refusal(.configSet(key: "push.url", value: "http://attacker.example/"))?.reason == .setting)
    }

    @Test("mqtt.commands all: every command passes but a setting that is not the person's")
    func theGatePassesOtherCommands() {
        let gate = SettingCatalog.sinkCommandGate(.all)
        #expect(gate.refusal(.log(type: "vitamin-d")) == nil)
        #expect(gate.refusal(.bottle(.delete(recordID: 7))) == nil)
        #expect(gate.refusal(.configSet(key: "bottle.address", value: "AA:00:00:00:00:09"))?.reason == .setting)
        #expect(gate.refusal(.configSet(key: "daily_goal_ml", value: "2200")) == nil)
    }

    /// What the Home Assistant entities publish, as HomeAssistantDiscovery writes it.
    static let homeAssistantControls: [SinkCommand] = [
        .bottle(.goal(2600)), .bottleOf(.goal(2600), bottle: "F4:12:FA:00:A3:F2"),
        .configSet(key: "reminders.enabled", value: "true"), .configSet(key: "reminders.enabled", value: "false"),
        .configSet(key: "reminders.daily_limit", value: "true"), .configSet(key: "reminders.daily_limit", value: "false"),
        .bottle(.shakeToEmpty(true)), .bottle(.shakeToEmpty(false)), .bottle(.tare), .bottle(.deleteLast),
    ]

    /// Everything else the command language says.
    static let beyondControls: [SinkCommand] = [
        .bottle(.delete(recordID: 7)), .bottleOf(.delete(recordID: 7), bottle: "F4:12:FA:00:A3:F2"),
        .configSet(key: "daily_goal_ml", value: "2200"), .configSet(key: "reminders.active_start", value: "07:00"),
        .configSet(key: "push.url", value: "http://attacker.example/"), .log(type: "vitamin-d"),
        .action(notificationID: "ritual-morning-2026-11-22", actionID: "did-this"),
    ]

    @Test("mqtt.discovery_format: the sink is told the form of the setting's case", arguments: MQTTDiscoveryFormat.allCases)
    func discoveryFormatReachesTheSinkAsItsCase(_ format: MQTTDiscoveryFormat) {
        #expect(MQTTSinkConfiguration.DiscoveryFormat(format).rawValue == format.rawValue)
    }

    @Test("mqtt.commands controls (the default): exactly what Home Assistant's entities send")
    func theDefaultGateTakesHomeAssistantsControls() throws {
        #expect(try configuration()[Setting.mqttCommands] == .controls)
        let gate = SettingCatalog.sinkCommandGate(.controls)
        for command in Self.homeAssistantControls { #expect(gate.refusal(command) == nil, "\(command)") }
        for command in Self.beyondControls { #expect(gate.refusal(command)?.reason == .notPermitted, "\(command)") }
        // The switches' own keys with any other value are no switch.
        #expect(gate.refusal(.configSet(key: "reminders.enabled", value: "maybe"))?.reason == .notPermitted)
    }

    @Test("mqtt.commands none: nothing from the broker")
    func theClosedGate() {
        let gate = SettingCatalog.sinkCommandGate(.none)
        for command in Self.homeAssistantControls + Self.beyondControls { #expect(gate.refusal(command)?.reason == .notPermitted, "\(command)") }
    }

    @Test("the controls are what the discovery publishes: every payload an entity sends passes the default gate")
    func theControlsAreTheDiscoverysPayloads() throws {
        let mqtt = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4", bridgeVersion: "0.1.0")
        let gate = SettingCatalog.sinkCommandGate(.controls)
        var sent: [String] = []
        for (_, payload) in HomeAssistantDiscovery.entityPayloads(for: mqtt) {
            guard let object = try JSONSerialization.jsonObject(with: Data(payload.text.utf8)) as? [String: Any],
                  object["command_topic"] != nil else { continue }
            for key in ["payload_on", "payload_off", "payload_press"] { if let text = object[key] as? String { sent.append(text) } }
            if let template = object["command_template"] as? String { sent.append(template.replacingOccurrences(of: "{{ value | int }}", with: "2600")) }
        }
        #expect(sent.count == 9, "\(sent)")  // two switches of two payloads, one more switch, two buttons, the number
        for text in sent {
            let command = try SinkCommandParser.parse(text)
            #expect(gate.refusal(command) == nil, "\(text)")
        }
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
