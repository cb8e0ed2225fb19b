// Every payload the MQTT sink and ntfy send, against the bytes the code before Codable wrote
// (WireBeforeCodable, recorded from it with these samples): Home Assistant and a bridge of the
// previous version read what this one writes exactly as before.
import Foundation
@testable import MQTT
@testable import Sinks
import Testing

enum WireSamples {
    static func configurations() throws -> [(String, MQTTSinkConfiguration)] {
        let full = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4",
                                             bottleName: "Aquavate-A3F2 \"Tom's\" 💧 \u{07}/x", firmwareVersion: "1.4.2",
                                             bottleSerial: "F4:12:FA:00:A3:F2", bottleModel: "Puck v1.0", bridgeID: "kitchen-pi",
                                             bridgeVersion: "0.1.0", supportURL: "https://example.org/aquavate-bridge")
        var withWeb = full
        withWeb.dashboardURL = "http://kitchen-pi:8080/"
        let bare = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "F4:12:FA:00:A3:F4", bridgeVersion: "0.1.0")
        return [("full", full), ("web", withWeb), ("bare", bare)]
    }

    static func states() -> [(String, BridgeSnapshot)] {
        var all = BridgeSnapshot(time: 1_763_712_900, dayTotalML: 1250, goalML: 2500, bottleLevelML: 420, batteryPercent: 87,
                                 urgency: .attention, deficitML: 300, remindersToday: 2, dailyLimit: true,
                                 lastSync: 1_763_712_720, unsynced: 0, bottleConnected: true)
        all.dayStart = 1_763_679_600
        all.lastDrinkML = 250
        all.lastDrinkTime = 1_763_712_600.5
        all.pendingGoalML = 3000
        all.pendingShakeToEmpty = true
        all.shakeToEmpty = false
        all.bottleGoalML = 2600
        all.pendingCommands = 2
        all.remindersEnabled = false
        all.stuck = true
        all.stuckSince = 1_763_700_000
        all.lastSeen = 1_763_712_800
        all.quarantined = 3
        var none = all
        none.dayStart = nil; none.lastDrinkML = nil; none.lastDrinkTime = nil; none.pendingGoalML = nil
        none.pendingShakeToEmpty = nil; none.shakeToEmpty = nil; none.bottleGoalML = nil; none.stuckSince = nil
        none.lastSeen = nil; none.lastSync = nil; none.unsynced = nil; none.batteryPercent = nil; none.bottleLevelML = nil
        none.goalML = 0
        return [("all", all), ("none", none)]
    }

    static let notifications: [(String, SinkNotification)] = [
        ("ritual", SinkNotification(id: "ritual-morning-2026-11-22", kind: "ritual", title: "Good morning 💧",
                                    body: "Tom's \"daily\" routine\nis ready \\ \u{1F} </tag>", time: 1_763_712_000,
                                    actions: [SinkAction(id: "did-this", label: "Did This"), SinkAction(id: "skip", label: "Skip, today")])),
        ("plain", SinkNotification(id: "hydration-7", kind: "reminder", title: "Drink", body: "", time: 1_763_712_000.25, priority: .high)),
    ]

    static let commands: [(String, SinkCommand?)] = [
        ("config", .configSet(key: "push.url", value: "secret")), ("log", .log(type: "vitamin-d")),
        ("log-bottle", .log(type: "vitamin-d", bottle: "F4:12:FA:00:A3:F2")), ("action", .action(notificationID: "n-1", actionID: "did-this")),
        ("goal", .bottle(.goal(2600))), ("bottle-of", .bottleOf(.tare, bottle: "F4:12")), ("none", nil),
    ]

    static let results: [(String, SinkCommandResult)] = [
        ("full", SinkCommandResult(id: 4, command: "goal", status: "applied", message: "set to 2600 'ml'", goalML: 2600)),
        ("bare", SinkCommandResult(id: nil, command: "tare", status: "refused", message: nil)),
    ]
}

@Suite struct WireCompatibilityTests {
    /// name → text, as the code before Codable wrote them.
    static func before() throws -> [String: String] { WireBeforeCodable.texts }

