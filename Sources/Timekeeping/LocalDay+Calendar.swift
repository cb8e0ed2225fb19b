// The calendar facts about a date that the rules of sections 3–6 need and that are pure date
// arithmetic (no zone is involved): the weekday, numbered as the seed's identifiers number it,
// the ordinal day that rotates the rituals, the Monday that starts a week, the month's length.

extension LocalDay {
    /// 1 = Sunday ... 7 = Saturday (Foundation's and the seed's numbering). 1970-01-01 was a
    /// Thursday (5).
    package var weekday: Int {
        let offset = (daysSince1970 + 4) % 7
        return (offset < 0 ? offset + 7 : offset) + 1
    }

    /// The ordinal day in its year: 1 January = 1.
    package var ordinalInYear: Int {
        daysSince1970 - LocalDay(year: year, month: 1, day: 1)!.daysSince1970 + 1
    }

    /// The Monday of the week (Monday 00:00 to Sunday 24:00, docs/reminders.md 5) containing this date.
    package var mondayOfWeek: LocalDay { self - (weekday + 5) % 7 }

    /// How many days this date's month has.
    package var daysInMonth: Int { CivilDate.daysIn(month: month, year: year) }
}
