// Each setting is named once: its dotted name is written in one place, the table of
// Sources/Settings/Setting.swift, once; and no other source spells a setting of the reminder rules
// (`reminders.*`, `notifications.*`, `messages.*`, `deadline.*`, `rituals.*`) as a string of its
// own, such as a second table of names with their checks beside the first.

import Foundation
import Testing

@Suite struct SettingNamedOnceTests {
    /// The prefixes of the reminder rules' settings (docs/reminders.md 2–6).
    static let rulePrefixes = ["reminders.", "notifications.", "messages.", "deadline.", "rituals."]

    /// File → the rule settings it may spell, and why. The list can only shrink: an entry no longer
    /// needed fails.
    static let knownExceptions: [String: (names: Set<String>, why: String)] = [
        "Sources/Sinks/MQTT/HomeAssistantDiscovery.swift": (["reminders.enabled"],
            "the Home Assistant switch's payload is a config command naming the setting; Sinks may not import Settings"),
        "Sources/Sinks/MQTT/MQTTPayloads.swift": (["reminders.daily_limit"],
            "the daily-limit switch's payload is a config command naming the setting; Sinks may not import Settings"),
    ]

    /// The whole string literals of `text`'s code (comments left out) that are one of `names`, with their line.
    static func literals(in text: String, of names: Set<String>) -> [(line: Int, name: String)] {
        var found: [(Int, String)] = []
        for (index, code) in OneClockTests.codeLines(of: text).enumerated() {
            for name in names where code.contains("\"\(name)\"") { found.append((index + 1, name)) }
        }
        return found
    }

    @Test func theTableNamesEachSettingOnce() throws {
        let names = try TypedSettingsTests.declaredNames()
        #expect(names.count >= 40, "\(names.sorted())")
        let table = try String(contentsOf: LayeringTests.root.appendingPathComponent(TypedSettingsTests.table), encoding: .utf8)
        let spelt = Self.literals(in: table, of: names)
        for name in names.sorted() where spelt.filter({ $0.name == name }).count != 1 {
            Issue.record("\(TypedSettingsTests.table) spells \(name) \(spelt.filter { $0.name == name }.count) times: once, in its key")
        }
    }

    @Test func noOtherSourceSpellsARuleSetting() throws {
        let names = try TypedSettingsTests.declaredNames().filter { name in Self.rulePrefixes.contains { name.hasPrefix($0) } }
        #expect(names.count >= 20 && names.contains("rituals.nickname"), "\(names.sorted())")
        for file in try sourceFiles(outside: "") where file.path != TypedSettingsTests.table {
            for found in Self.literals(in: file.text, of: names) where Self.knownExceptions[file.path]?.names.contains(found.name) != true {
                Issue.record("\(file.path):\(found.line): spells the setting \(found.name): take it from the table (Setting.\(found.name)…), which holds its name, check and parsing")
            }
        }
    }

    @Test func everyKnownExceptionIsStillNeeded() throws {
        let names = try TypedSettingsTests.declaredNames()
        for (path, exception) in Self.knownExceptions {
            let text = try String(contentsOf: LayeringTests.root.appendingPathComponent(path), encoding: .utf8)
            let spelt = Set(Self.literals(in: text, of: names).map(\.name))
            for name in exception.names where !spelt.contains(name) {
                Issue.record("\(path) no longer spells \(name): remove it from SettingNamedOnceTests.knownExceptions")
            }
        }
    }

    @Test func theFinderSeesALiteralButNotACommentOrALongerText() {
        let text = """
            case "rituals.terrain": rituals.terrain = try RitualTerrain.validate(text)
            // "rituals.nickname" in a comment
            notes.append("Rituals use placeholders until rituals.terrain is set")
            let keys = ["messages.enabled", "deadline.period"]
            """
        let found = Self.literals(in: text, of: ["rituals.terrain", "rituals.nickname", "messages.enabled", "deadline.period"])
        #expect(found.map(\.line).sorted() == [1, 4, 4])
    }
}
