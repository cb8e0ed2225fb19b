// The JSON form of a command that came in from outside (SinkCommandParser): one object with
// exactly one member, the command's name, whose value is its argument. Read by Codable; every
// shape the forms do not allow (another type, a missing or extra key, a number that is not a
// whole one or does not fit) is a SinkCommandError saying the expected form, and nothing is
// half-read.

import MQTT

struct SinkCommandJSON: Decodable {
    var command: SinkCommand

    /// A command's name is checked against the known ones, not assumed.
    typealias MemberName = WireMemberName

    typealias Forms = SinkCommandParser

    init(from decoder: any Decoder) throws {
        let document = try decoder.container(keyedBy: MemberName.self)
        guard document.allKeys.count == 1, let name = document.allKeys.first else {
            throw SinkCommandError.malformed(command: "JSON", expected: "one object with exactly one of config, log, action")
        }
        command = try Self.command(name.stringValue, argument: document.superDecoder(forKey: name))
    }

    private static func command(_ name: String, argument: any Decoder) throws(SinkCommandError) -> SinkCommand {
        switch name {
        case "config":
            guard let fields = fields(argument), fields.allKeys.count == 2,
                  let key = try? fields.decode(String.self, forKey: MemberName(stringValue: "key")),
                  let value = try? fields.decode(ConfigValue.self, forKey: MemberName(stringValue: "value")) else {
                throw .malformed(command: "config", expected: Forms.configForms)
            }
            return try Forms.config(key: key, value: value.text)
        case "log":
            if let type = text(argument) { return try Forms.log(type: type, bottle: nil) }
            // {"type":TYPE} or {"type":TYPE,"bottle":BOTTLE}, nothing else.
            let bottleKey = MemberName(stringValue: "bottle")
            guard let fields = fields(argument),
                  let type = try? fields.decode(String.self, forKey: MemberName(stringValue: "type")) else {
                throw .malformed(command: "log", expected: Forms.logForms)
            }
            let named = fields.contains(bottleKey)
            let bottle = named ? try? fields.decode(String.self, forKey: bottleKey) : nil
            guard named == (bottle != nil), fields.allKeys.count == (named ? 2 : 1) else {
                throw .malformed(command: "log", expected: Forms.logForms)
            }
            return try Forms.log(type: type, bottle: bottle)
        case "action":
            guard let fields = fields(argument), fields.allKeys.count == 2,
                  let id = try? fields.decode(String.self, forKey: MemberName(stringValue: "id")),
                  let action = try? fields.decode(String.self, forKey: MemberName(stringValue: "action")) else {
                throw .malformed(command: "action", expected: Forms.actionForms)
            }
            return try Forms.action(id: id, action: action)
        case "goal":
            guard let goal = wholeNumber(argument) else { throw .malformed(command: "goal", expected: Forms.goalForms) }
            return .bottle(.goal(goal))
        case "delete":
            if text(argument) == "last" { return .bottle(.deleteLast) }
            guard let id = wholeNumber(argument), id >= 0 else { throw .malformed(command: "delete", expected: Forms.deleteForms) }
            return .bottle(.delete(recordID: id))
        case "tare":
            guard flag(argument) == true else { throw .malformed(command: "tare", expected: Forms.tareForms) }
            return .bottle(.tare)
        case "shake_to_empty", "shake-to-empty":
            switch (text(argument), flag(argument)) {
            case ("on"?, _), (_, true?): return .bottle(.shakeToEmpty(true))
            case ("off"?, _), (_, false?): return .bottle(.shakeToEmpty(false))
            default: throw .malformed(command: "shake-to-empty", expected: Forms.shakeForms)
            }
        default:
            throw .unknownCommand(String(name.prefix(40)))
        }
    }

    /// A config value as text: a string as it is, a boolean or number as written.
    enum ConfigValue: Decodable {
        case text(String)
        case flag(Bool)
        case whole(Int)
        case fraction(Double)

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if let text = try? value.decode(String.self) {
                self = .text(text)
            } else if let flag = try? value.decode(Bool.self) {
                self = .flag(flag)
            } else if let whole = try? value.decode(Int.self) {
                self = .whole(whole)
            } else {
                self = .fraction(try value.decode(Double.self))
            }
        }

        var text: String {
            switch self {
            case let .text(text): return text
            case let .flag(flag): return flag ? "true" : "false"
            case let .whole(number): return String(number)
            case let .fraction(number): return String(number)
            }
        }
    }

    private static func fields(_ argument: any Decoder) -> KeyedDecodingContainer<MemberName>? {
        try? argument.container(keyedBy: MemberName.self)
    }

    private static func text(_ argument: any Decoder) -> String? {
        try? argument.singleValueContainer().decode(String.self)
    }

    private static func flag(_ argument: any Decoder) -> Bool? {
        try? argument.singleValueContainer().decode(Bool.self)
    }

    /// A whole number given as a JSON number or as digits in a string (Home Assistant's number
    /// entity sends what its template makes).
    private static func wholeNumber(_ argument: any Decoder) -> Int? {
        if let number = try? argument.singleValueContainer().decode(Int.self) { return number }
        return text(argument).flatMap { Int($0.trimmingWhitespace) }
    }
}
