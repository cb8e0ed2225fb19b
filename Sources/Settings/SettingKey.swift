// The settings the bridge knows: their dotted names (docs/design.md 3.2, docs/reminders.md 2.1),
// defaults, and how a text value is checked.
//
// One table serves the TOML file, `config set`, `--set KEY=VALUE` and `config list`, so the
// three ways of saying a setting can never disagree on what is valid.

import Foundation
import Reminders
import Timekeeping

/// What values a setting accepts.
package enum SettingKind: Sendable, Equatable {
    case bool
    case integer(ClosedRange<Int>)
    /// `HH:MM`, 24-hour.
    case timeOfDay
    /// An IANA time-zone identifier (`Europe/Madrid`).
    case timeZone
    /// One of `options`, in any case (`Warm_Balanced`), kept as the option is spelt
    /// (`warm_balanced`).
    case choice([String])
    case text
    /// A name shown to a person: one line of `characters` characters once trimmed; `example` is
    /// one that fits.
    case shortName(characters: ClosedRange<Int>, example: String)
    /// `scheme://host[:port][/path]` with one of the given schemes.
    case url(schemes: [String])
    /// `[ADDR:]PORT` of a listening socket (`ListenAddress`).
    case listenAddress
    /// A DNS host name (`bridge.example.org`): letters, digits, hyphens and dots, no port.
    case hostName
    /// A household key: base64 of 32 bytes (HouseholdKey).
    case householdKey
    /// A secret a person or a program presents (`web.token`): at least 16 bytes of entropy (AccessToken).
    case accessToken

    /// Human text listing the valid values, for error messages.
    package var validChoices: String {
        switch self {
        case .bool: return "true or false"
        case .integer(let range): return "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .timeOfDay: return "a time HH:MM (00:00 to 23:59)"
        case .timeZone: return "an IANA time zone such as Europe/Madrid or UTC"
        case .choice(let options): return "one of " + options.joined(separator: ", ")
        case .text: return "any text"
        case .shortName(let characters, let example):
            return "a short name on one line (\(characters.lowerBound) to \(characters.upperBound) characters), e.g. \(example)"
        case .url(let schemes): return "a URL starting with " + schemes.map { "\($0)://" }.joined(separator: " or ")
        case .listenAddress: return "[ADDR:]PORT, e.g. 8080, 127.0.0.1:8080 or 0.0.0.0:8080"
        case .hostName: return "a host name such as bridge.example.org (no scheme, no port)"
        case .householdKey: return "base64 of 32 bytes, as `aquavate-bridge household create` makes it"
        case .accessToken:
            return "a random token of at least 16 bytes of entropy, e.g. 32 hex digits: `openssl rand -hex 16 | aquavate-bridge config set web.token -`"
        }
    }
}

