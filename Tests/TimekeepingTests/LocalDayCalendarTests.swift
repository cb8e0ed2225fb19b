// The calendar facts of a local day the reminder rules use: the weekday as the seed numbers it,
// the ordinal day, the Monday of its week, the length of its month.

import Testing
import Timekeeping

@Suite struct LocalDayCalendarTests {
    @Test func weekdaysOrdinalDaysAndWeeks() {
        // 1 = Sunday ... 7 = Saturday.
        #expect(LocalDay("1970-01-01")!.weekday == 5)
        #expect(LocalDay("2026-11-22")!.weekday == 1)
        #expect(LocalDay("2026-11-23")!.weekday == 2)
        #expect(LocalDay("1969-12-31")!.weekday == 4)
        #expect(LocalDay("2026-03-10")!.ordinalInYear == 69)
        #expect(LocalDay("2026-03-15")!.mondayOfWeek.description == "2026-03-09")
        #expect(LocalDay("2026-03-09")!.mondayOfWeek.description == "2026-03-09")
        #expect(LocalDay("2024-02-10")!.daysInMonth == 29)
    }
}
