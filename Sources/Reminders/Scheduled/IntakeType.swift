// What a schedule reminds of (docs/reminders.md 3): `water`, measured by the bottle, or a named manual
// type such as `vitamin-d` that the owner logs (`log TYPE`, a capture's `log` op, a notification's
// Done). Names are case-insensitive: they are kept trimmed and lower-cased, so `Vitamin-D` in the
// configuration and `vitamin-d` on the command line are the same type.

package enum IntakeType: Hashable, Sendable, CustomStringConvertible {
    /// Bottle drinks: intake is drinks known at the reminder's time totalling at least `minML`
    /// (default 1: any drink) in its suppression window.
    case water(minML: Int)
    /// A manual type, by its normalized name.
    case manual(String)

    package static let waterName = "water"
    package static let defaultMinML = 1
    /// Long enough for any real name, short enough to keep log lines and ids readable.
    package static let maxNameLength = 64

    /// The normalized name of a type as given, or the reason it is not one. `water` (any case) is
    /// the bottle's type; `minML` applies to it only.
    package init(parsing text: String, minML: Int = IntakeType.defaultMinML) throws(InvalidIntakeType) {
        let name = try IntakeType.normalizedName(text)
        self = name == IntakeType.waterName ? .water(minML: minML) : .manual(name)
    }

    /// Trimmed and lower-cased; refuses an empty name, control characters and overlong names.
    package static func normalizedName(_ text: String) throws(InvalidIntakeType) -> String {
        let name = text.trimmingWhitespace().lowercased()
        guard !name.isEmpty else { throw InvalidIntakeType(text: text, reason: .empty) }
        guard name.count <= maxNameLength else { throw InvalidIntakeType(text: text, reason: .tooLong) }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw InvalidIntakeType(text: text, reason: .controlCharacter)
        }
        return name
    }

    /// `water` or the manual type's name.
    package var name: String {
        switch self {
        case .water: return IntakeType.waterName
        case .manual(let name): return name
        }
    }

    package var isManual: Bool {
        if case .manual = self { return true }
        return false
    }

    package var description: String { name }
}

/// An intake type name that cannot be used.
package struct InvalidIntakeType: Error, Equatable, CustomStringConvertible {
    package enum Reason: Equatable, Sendable { case empty, tooLong, controlCharacter }
    package let text: String
    package let reason: Reason

    package var description: String {
        let expected = "expected \"water\" (bottle drinks) or a name such as \"vitamin-d\""
        switch reason {
        case .empty: return "the intake type is empty; \(expected)"
        case .tooLong: return "the intake type \"\(text.prefix(20))…\" is longer than \(IntakeType.maxNameLength) characters; \(expected)"
        case .controlCharacter: return "the intake type contains a control character; \(expected)"
        }
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and newlines (Foundation-free, so the rule files
    /// need no import for it).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
