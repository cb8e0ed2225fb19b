// A scheduled intake reminder (docs/reminders.md 3): id, name, intake type, frequency, the first
// occurrence, the switch and an optional body. Built only through the validating initializer, so a
// schedule the engine holds is always one it can run.

import Timekeeping

package struct IntakeSchedule: Equatable, Sendable {
    /// Short, and part of every notification id (`reminder-{id}-…`): letters, digits and `_`
    /// only, so that no two schedules' ids can spell the same notification id.
    package let id: String
    /// The notification's title; the id when not given.
    package let name: String
    package let intake: IntakeType
    package let frequency: IntakeFrequency
    /// Local date-time of the first occurrence; nothing fires before it.
    package let first: LocalDateTime
    package var enabled: Bool
    /// The schedule's own body, if it sets one.
    package let body: String?

    package static let maxIDLength = 32

    /// Refuses an id that is empty, too long or has other characters than letters, digits and `_`;
    /// a monthly `first` whose day plus the largest offset passes 31; a `min_ml` below 1.
    package init(id: String, name: String? = nil, intake: IntakeType, frequency: IntakeFrequency,
                first: LocalDateTime, enabled: Bool = true, body: String? = nil) throws(InvalidSchedule) {
        guard !id.isEmpty, id.count <= IntakeSchedule.maxIDLength,
              id.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else {
            throw .badID(id)
        }
        if case .water(let minML) = intake, minML < 1 { throw .badMinML(String(minML)) }
        if first.day.day > frequency.largestFirstDay {
            throw .firstDayTooLate(day: first.day.day, frequency: frequency)
        }
        let trimmedName = name?.trimmingWhitespace() ?? ""
        let trimmedBody = body?.trimmingWhitespace() ?? ""
        self.id = id
        self.name = trimmedName.isEmpty ? id : trimmedName
        self.intake = intake
        self.frequency = frequency
        self.first = first
        self.enabled = enabled
        self.body = trimmedBody.isEmpty ? nil : trimmedBody
    }

    /// `Time for your {name}.` unless the schedule sets its own body.
    package var bodyText: String { body ?? "Time for your \(name)." }

    /// One slot per occurrence of the frequency's table row; each is one pending notification
    /// with a fixed id that repeats daily, weekly or monthly.
    package var slots: [ScheduleSlot] {
        frequency.offsets.map { offset in
            switch frequency.period {
            case .daily:
                return ScheduleSlot(scheduleID: id, recurrence: .daily,
                                    time: TimeOfDay(minuteOfDay: (first.time.minuteOfDay + offset) % 1440)!)
            case .weekly:
                return ScheduleSlot(scheduleID: id, recurrence: .weekly(weekday: (first.day.weekday - 1 + offset) % 7 + 1),
                                    time: first.time)
            case .monthly:
                return ScheduleSlot(scheduleID: id, recurrence: .monthly(day: first.day.day + offset), time: first.time)
            }
        }
    }

    /// The journal's word for the period (`daily`, `weekly`, `monthly`).
    var periodName: String { frequency.period.rawValue }

    /// The thread of this schedule's notifications: how the rule finds its own.
    var thread: String { ScheduleSlot.threadPrefix + id }
}

/// Stored with the configuration's key names.
extension IntakeSchedule: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, intake, frequency, first, enabled, body
        case minML = "min_ml"
    }

    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let intakeName = try values.decode(String.self, forKey: .intake)
        let minML = try values.decodeIfPresent(Int.self, forKey: .minML) ?? IntakeType.defaultMinML
        do {
            try self.init(id: try values.decode(String.self, forKey: .id),
                          name: try values.decodeIfPresent(String.self, forKey: .name),
                          intake: try IntakeType(parsing: intakeName, minML: minML),
                          frequency: try values.decode(IntakeFrequency.self, forKey: .frequency),
                          first: try values.decode(LocalDateTime.self, forKey: .first),
                          enabled: try values.decodeIfPresent(Bool.self, forKey: .enabled) ?? true,
                          body: try values.decodeIfPresent(String.self, forKey: .body))
        } catch let error as InvalidSchedule {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        } catch let error as InvalidIntakeType {
            throw DecodingError.dataCorruptedError(forKey: .intake, in: values, debugDescription: error.description)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(id, forKey: .id)
        try values.encode(name, forKey: .name)
        try values.encode(intake.name, forKey: .intake)
        try values.encode(frequency, forKey: .frequency)
        try values.encode(first, forKey: .first)
        try values.encode(enabled, forKey: .enabled)
        try values.encodeIfPresent(body, forKey: .body)
        if case .water(let minML) = intake { try values.encode(minML, forKey: .minML) }
    }
}

/// Why a schedule cannot be built.
package enum InvalidSchedule: Error, Equatable, CustomStringConvertible {
    case badID(String)
    case badMinML(String)
    case firstDayTooLate(day: Int, frequency: IntakeFrequency)

    package var description: String {
        switch self {
        case .badID(let id):
            return "id \"\(id)\" is not usable; expected 1 to \(IntakeSchedule.maxIDLength) letters, digits or _, e.g. id = \"VITD\""
        case .badMinML(let value):
            return "min_ml \"\(value)\" is not usable; expected a whole number of millilitres from 1"
        case .firstDayTooLate(let day, let frequency):
            return "first falls on day \(day), and day \(day) + \(frequency.offsets.max()!) passes 31; for \(frequency.rawValue) the largest first day is \(frequency.largestFirstDay)"
        }
    }
}
