// The local time values of sections 3–6: `HH:MM`, `YYYY-MM-DDTHH:MM`, and local times resolved to
// instants by the calendar across DST changes (docs/reminders.md 3: a skipped time fires at the
// first instant after the gap, a repeated one once, the first time). The local day's own
// arithmetic is tested beside it.

import Foundation
import Testing
@testable import Timekeeping

private let utcZone = TimeZone(identifier: "UTC")!

struct LocalTimeTests {
    @Test func timesOfDay() throws {
        #expect(try TimeOfDay(parsing: "8:05").minuteOfDay == 485)
        #expect(try TimeOfDay(parsing: "08:05:00").description == "08:05")
        #expect(try TimeOfDay(parsing: "23:59").minuteOfDay == 1439)
        for bad in ["24:00", "8:5", "08:60", "ab:cd", "08:00:30", "", "0800", "-1:00", "٠٨:٠٠"] {
            #expect(throws: InvalidTimeOfDay(text: bad)) { try TimeOfDay(parsing: bad) }
        }
        #expect(InvalidTimeOfDay(text: "24:00").description == "\"24:00\" is not a time of day; expected HH:MM from 00:00 to 23:59")
        #expect(TimeOfDay(minuteOfDay: 1440) == nil)
    }

    @Test func localDateTimes() throws {
        let value = try LocalDateTime(parsing: "2026-11-22T09:00")
        #expect(value.day == LocalDay("2026-11-22") && value.time.minuteOfDay == 540)
        #expect(try LocalDateTime(parsing: "2026-11-22 09:00:00") == value)
        #expect(try LocalDateTime(parsing: "2024-02-29T00:00").day.description == "2024-02-29")
        #expect(throws: InvalidLocalDateTime.self) { try LocalDateTime(parsing: "2026-11-22") }
        #expect(throws: InvalidLocalDateTime.self) { try LocalDateTime(parsing: "26-11-22T09:00") }
        #expect(throws: InvalidLocalDateTime.self) { try LocalDateTime(parsing: "2026-11-22T09:00Z") }
    }

    @Test func localTimesResolvedAcrossDSTChanges() throws {
        let calendar = LocalCalendar(timeZone: madrid)
        let spring = LocalDay("2026-03-29")!
        let autumn = LocalDay("2026-10-25")!
        // Skipped: 02:30 → 03:00 CEST = 01:00 UTC.
        #expect(calendar.instant(of: spring, at: TimeOfDay(hour: 2, minute: 30)!) == instant("2026-03-29", "01:00", in: utcZone))
        #expect(calendar.instant(of: spring, at: TimeOfDay(hour: 3, minute: 0)!) == instant("2026-03-29", "01:00", in: utcZone))
        // Repeated: the first 02:30 (CEST, 00:30 UTC).
        #expect(calendar.instant(of: autumn, at: TimeOfDay(hour: 2, minute: 30)!) == instant("2026-10-25", "00:30", in: utcZone))
        #expect(calendar.startOfDay(autumn + 1) - calendar.startOfDay(autumn) == .seconds(25 * 3600))
        // Where midnight itself is skipped, the day starts at 01:00.
        let saoPaulo = try #require(TimeZone(identifier: "America/Sao_Paulo"))
        let brazil = LocalCalendar(timeZone: saoPaulo)
        #expect(brazil.startOfDay(LocalDay("2018-11-04")!) == instant("2018-11-04", "03:00", in: utcZone))
        #expect(brazil.instant(of: LocalDay("2018-11-04")!, at: TimeOfDay(hour: 0, minute: 30)!) == instant("2018-11-04", "03:00", in: utcZone))
        // Lord Howe Island's half-hour gap (02:00 → 02:30 on 1 October 2017): the same day, at 02:30.
        let lordHowe = try #require(TimeZone(identifier: "Australia/Lord_Howe"))
        let island = LocalCalendar(timeZone: lordHowe)
        #expect(island.instant(of: LocalDay("2017-10-01")!, at: TimeOfDay(hour: 2, minute: 15)!) == instant("2017-09-30", "15:30", in: utcZone))
        #expect(island.instant(of: LocalDay("2017-10-01")!, at: TimeOfDay(hour: 2, minute: 30)!) == instant("2017-09-30", "15:30", in: utcZone))
        // Every quarter hour of both Madrid change days reads back as itself, or lies in the gap.
        for day in [spring, autumn] {
            for minute in stride(from: 0, to: 1440, by: 15) {
                let resolved = calendar.instant(of: day, at: TimeOfDay(minuteOfDay: minute)!)
                let shown = LocalClock(timeZone: madrid).wallClockUncached(at: resolved)
                let inGap = day == spring && (120..<180).contains(minute)
                #expect(shown == WallClockTime(day: day, minuteOfDay: inGap ? 180 : minute))
            }
        }
    }
}
