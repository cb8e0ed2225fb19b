// The configuration file's `[[schedule]]` tables (docs/design.md 3.2) into validated schedules. The
// caller's TOML layer hands each table as text values (`frequency = "weekly"`,
// `first = "2026-11-22T09:00"`, `enabled = "true"`). docs/design.md 3.2: a bad value of a known key is
// refused with the reason and the valid choices, and the rest still loads; an unknown key is a
// warning, never a failure. So each bad table is refused whole, with ONE line, and every other
// table loads.

import Timekeeping

package struct ScheduleTables: Sendable {
    /// The schedules of the tables that were valid, in file order.
    package let schedules: [IntakeSchedule]
    /// One per refused table.
    package let errors: [ScheduleTableError]
    /// Unknown keys and keys that do not apply; the table still loads.
    package let warnings: [String]

    /// The keys a `[[schedule]]` table may have.
    package static let knownKeys = ["id", "name", "intake", "frequency", "first", "enabled", "body", "min_ml"]

    /// Reads `tables` in order. A table that repeats an id already loaded is refused (the first
    /// one wins).
    package init(parsing tables: [[String: String]]) {
        var schedules: [IntakeSchedule] = []
        var errors: [ScheduleTableError] = []
        var warnings: [String] = []
        for (index, table) in tables.enumerated() {
            let position = index + 1
            let id = table["id"]?.trimmingWhitespace()
            for key in table.keys.sorted() where !ScheduleTables.knownKeys.contains(key) {
                warnings.append("\(ScheduleTableError.place(position, id)): unknown key \"\(key)\" ignored; known keys: \(ScheduleTables.knownKeys.joined(separator: ", "))")
            }
            let schedule: IntakeSchedule
            do {
                schedule = try ScheduleTables.schedule(from: table)
            } catch {
                errors.append(ScheduleTableError(table: position, id: id, problem: error))
                continue
            }
            guard !schedules.contains(where: { $0.id == schedule.id }) else {
                errors.append(ScheduleTableError(table: position, id: id, problem: .duplicateID(schedule.id)))
                continue
            }
            if schedule.intake.isManual, table["min_ml"] != nil {
                warnings.append("\(ScheduleTableError.place(position, id)): min_ml ignored; it applies to intake = \"water\" only")
            }
            schedules.append(schedule)
        }
        self.schedules = schedules
        self.errors = errors
        self.warnings = warnings
    }

    /// One table, or the first thing wrong with it.
    static func schedule(from table: [String: String]) throws(ScheduleTableError.Problem) -> IntakeSchedule {
        guard let id = table["id"]?.trimmingWhitespace() else { throw .missing("id", expected: "a short name such as id = \"VITD\"") }
        guard let intakeText = table["intake"] else {
            throw .missing("intake", expected: "intake = \"water\" (bottle drinks) or a name such as \"vitamin-d\"")
        }
        guard let frequencyText = table["frequency"] else {
            throw .missing("frequency", expected: "one of \(IntakeFrequency.choices)")
        }
        guard let frequency = IntakeFrequency(name: frequencyText) else { throw .unknownFrequency(frequencyText) }
        guard let firstText = table["first"] else {
            throw .missing("first", expected: "the first occurrence in local time, e.g. first = \"2026-11-22T09:00\"")
        }
        let first: LocalDateTime
        do { first = try LocalDateTime(parsing: firstText.trimmingWhitespace()) } catch { throw .badFirst(error) }
        var enabled = true
        if let text = table["enabled"] {
            switch text.trimmingWhitespace().lowercased() {
            case "true": enabled = true
            case "false": enabled = false
            default: throw .badEnabled(text)
            }
        }
        var minML = IntakeType.defaultMinML
        if let text = table["min_ml"] {
            guard let value = Int(text.trimmingWhitespace()), value >= 1 else { throw .schedule(.badMinML(text)) }
            minML = value
        }
        let intake: IntakeType
        do { intake = try IntakeType(parsing: intakeText, minML: minML) } catch { throw .badIntake(error) }
        do {
            return try IntakeSchedule(id: id, name: table["name"], intake: intake, frequency: frequency,
                                      first: first, enabled: enabled, body: table["body"])
        } catch {
            throw .schedule(error)
        }
    }
}

/// A `[[schedule]]` table that was refused: which one, and the one reason.
package struct ScheduleTableError: Error, Equatable, CustomStringConvertible {
    package enum Problem: Error, Equatable, Sendable {
        case missing(String, expected: String)
        case unknownFrequency(String)
        case badFirst(InvalidLocalDateTime)
        case badEnabled(String)
        case badIntake(InvalidIntakeType)
        case duplicateID(String)
        case schedule(InvalidSchedule)
    }

    /// 1-based position of the table in the file.
    package let table: Int
    package let id: String?
    package let problem: Problem

    /// One line: which table, what was wrong, what is expected.
    package var description: String {
        let reason: String
        switch problem {
        case .missing(let key, let expected): reason = "no \(key); expected \(expected)"
        case .unknownFrequency(let text): reason = "unknown frequency \"\(text)\"; expected one of \(IntakeFrequency.choices)"
        case .badFirst(let error): reason = "first \(error.description)"
        case .badEnabled(let text): reason = "enabled \"\(text)\" is not a switch; expected true or false"
        case .badIntake(let error): reason = error.description
        case .duplicateID(let id): reason = "id \"\(id)\" is already used by an earlier schedule; expected an id of its own"
        case .schedule(let error): reason = error.description
        }
        return "\(ScheduleTableError.place(table, id)) refused: \(reason)"
    }

    static func place(_ table: Int, _ id: String?) -> String {
        id.map { "[[schedule]] #\(table) (id \"\($0)\")" } ?? "[[schedule]] #\(table)"
    }
}