    /// name → text, as this code writes them.
    static func now() throws -> [(String, String)] {
        var lines: [(String, String)] = []
        func add(_ name: String, _ text: String) { lines.append((name, text)) }
        for (name, configuration) in try WireSamples.configurations() {
            add("discovery/\(name)", HomeAssistantDiscovery.payload(for: configuration).text)
            add("discovery/\(name)/others", HomeAssistantDiscovery.payload(for: configuration, otherBridges: ["study", "attic-2"]).text)
            for (topic, payload) in HomeAssistantDiscovery.entityPayloads(for: configuration) { add("entity/\(name)/\(topic)", payload.text) }
            for (topic, payload) in HomeAssistantDiscovery.entityPayloads(for: configuration, otherBridges: ["study"]) {
                add("entity/\(name)/others/\(topic)", payload.text)
            }
            add("entity-topics/\(name)", HomeAssistantDiscovery.entityTopics(for: configuration).joined(separator: " "))
            add("bridge/\(name)", HomeAssistantDiscovery.bridgePayload(for: configuration).text)
            add("bridge-entity/\(name)", HomeAssistantDiscovery.bridgeEntityPayload(for: configuration).text)
        }
        for (name, state) in WireSamples.states() { add("state/\(name)", MQTTPayloads.state(state).text) }
        add("drink", MQTTPayloads.drink(storedDrink(17, at: 1_763_712_600, amountML: -250, bottleLevelML: 330)).text)
        for (name, note) in WireSamples.notifications { add("notification/\(name)", MQTTPayloads.notification(note).text) }
        for (name, command) in WireSamples.commands {
            add("command-result/\(name)", MQTTPayloads.commandResult(command, status: .refused, message: name == "none" ? nil : "why 'so'").text)
        }
        for (name, result) in WireSamples.results { add("bottle-command-result/\(name)", MQTTPayloads.bottleCommandResult(result).text) }
        add("config-command", MQTTPayloads.configCommand("reminders.enabled", true).text)
        add("daily-limit-command", MQTTPayloads.dailyLimitCommand(false).text)
        let push = try HTTPPushConfiguration(url: "https://ntfy.sh/aquavate", token: "tk_x", actionURL: "https://bridge.example/api/command")
        for (name, note) in WireSamples.notifications {
            let message = NtfyMessage(note, configuration: push)
            add("ntfy/\(name)", message.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: " | ") + " || "
                + message.body.replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\u{1F}", with: "\\u{1F}"))
        }
        add("ntfy-action", NtfyMessage.httpAction(SinkAction(id: "did-this", label: "Did This"), notificationID: "ritual-'x'-2026",
                                                  url: URL(string: "https://bridge.example/api/command")!))
        return lines
    }

    @Test("every payload is the bytes the code before Codable wrote (WireBeforeCodable, recorded from it)")
    func theSameBytesAsBefore() throws {
        let before = try Self.before()
        let now = try Self.now()
        #expect(now.count == before.count, "the same payloads are compared")
        for (name, text) in now {
            #expect(before[name] == text, "\(name)")
        }
    }

    @Test("what Home Assistant and a peer read back is what was meant: every message decodes to itself")
    func messagesReadBackToThemselves() throws {
        for (_, configuration) in try WireSamples.configurations() {
            let device = HomeAssistantDiscovery.payload(for: configuration, otherBridges: ["study"])
            #expect(try WireJSON.decode(DeviceDiscovery.self, from: Array(device.text.utf8)) == device)
            let bridge = HomeAssistantDiscovery.bridgePayload(for: configuration)
            #expect(try WireJSON.decode(BridgeDiscovery.self, from: Array(bridge.text.utf8)) == bridge)
        }
        for (_, state) in WireSamples.states() {
            let message = MQTTPayloads.state(state)
            #expect(try WireJSON.decode(MQTTPayloads.State.self, from: Array(message.text.utf8)) == message)
        }
        for (_, note) in WireSamples.notifications {
            let message = MQTTPayloads.notification(note)
            #expect(try WireJSON.decode(MQTTPayloads.NotificationEvent.self, from: Array(message.text.utf8)) == message)
        }
    }
}
