// The local day as text and as a day number, the local day of an instant and the instants of a
// day, checked against Foundation's Calendar around DST changes in several zones.

import Foundation
import Testing
import Timekeeping

@Suite struct LocalDayTimeZoneTests {
    @Test func parsesAndPrintsYYYYMMDD() throws {
        let day = try #require(LocalDay("2026-02-28"))
        #expect(day.year == 2026 && day.month == 2 && day.day == 28)
        #expect(day.description == "2026-02-28")
        #expect(LocalDay(year: 987, month: 3, day: 4)?.description == "0987-03-04")
        #expect(LocalDay("2024-02-29") != nil)
    }

    @Test(arguments: ["2026-02-29", "2025-13-01", "2025-00-10", "2025-04-31", "2025-4-01", "20250401",
                      "2025-04-01T00:00", "", "abcd-ef-gh", "2025-04-+1", "２０２５-04-01"])
    func refusesWhatIsNotADate(_ text: String) {
        #expect(LocalDay(text) == nil)
    }

    @Test func ordersAndAddsDaysAcrossMonthsYearsAndLeapDays() {
        #expect(date("2025-12-31") < date("2026-01-01"))
        #expect(date("2025-02-01") > date("2025-01-31"))
        #expect(date("2025-12-31") + 1 == date("2026-01-01"))
        #expect(date("2024-02-28") + 1 == date("2024-02-29"))
        #expect(date("2100-02-28") + 1 == date("2100-03-01"))
        #expect(date("2000-02-28") + 1 == date("2000-02-29"))
        #expect(date("2025-03-01") - 1 == date("2025-02-28"))
        #expect(date("1970-01-01").daysSince1970 == 0)
        #expect(date("1969-12-31").daysSince1970 == -1)
    }

    @Test func dayNumbersMatchTheCalendarEveryDayFrom1970To2110() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone("UTC")
        for day in stride(from: 0, to: 51_500, by: 1) {
            let components = calendar.dateComponents([.year, .month, .day],
                                                     from: Date(timeIntervalSince1970: Double(day) * 86_400))
            let local = LocalDay(daysSince1970: day)
            guard local.year == components.year, local.month == components.month, local.day == components.day,
                  local.daysSince1970 == day else {
                Issue.record("day \(day): \(local) vs \(components)")
                return
            }
        }
    }

    @Test func codableAsAString() throws {
        let encoded = try JSONEncoder().encode([date("2025-06-15")])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["2025-06-15"]"#)
        #expect(try JSONDecoder().decode([LocalDay].self, from: encoded) == [date("2025-06-15")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([LocalDay].self, from: Data(#"["2025-6-15"]"#.utf8)) }
    }

    /// Zones with DST on both hemispheres, at midnight (Havana, Santiago), of 30 minutes
    /// (Lord Howe), with quarter-hour offsets (Chatham, Kathmandu), and without DST.
    static let zones = ["UTC", "Europe/Madrid", "America/New_York", "Pacific/Auckland", "America/Havana",
                        "America/Santiago", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kathmandu",
                        "Asia/Kolkata", "America/St_Johns", "Asia/Tehran", "Pacific/Kiritimati"]

    @Test(arguments: zones)
    func localDayMatchesTheCalendarAroundEveryOffsetChange(_ zoneID: String) {
        let timeZone = zone(zoneID)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var instants: [Double] = []
        // Around every transition 2019–2027…
        var cursor = Date(timeIntervalSince1970: Double(utc(2019, 1, 1)))
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < Double(utc(2027, 1, 1)) {
            let t = next.timeIntervalSince1970
            instants += [-3601, -3600, -1, 0, 1, 3599, 3600, 86_399].map { t + $0 }
            cursor = next
        }
        // …and a stride that walks through every hour of the day over the years.
        instants += stride(from: Double(utc(2019, 1, 1)), to: Double(utc(2027, 1, 1)), by: 3 * 3600 + 7 * 60 + 11)
        for instant in instants {
            let components = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: instant))
            let local = LocalDay(containing: WallInstant(secondsSince1970: instant), timeZone: timeZone)
            guard local.year == components.year, local.month == components.month, local.day == components.day else {
                Issue.record("\(zoneID) at \(instant): \(local) vs calendar \(components)")
                return
            }
        }
    }

    @Test(arguments: zones)
    func calendarDayIntervalsAgreeWithTheLocalDay(_ zoneID: String) {
        let timeZone = zone(zoneID)
        var day = date("2024-01-01")
        while day <= date("2026-12-31") {
            let (start, end) = day.interval(in: timeZone)
            let next = day + 1
            guard LocalDay(containing: start, timeZone: timeZone) == day,
                  LocalDay(containing: end - .seconds(1), timeZone: timeZone) == day,
                  LocalDay(containing: end, timeZone: timeZone) == next,
                  (Duration.seconds(22 * 3600)...Duration.seconds(26 * 3600)).contains(end - start) else {
                Issue.record("\(zoneID) \(day): [\(start), \(end))")
                return
            }
            day = next
        }
    }

    @Test func dstDaysLastTwentyThreeAndTwentyFiveHours() {
        let madrid = zone("Europe/Madrid")
        func hours(_ text: String) -> Double {
            let (start, end) = date(text).interval(in: madrid)
            return (end - start).inSeconds / 3600
        }
        #expect(hours("2025-03-30") == 23)
        #expect(hours("2025-10-26") == 25)
        #expect(hours("2025-06-15") == 24)
    }
}
