// Settings are read through their typed keys (Sources/Settings/Setting.swift): `configuration[
// Setting.dailyLimit]`, never `configuration.bool("reminders.daily_limit")`. A setting's dotted
// name is written once, in that table; a read by string elsewhere would go unchecked by the
// compiler, and a misspelt name would silently read the default.

import Foundation
import Testing

@Suite struct TypedSettingsTests {
    static let table = "Sources/Settings/Setting.swift"

    /// The names the table declares (`"reminders.daily_limit"` after `.flag(` and the like).
    static func declaredNames() throws -> Set<String> {
        let text = try String(contentsOf: LayeringTests.root.appendingPathComponent(table), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"(?:SettingKey\(|\.(?:flag|integer|optionalInteger|text|choice|optionalChoice)\(|timeOfDay\()\s*"([a-z_]+(?:\.[a-z_]+)*)""#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } })
    }

    /// Calls that read or write a setting by name: the configuration's and the history's.
    static let readers = ["value", "bool", "integer", "setting", "set", "source", "requireKey", "applyOverride", "key"]

    /// The lines (from 1) of `text` that name a setting by string in a read or a write, with the name.
    static func readsByName(in text: String, names: Set<String>) throws -> [(line: Int, name: String)] {
        let alternatives = names.sorted { $0.count > $1.count }.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        // `form.integer("daily_goal_ml", …)` and `query.integer("days", …)` read an HTTP field, not a setting.
        let pattern = try NSRegularExpression(
            pattern: #"(?<!form\.)(?<!query\.)\b(?:"# + readers.joined(separator: "|") + #")\(\s*(?:named:\s*)?"("# + alternatives + #")(?:"|=)"#)
        var found: [(Int, String)] = []
        for (index, code) in OneClockTests.codeLines(of: text).enumerated() {
            let range = NSRange(code.startIndex..., in: code)
            for match in pattern.matches(in: code, range: range) {
                if let name = Range(match.range(at: 1), in: code) { found.append((index + 1, String(code[name]))) }
            }
        }
        return found
    }

    /// File → the name it may give by string, and why. The list can only shrink: an entry no
    /// longer needed fails.
    static let knownExceptions: [String: (name: String, why: String)] = [
        "Sources/Sinks/MQTT/HomeAssistantDiscovery.swift": ("daily_goal_ml",
            "`value(\"daily_goal_ml\")` writes a Home Assistant value template naming the state's JSON field, not a setting"),
    ]

    @Test func everySettingIsReadThroughItsTypedKey() throws {
        let names = try Self.declaredNames()
        // A table the scan cannot read would pass anything.
        #expect(names.count >= 40 && names.contains("reminders.daily_limit") && names.contains("owner"), "\(names.sorted())")
        for file in try sourceFiles(outside: "") where file.path != Self.table {
            for read in try Self.readsByName(in: file.text, names: names) where Self.knownExceptions[file.path]?.name != read.name {
                Issue.record("\(file.path):\(read.line): the setting \(read.name) by string: read it as configuration[Setting.…] (Sources/Settings/Setting.swift)")
            }
        }
    }

    @Test func everyKnownExceptionIsStillNeeded() throws {
        let names = try Self.declaredNames()
        for (path, exception) in Self.knownExceptions {
            let text = try String(contentsOf: LayeringTests.root.appendingPathComponent(path), encoding: .utf8)
            if try !Self.readsByName(in: text, names: names).contains(where: { $0.name == exception.name }) {
                Issue.record("\(path) no longer names \(exception.name): remove it from TypedSettingsTests.knownExceptions")
            }
        }
    }

    @Test func theFinderSeesAReadByNameButNotAField() throws {
        let text = """
            let limit = configuration.bool("reminders.daily_limit")
            // configuration.value("mqtt.url") in a comment
            let goal = try form.integer("daily_goal_ml", in: 1000...4000)
            try history.settings.set("reminders.daily_limit", "false")
            try configuration.applyOverride("bridge.id=demo")
            let days = try query.integer("days", in: 1...7, fallback: 7)
            let typed = configuration[Setting.dailyLimit]
            let zone = own.value("timezone")
            let label = "mqtt.url"
            """
        let found = try Self.readsByName(in: text, names: ["reminders.daily_limit", "mqtt.url", "daily_goal_ml", "bridge.id", "timezone"])
        #expect(found.map(\.line) == [1, 4, 5, 8])
        #expect(found.map(\.name) == ["reminders.daily_limit", "reminders.daily_limit", "bridge.id", "timezone"])
    }
}
