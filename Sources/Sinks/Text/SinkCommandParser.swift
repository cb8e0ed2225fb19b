// Reads a command that came in from outside (the MQTT command topic, a Home Assistant switch, a
// phone's action button): JSON or a one-line text form, both mapping onto SinkCommand.
//
//     {"config":{"key":"reminders.daily_limit","value":"false"}}     config reminders.daily_limit false
//     {"log":"vitamin-d"}                                              log vitamin-d
//     {"log":{"type":"vitamin-d","bottle":"F4:12:FA:00:A3:F2"}}        (whose: a bottle's serial or address)
//     {"action":{"id":"ritual-morning-2026-11-22","action":"did-this"}} action ritual-morning-2026-11-22 did-this
//     {"goal":2500}                                                    goal 2500
//     {"delete":17}                                                    delete 17
//     {"delete":"last"}                                                delete last
//     {"tare":true}                                                    tare
//     {"shake_to_empty":"on"}                                          shake-to-empty on
//
// A config value may be a JSON string, boolean or number (`"value":false` works too); the text
// form takes the rest of the line as the value and also accepts `config set KEY VALUE`, like the
// command line. Anything else is refused whole with a SinkCommandError; nothing half-parses.

import MQTT

package enum SinkCommandError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLong(bytes: Int, limit: Int)
    case notUTF8
    case invalidJSON
    case unknownCommand(String)
    case malformed(command: String, expected: String)

    package var description: String {
        switch self {
        case .empty:
            return "empty command: expected JSON like {\"log\":\"vitamin-d\"} or text like `log vitamin-d`"
        case let .tooLong(bytes, limit):
            return "command of \(bytes) bytes is longer than the \(limit) allowed"
        case .notUTF8:
            return "command is not UTF-8 text"
        case .invalidJSON:
            return "command starts with `{` but is not valid JSON"
        case let .unknownCommand(name):
            return "unknown command `\(name)`: expected config, log, action, goal, delete, tare or shake-to-empty"
        case let .malformed(command, expected):
            return "malformed \(command) command: expected \(expected)"
        }
    }
}

package enum SinkCommandParser {
    package static let maximumBytes = 4096

    static let configForms = "{\"config\":{\"key\":KEY,\"value\":VALUE}} or `config KEY VALUE`"
    static let logForms = "{\"log\":TYPE}, {\"log\":{\"type\":TYPE,\"bottle\":BOTTLE}}, or `log TYPE`, TYPE like vitamin-d, BOTTLE a serial or address"
    static let goalForms = "{\"goal\":ML} or `goal ML`, ML a whole number"
    static let deleteForms = "{\"delete\":RECORD_ID|\"last\"} or `delete RECORD_ID|last`"
    static let tareForms = "{\"tare\":true} or `tare`"
    static let shakeForms = "{\"shake_to_empty\":\"on\"|\"off\"} or `shake-to-empty on|off`"
    static let actionForms = "{\"action\":{\"id\":NOTIFICATION_ID,\"action\":ACTION_ID}} or `action NOTIFICATION_ID ACTION_ID`"

    package static func parse(_ payload: [UInt8]) throws(SinkCommandError) -> SinkCommand {
        guard payload.count <= maximumBytes else { throw .tooLong(bytes: payload.count, limit: maximumBytes) }
        guard let text = String(validating: payload, as: UTF8.self) else { throw .notUTF8 }
        return try parse(text)
    }

    package static func parse(_ text: String) throws(SinkCommandError) -> SinkCommand {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty else { throw .empty }
        if trimmed.hasPrefix("{") {
            do {
                return try WireJSON.decode(SinkCommandJSON.self, from: trimmed.utf8).command
            } catch let refused as SinkCommandError {
                throw refused
            } catch {
                // The document itself, not a command's argument (SinkCommandJSON reads those).
                throw .invalidJSON
            }
        }
        return try parseText(trimmed)
    }

    // MARK: - Text

    private static func parseText(_ text: String) throws(SinkCommandError) -> SinkCommand {
        guard !text.contains(where: \.isNewline) else {
            throw .malformed(command: "text", expected: "one line")
        }
        let (first, afterName) = splitFirstWord(Substring(text))
        let name = first.lowercased()
        let words = afterName.split(whereSeparator: \.isWhitespace).map(String.init)
        switch name {
        case "config":
            var rest = afterName
            var (key, afterKey) = splitFirstWord(rest)
            if key.lowercased() == "set" {
                rest = afterKey
                (key, afterKey) = splitFirstWord(rest)
            }
            // The value is the rest of the line, inner spaces kept (a file name may have them).
            let value = String(afterKey).trimmingWhitespace
            guard !key.isEmpty, !value.isEmpty else { throw .malformed(command: "config", expected: configForms) }
            return try config(key: String(key), value: value)
        case "log":
            guard words.count == 1 else { throw .malformed(command: "log", expected: logForms) }
            return try log(type: words[0], bottle: nil)
        case "action":
            guard words.count == 2 else { throw .malformed(command: "action", expected: actionForms) }
            return try action(id: words[0], action: words[1])
        case "goal":
            guard words.count == 1, let goal = Int(words[0]) else { throw .malformed(command: "goal", expected: goalForms) }
            return .bottle(.goal(goal))
        case "delete":
            if words == ["last"] { return .bottle(.deleteLast) }
            guard words.count == 1, let id = Int(words[0]), id >= 0 else { throw .malformed(command: "delete", expected: deleteForms) }
            return .bottle(.delete(recordID: id))
        case "tare":
            guard words.isEmpty else { throw .malformed(command: "tare", expected: tareForms) }
            return .bottle(.tare)
        case "shake-to-empty", "shake_to_empty":
            guard words.count == 1, ["on", "off"].contains(words[0].lowercased()) else {
                throw .malformed(command: "shake-to-empty", expected: shakeForms)
            }
            return .bottle(.shakeToEmpty(words[0].lowercased() == "on"))
        default:
            throw .unknownCommand(String(name.prefix(40)))
        }
    }

    /// The first whitespace-separated word and what follows it.
    private static func splitFirstWord(_ text: Substring) -> (word: Substring, rest: Substring) {
        let start = text.firstIndex(where: { !$0.isWhitespace }) ?? text.endIndex
        let end = text[start...].firstIndex(where: \.isWhitespace) ?? text.endIndex
        return (text[start..<end], text[end...])
    }

    // MARK: - Validation shared by both forms

    static func config(key: String, value: String) throws(SinkCommandError) -> SinkCommand {
        guard isName(key, extra: "._-"), !value.isEmpty, !value.contains(where: \.isNewline) else {
            throw .malformed(command: "config", expected: configForms + ", KEY like reminders.daily_limit")
        }
        return .configSet(key: key, value: value)
    }

    static func log(type: String, bottle: String?) throws(SinkCommandError) -> SinkCommand {
        guard isName(type, extra: "_-"), bottle.map({ $0.count <= 64 && isName($0, extra: "_:-") }) ?? true else {
            throw .malformed(command: "log", expected: logForms)
        }
        return .log(type: type, bottle: bottle)
    }

    static func action(id: String, action: String) throws(SinkCommandError) -> SinkCommand {
        guard isName(id, extra: "._:-"), isName(action, extra: "_-") else {
            throw .malformed(command: "action", expected: actionForms)
        }
        return .action(notificationID: id, actionID: action)
    }

    /// ASCII letters, digits and the given punctuation; 1…200 characters.
    private static func isName(_ text: String, extra: String) -> Bool {
        guard (1...200).contains(text.count) else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || extra.unicodeScalars.contains(scalar))
        }
    }
}