/// One known setting.
package struct SettingKey: Sendable, Equatable {
    package let name: String
    package let kind: SettingKind
    /// The default as text; nil = unset unless configured (e.g. `mqtt.url`) or computed
    /// (`timezone`: the system's; `daily_goal_ml`: the bottle's goal, else 2500).
    package let defaultValue: String?
    package let summary: String
    /// Who may change it: `.person` settings may also come from a sink (the MQTT command topic);
    /// everything else only from the bridge's own command line and file (SettingAccess).
    package let access: SettingAccess
    /// Shown redacted (`config list/get`, logs, anything published): a token or a password.
    package let isSecret: Bool
    /// The global key a bottle's own key stands for (`daily_goal_ml` for `bottle.AQ1.daily_goal_ml`); else `name`.
    package let baseName: String
    /// Whether a bottle may have its own value (`bottle.<ID>.<name>`, BottleSettings.swift).
    package let perBottle: Bool
    /// The names this setting had before (`goal_ml` for `daily_goal_ml`): a file, a stored value,
    /// `config set` and `--set` still read them, as this setting, so that a renamed key never
    /// loses an installation's value.
    package let formerNames: [String]

    package init(_ name: String, _ kind: SettingKind, default defaultValue: String?, _ summary: String,
                access: SettingAccess = .installation, secret: Bool = false, baseName: String? = nil, perBottle: Bool = false,
                formerNames: [String] = []) {
        self.name = name
        self.formerNames = formerNames
        self.perBottle = perBottle
        self.baseName = baseName ?? name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.access = access
        // Named like a secret is a secret, even if a later key forgets to say so.
        self.isSecret = secret || name.hasSuffix(".token") || name.lowercased().contains("password")
    }

    /// The value as it may be shown or logged: a secret as `<redacted>`, a URL without the
    /// password of its `user:password@`.
    package func shown(_ value: String) -> String {
        if isSecret { return Redaction.placeholder }
        if case .url = kind { return Redaction.url(value) }
        return value
    }

    /// Checks a text value and returns it in canonical form (`TRUE` → `true`, ` 7:05` → `07:05`).
    /// The kind is the whole check: the reminder rules' ranges and choices reach it through the
    /// table (Setting.swift), which takes them from the rules' own types.
    package func normalize(_ raw: String) throws(SettingError) -> String {
        let text = raw.trimmingCharacters(in: .whitespaces)
        switch kind {
        case .bool:
            switch text.lowercased() {
            case "true", "on", "yes", "1": return "true"
            case "false", "off", "no", "0": return "false"
            default: throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return String(value)
        case .timeOfDay:
            guard let minutes = SettingKey.minutesOfDay(text) else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return String(format: "%02d:%02d", minutes / 60, minutes % 60)
        case .timeZone:
            guard !text.isEmpty, TimeZone(identifier: text) != nil else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return text
        case .choice(let options):
            guard let option = options.first(where: { $0.lowercased() == text.lowercased() }) else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return option
        case .text:
            return text
        case .shortName(let characters, _):
            let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard characters.contains(name.count), !name.contains(where: \.isNewline) else {
                throw .invalidValue(key: self.name, value: shown(raw), expected: kind.validChoices)
            }
            return name
        case .url(let schemes):
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                  schemes.contains(scheme), url.host?.isEmpty == false else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return text
        case .listenAddress:
            guard let address = try? ListenAddress(parsing: text) else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return address.description
        case .hostName:
            guard let name = HostName(text) else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return name.text
        case .householdKey:
            guard HouseholdKey.isValid(text) else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return text
        case .accessToken:
            guard AccessToken.isStrong(text) else {
                throw .invalidValue(key: name, value: shown(raw), expected: kind.validChoices)
            }
            return text
        }
    }

    /// `HH:MM` → minutes after midnight, or nil: the rules' own parse (`TimeOfDay`).
    package static func minutesOfDay(_ text: String) -> Int? {
        (try? TimeOfDay(parsing: text))?.minuteOfDay
    }
}

/// Why a setting was refused. One line, with the valid choices.
package enum SettingError: Error, Equatable, CustomStringConvertible {
    case unknownKey(String, suggestion: String?)
    case invalidValue(key: String, value: String, expected: String)
    case malformedAssignment(String)

    package var description: String {
        switch self {
        case .unknownKey(let key, let suggestion):
            let hint = suggestion.map { " (did you mean \($0)?)" } ?? ""
            return "unknown setting '\(key)'\(hint); `aquavate-bridge config list` shows every key"
        case .invalidValue(let key, let value, let expected):
            return "invalid value '\(value)' for \(key): expected \(expected)"
        case .malformedAssignment(let text):
            return "'\(text)' is not KEY=VALUE (for example --set reminders.daily_limit=false)"
        }
    }
}

/// Every setting the bridge knows, in the order `config list` shows them. `access: .person`
/// is the allow-list of what a sink (the MQTT broker) may change: the person's reminders, goal,
/// time zone, messages on/off and language, deadline and rituals. Never a URL, a path
/// (`messages.pool`), a secret, the sinks, `bottle.*` or `bluetooth.*`.
package enum SettingCatalog {
    /// Made from the typed table (Setting.swift), in its order.
    package static let keys: [SettingKey] = Setting.all

    private static let byName: [String: SettingKey] = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })

    /// A former name → the name the setting has now (`goal_ml` → `daily_goal_ml`).
    static let currentNames: [String: String] = Dictionary(uniqueKeysWithValues: keys.flatMap { key in key.formerNames.map { ($0, key.name) } })

    /// A known key (by its name or a former one), or a bottle's own (`bottle.<ID>.<key>`,
    /// BottleSettings.swift); the key returned always carries the current name.
    package static func key(named name: String) -> SettingKey? {
        byName[name] ?? currentNames[name].flatMap { byName[$0] } ?? bottleKey(named: name)
    }

    /// Whether `name` is a setting's former name, global or a bottle's own (`bottle.AQ1.goal_ml`).
    package static func isFormerName(_ name: String) -> Bool {
        currentNames[name] != nil || splitBottleKey(name).map { currentNames[$0.givenBase] != nil } == true
    }

    /// The known key, or `SettingError.unknownKey` with the closest known name as a hint.
    package static func requireKey(_ name: String) throws(SettingError) -> SettingKey {
        if let key = key(named: name) { return key }
        throw .unknownKey(name, suggestion: closest(to: name))
    }

    static func closest(to name: String) -> String? {
        let scored = keys.map { ($0.name, editDistance($0.name, name)) }.min { $0.1 < $1.1 }
        guard let best = scored, best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
