// docs/reminders.md 0: local dates and wall-clock hh:mm, with the UTC offset cached between the time
// zone's transitions. Checked against Foundation's Calendar, across DST changes.

import Foundation
import Testing
@testable import Timekeeping

struct LocalDayTests {
    @Test func civilDatesRoundTrip() {
        #expect(LocalDay(year: 1970, month: 1, day: 1)?.daysSince1970 == 0)
        #expect(LocalDay(year: 2026, month: 3, day: 29)?.description == "2026-03-29")
        #expect(LocalDay(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDay(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDay(year: 2026, month: 13, day: 1) == nil)
        #expect(LocalDay("1969-12-31")?.daysSince1970 == -1)
        #expect(LocalDay("2026-3-29") == nil)
        #expect(LocalDay("not a date") == nil)
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let day = LocalDay(daysSince1970: days)
            #expect(LocalDay(year: day.year, month: day.month, day: day.day) == day)
        }
        #expect((LocalDay("2026-02-28")! + 1).description == "2026-03-01")
        #expect((LocalDay("2024-03-01")! - 1).description == "2024-02-29")
    }

    @Test func storedAsText() throws {
        let data = try JSONEncoder().encode([LocalDay("2026-10-25")!])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2026-10-25\"]")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocalDay].self, from: Data("[\"2026-02-30\"]".utf8)) }
    }
}

struct LocalClockTests {
    func calendarReading(_ instant: Double, _ zone: TimeZone) -> WallClockTime {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: instant))
        return WallClockTime(day: LocalDay(year: c.year!, month: c.month!, day: c.day!)!, minuteOfDay: c.hour! * 60 + c.minute!)
    }

    /// Every 20 minutes of 2026, and every minute of the hours around each transition, in zones
    /// with ordinary, half-hour, southern-hemisphere and no DST.
    @Test(arguments: ["Europe/Madrid", "Australia/Lord_Howe", "America/Santiago", "America/St_Johns", "Asia/Kolkata", "UTC"])
    func agreesWithCalendar(identifier: String) throws {
        let zone = try #require(TimeZone(identifier: identifier))
        var clock = LocalClock(timeZone: zone)
        let start = 1_767_225_600.0 // 2026-01-01T00:00:00Z
        var t = start
        while t < start + 365 * 86_400 {
            #expect(clock.wallClock(at: WallInstant(secondsSince1970: t)) == calendarReading(t, zone), "\(identifier) at \(t)")
            t += 1200
        }
        var transition = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: start))
        while let date = transition, date.timeIntervalSince1970 < start + 365 * 86_400 {
            for minute in -90...90 {
                let t = date.timeIntervalSince1970 + Double(minute * 60)
                #expect(clock.wallClock(at: WallInstant(secondsSince1970: t)) == calendarReading(t, zone), "\(identifier) at \(t)")
            }
            transition = zone.nextDaylightSavingTimeTransition(after: date)
        }
    }

    @Test func madridAroundTheSpringChange() {
        var clock = LocalClock(timeZone: madrid)
        // 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
        let before = instant("2026-03-29", "01:59", in: madrid)
        #expect(clock.wallClock(at: before).minuteOfDay == 119)
        #expect(clock.wallClock(at: before + .seconds(60)).minuteOfDay == 180)
        #expect(clock.wallClock(at: before + .seconds(60)).day.description == "2026-03-29")
        // Seconds are ignored.
        #expect(clock.wallClock(at: before + .seconds(59.9)).minuteOfDay == 119)
    }

    @Test func timeGoingBackwardsIsReadAfresh() {
        var clock = LocalClock(timeZone: madrid)
        let summer = instant("2026-07-01", "12:00", in: madrid)
        let winter = instant("2026-01-15", "12:00", in: madrid)
        #expect(clock.wallClock(at: summer).minuteOfDay == 720)
        #expect(clock.wallClock(at: winter).minuteOfDay == 720)
        #expect(clock.wallClock(at: summer).minuteOfDay == 720)
    }

    @Test func nonsenseInstantsDoNotTrap() {
        var clock = LocalClock(timeZone: madrid)
        _ = clock.wallClock(at: WallInstant(secondsSince1970: .nan))
        _ = clock.wallClock(at: WallInstant(secondsSince1970: .infinity))
        _ = clock.wallClock(at: WallInstant(secondsSince1970: -1e300))
        #expect(clock.wallClock(at: WallInstant(secondsSince1970: -1)).day.description == "1970-01-01")   // 00:59:59 CET
    }
}
