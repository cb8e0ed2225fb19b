// Day totals (docs/reminders.md 0): local calendar days, DST, what counts, what was known when.

import AquavateProtocol
import Foundation
import GRDB
@testable import History
import Testing
import Timekeeping

@Suite struct DayTotalTests {
    let bottle = "F4:12:FA:00:A3:F4"

    /// A history holding one drink per (timestamp, amount), stored at `storedAt`.
    func history(_ drinks: [(UInt32, Int16)], storedAt: Double = 0) throws -> DrinkHistory {
        let history = try memoryHistory()
        let records = drinks.enumerated().map { index, item in drink(UInt32(index + 1), at: item.0, ml: item.1) }
        _ = try history.drinks.store(records, bottle: bottle, at: WallInstant(secondsSince1970: storedAt))
        return history
    }

    // MARK: - Local midnight in several zones

    @Test func utcDaysSplitAtUTCMidnight() throws {
        let history = try history([(utc(2025, 6, 14, 23, 59, 59), 100), (utc(2025, 6, 15), 200),
                                   (utc(2025, 6, 15, 12), 50)])
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")) == [
            DayTotal(date: date("2025-06-14"), totalML: 100, drinks: 1),
            DayTotal(date: date("2025-06-15"), totalML: 250, drinks: 2),
        ])
    }

    @Test(arguments: [
        // zone, last second of a local day (UTC), its date: summer and winter offsets.
        ("Europe/Madrid", utc(2025, 6, 14, 21, 59, 59), "2025-06-14"),
        ("Europe/Madrid", utc(2025, 1, 10, 22, 59, 59), "2025-01-10"),
        ("America/New_York", utc(2025, 7, 4, 3, 59, 59), "2025-07-03"),
        ("America/New_York", utc(2025, 1, 10, 4, 59, 59), "2025-01-09"),
        ("Pacific/Auckland", utc(2025, 7, 9, 11, 59, 59), "2025-07-09"),
        ("Pacific/Auckland", utc(2025, 1, 9, 10, 59, 59), "2025-01-09"),
        ("UTC", utc(2025, 3, 1, 23, 59, 59), "2025-03-01"),
    ])
    func lastSecondOfADayAndFirstSecondOfTheNext(zoneID: String, lastSecond: UInt32, day: String) throws {
        let history = try history([(lastSecond, 110), (lastSecond + 1, 220)])
        #expect(try history.drinks.dayTotals(timeZone: zone(zoneID)) == [
            DayTotal(date: date(day), totalML: 110, drinks: 1),
            DayTotal(date: date(day) + 1, totalML: 220, drinks: 1),
        ])
    }

    @Test func oneInstantFallsOnDifferentLocalDatesInDifferentZones() throws {
        let history = try history([(utc(2025, 6, 15, 2), 300)])
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")).map(\.date) == [date("2025-06-15")])
        #expect(try history.drinks.dayTotals(timeZone: zone("America/New_York")).map(\.date) == [date("2025-06-14")])
        #expect(try history.drinks.dayTotals(timeZone: zone("Pacific/Auckland")).map(\.date) == [date("2025-06-15")])
        let late = try self.history([(utc(2025, 6, 15, 13), 300)])
        #expect(try late.drinks.dayTotals(timeZone: zone("Pacific/Auckland")).map(\.date) == [date("2025-06-16")])
        #expect(try late.drinks.dayTotals(timeZone: zone("Europe/Madrid")).map(\.date) == [date("2025-06-15")])
    }

    // MARK: - DST: 23-hour and 25-hour days

    @Test func madridSpringForwardDayHas23Hours() throws {
        let history = try history([
            (utc(2025, 3, 29, 22, 59, 59), 10),  // 23:59:59 CET, Saturday
            (utc(2025, 3, 29, 23), 20),          // 00:00 CET, Sunday
            (utc(2025, 3, 30, 0, 59, 59), 40),   // 01:59:59 CET, the last second before the gap
            (utc(2025, 3, 30, 1), 80),           // 03:00 CEST
            (utc(2025, 3, 30, 21, 59, 59), 160), // 23:59:59 CEST
            (utc(2025, 3, 30, 22), 320),         // 00:00 CEST, Monday
        ])
        let madrid = zone("Europe/Madrid")
        #expect(try history.drinks.dayTotals(timeZone: madrid) == [
            DayTotal(date: date("2025-03-29"), totalML: 10, drinks: 1),
            DayTotal(date: date("2025-03-30"), totalML: 300, drinks: 4),
            DayTotal(date: date("2025-03-31"), totalML: 320, drinks: 1),
        ])
        let day = date("2025-03-30").interval(in: madrid)
        #expect(day.start.secondsSince1970 == Double(utc(2025, 3, 29, 23)))
        #expect(day.end - day.start == .seconds((23 * 3600)))
        #expect(try history.drinks.dayTotal(containing: WallInstant(secondsSince1970: Double(utc(2025, 3, 30, 12))), timeZone: madrid)
            == DayTotal(date: date("2025-03-30"), totalML: 300, drinks: 4))
    }

    @Test func madridFallBackDayHas25HoursAndCountsTheRepeatedHourOnce() throws {
        let history = try history([
            (utc(2025, 10, 25, 21, 59, 59), 10), // 23:59:59 CEST, Saturday
            (utc(2025, 10, 25, 22), 20),         // 00:00 CEST, Sunday
            (utc(2025, 10, 26, 0, 30), 40),      // 02:30 CEST, first time
            (utc(2025, 10, 26, 1, 30), 80),      // 02:30 CET, second time
            (utc(2025, 10, 26, 22, 59, 59), 160),// 23:59:59 CET
            (utc(2025, 10, 26, 23), 320),        // 00:00 CET, Monday
        ])
        let madrid = zone("Europe/Madrid")
        #expect(try history.drinks.dayTotals(timeZone: madrid) == [
            DayTotal(date: date("2025-10-25"), totalML: 10, drinks: 1),
            DayTotal(date: date("2025-10-26"), totalML: 300, drinks: 4),
            DayTotal(date: date("2025-10-27"), totalML: 320, drinks: 1),
        ])
        let day = date("2025-10-26").interval(in: madrid)
        #expect(day.start.secondsSince1970 == Double(utc(2025, 10, 25, 22)))
        #expect(day.end - day.start == .seconds((25 * 3600)))
        // Any instant of the 25 hours, the repeated hour included, names the same day.
        for instant in [day.start, WallInstant(secondsSince1970: Double(utc(2025, 10, 26, 1, 30))), day.end - .seconds(1)] {
            #expect(try history.drinks.dayTotal(containing: instant, timeZone: madrid).totalML == 300)
        }
    }

    @Test func newYorkDSTDays() throws {
        let newYork = zone("America/New_York")
        let spring = try history([
            (utc(2025, 3, 9, 6, 59, 59), 10),    // 01:59:59 EST
            (utc(2025, 3, 9, 7), 20),            // 03:00 EDT
            (utc(2025, 3, 10, 3, 59, 59), 40),   // 23:59:59 EDT
            (utc(2025, 3, 10, 4), 80),           // 00:00 EDT, next day
        ])
        #expect(try spring.drinks.dayTotals(timeZone: newYork) == [
            DayTotal(date: date("2025-03-09"), totalML: 70, drinks: 3),
            DayTotal(date: date("2025-03-10"), totalML: 80, drinks: 1),
        ])
        let springDay = date("2025-03-09").interval(in: newYork)
        #expect((springDay.start.secondsSince1970, springDay.end.secondsSince1970) == (Double(utc(2025, 3, 9, 5)), Double(utc(2025, 3, 10, 4))))

        let fall = try history([
            (utc(2025, 11, 2, 3, 59, 59), 5),    // 23:59:59 EDT, Saturday
            (utc(2025, 11, 2, 5, 30), 10),       // 01:30 EDT
            (utc(2025, 11, 2, 6, 30), 20),       // 01:30 EST, the repeated hour
            (utc(2025, 11, 3, 4, 59, 59), 40),   // 23:59:59 EST
            (utc(2025, 11, 3, 5), 80),           // 00:00 EST, Monday
        ])
        #expect(try fall.drinks.dayTotals(timeZone: newYork) == [
            DayTotal(date: date("2025-11-01"), totalML: 5, drinks: 1),
            DayTotal(date: date("2025-11-02"), totalML: 70, drinks: 3),
            DayTotal(date: date("2025-11-03"), totalML: 80, drinks: 1),
        ])
        let fallDay = date("2025-11-02").interval(in: newYork)
        #expect(fallDay.end - fallDay.start == .seconds((25 * 3600)))
    }

    @Test func aucklandDSTDays() throws {
        let auckland = zone("Pacific/Auckland")
        let fall = try history([
            (utc(2025, 4, 5, 10, 59, 59), 5),    // 23:59:59 NZDT, Saturday
            (utc(2025, 4, 5, 11), 10),           // 00:00 NZDT, Sunday
            (utc(2025, 4, 5, 13, 30), 20),       // 02:30 NZDT
            (utc(2025, 4, 5, 14, 30), 40),       // 02:30 NZST, the repeated hour
            (utc(2025, 4, 6, 11, 59, 59), 80),   // 23:59:59 NZST
            (utc(2025, 4, 6, 12), 160),          // 00:00 NZST, Monday
        ])
        #expect(try fall.drinks.dayTotals(timeZone: auckland) == [
            DayTotal(date: date("2025-04-05"), totalML: 5, drinks: 1),
            DayTotal(date: date("2025-04-06"), totalML: 150, drinks: 4),
            DayTotal(date: date("2025-04-07"), totalML: 160, drinks: 1),
        ])
        let fallDay = date("2025-04-06").interval(in: auckland)
        #expect((fallDay.start.secondsSince1970, fallDay.end.secondsSince1970) == (Double(utc(2025, 4, 5, 11)), Double(utc(2025, 4, 6, 12))))

        let spring = try history([
            (utc(2025, 9, 27, 11, 59, 59), 5),   // 23:59:59 NZST, Saturday
            (utc(2025, 9, 27, 13, 59, 59), 10),  // 01:59:59 NZST
            (utc(2025, 9, 27, 14), 20),          // 03:00 NZDT
            (utc(2025, 9, 28, 10, 59, 59), 40),  // 23:59:59 NZDT
            (utc(2025, 9, 28, 11), 80),          // 00:00 NZDT, Monday
        ])
        #expect(try spring.drinks.dayTotals(timeZone: auckland) == [
            DayTotal(date: date("2025-09-27"), totalML: 5, drinks: 1),
            DayTotal(date: date("2025-09-28"), totalML: 70, drinks: 3),
            DayTotal(date: date("2025-09-29"), totalML: 80, drinks: 1),
        ])
        let springDay = date("2025-09-28").interval(in: auckland)
        #expect(springDay.end - springDay.start == .seconds((23 * 3600)))
    }

    // MARK: - What counts

    @Test func refillsZeroAmountsAndDeletedDrinksNeverCount() throws {
        let history = try memoryHistory()
        let day = utc(2025, 6, 15, 9)
        let kept = drink(1, at: day, ml: 250)
        let deletedByBottle = drink(2, at: day + 60, ml: 400)
        let deletedLocally = drink(3, at: day + 120, ml: 800)
        _ = try history.drinks.store([kept, drink(4, at: day + 180, ml: -300), drink(5, at: day + 240, ml: 0),
                               deletedByBottle, deletedLocally], bottle: bottle, at: WallInstant(secondsSince1970: 10))
        _ = try history.drinks.store([tombstone(of: deletedByBottle), tombstone(of: drink(6, at: day + 300, ml: 90))],
                              bottle: bottle, at: WallInstant(secondsSince1970: 20))
        _ = try history.drinks.markDeleted(bottle: bottle, recordID: 3, timestamp: day + 120, at: WallInstant(secondsSince1970: 30))

        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")) == [DayTotal(date: date("2025-06-15"), totalML: 250, drinks: 1)])
        #expect(try history.drinks.dayTotal(containing: WallInstant(secondsSince1970: Double(day)), timeZone: zone("UTC"), knownAt: WallInstant(secondsSince1970: 40)).totalML == 250)
    }

    @Test func drinksOfAllBottlesAddUpUnlessOneIsChosen() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([drink(1, at: utc(2025, 6, 15, 9), ml: 100)], bottle: "a", at: WallInstant(secondsSince1970: 1))
        _ = try history.drinks.store([drink(1, at: utc(2025, 6, 15, 10), ml: 30)], bottle: "b", at: WallInstant(secondsSince1970: 1))
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")).map(\.totalML) == [130])
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC"), bottle: "b").map(\.totalML) == [30])
    }

    @Test func knownAtCountsOnlyDrinksStoredByThenAndNotYetDeleted() throws {
        let history = try memoryHistory()
        let morning = drink(1, at: utc(2025, 6, 15, 8), ml: 100)
        let noon = drink(2, at: utc(2025, 6, 15, 12), ml: 200)
        _ = try history.drinks.store([morning], bottle: bottle, at: WallInstant(secondsSince1970: 1000))
        _ = try history.drinks.store([noon], bottle: bottle, at: WallInstant(secondsSince1970: 2000))
        _ = try history.drinks.markDeleted(bottle: bottle, recordID: 1, timestamp: morning.timestamp, at: WallInstant(secondsSince1970: 3000))
        let utcZone = zone("UTC")
        let instant = Double(noon.timestamp)

        func total(knownAt: Double?) throws -> Int {
            try history.drinks.dayTotal(containing: WallInstant(secondsSince1970: instant), timeZone: utcZone, knownAt: knownAt.map(WallInstant.init(secondsSince1970:))).totalML
        }
        #expect(try total(knownAt: 999) == 0)
        #expect(try total(knownAt: 1000) == 100)      // stored at or before t
        #expect(try total(knownAt: 1999.5) == 100)
        #expect(try total(knownAt: 2000) == 300)
        #expect(try total(knownAt: 2999.9) == 300)
        #expect(try total(knownAt: 3000) == 200)      // deleted at or before t
        #expect(try total(knownAt: nil) == 200)
        #expect(try history.drinks.dayTotals(timeZone: utcZone, knownAt: WallInstant(secondsSince1970: 999)).isEmpty)
        #expect(try history.drinks.dayTotals(timeZone: utcZone, knownAt: WallInstant(secondsSince1970: 2500)) == [
            DayTotal(date: date("2025-06-15"), totalML: 300, drinks: 2),
        ])
    }

    @Test func aTombstoneStoredBeforeItsDrinkNeverCountsAtAnyTime() throws {
        let history = try memoryHistory()
        let record = drink(1, at: utc(2025, 6, 15, 8), ml: 100)
        _ = try history.drinks.store([tombstone(of: record)], bottle: bottle, at: WallInstant(secondsSince1970: 1000))
        _ = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 2000))
        for knownAt in [999.0, 1000, 1500, 2000, 5000] {
            #expect(try history.drinks.dayTotal(containing: WallInstant(secondsSince1970: Double(record.timestamp)), timeZone: zone("UTC"),
                                         knownAt: WallInstant(secondsSince1970: knownAt)).totalML == 0)
        }
    }

    // MARK: - Ranges

    @Test func rangesSelectWholeLocalDays() throws {
        let madrid = zone("Europe/Madrid")
        let history = try history([
            (utc(2025, 6, 13, 22, 30), 1),  // 06-14 00:30 local
            (utc(2025, 6, 14, 10), 2),      // 06-14 12:00
            (utc(2025, 6, 14, 21, 30), 4),  // 06-14 23:30
            (utc(2025, 6, 14, 22), 8),      // 06-15 00:00
            (utc(2025, 6, 16, 9), 16),      // 06-16 11:00
        ])
        // Part of a day selects the whole day.
        let noon = Double(utc(2025, 6, 14, 10))
        #expect(try history.drinks.dayTotals(timeZone: madrid, from: WallInstant(secondsSince1970: noon), to: WallInstant(secondsSince1970: noon + 60)) == [
            DayTotal(date: date("2025-06-14"), totalML: 7, drinks: 3),
        ])
        // `to` is excluded: ending exactly at a local midnight leaves that day out.
        let midnight15 = Double(utc(2025, 6, 14, 22))
        #expect(try history.drinks.dayTotals(timeZone: madrid, from: WallInstant(secondsSince1970: noon), to: WallInstant(secondsSince1970: midnight15)).map(\.date) == [date("2025-06-14")])
        #expect(try history.drinks.dayTotals(timeZone: madrid, from: WallInstant(secondsSince1970: midnight15)).map(\.date) == [date("2025-06-15"), date("2025-06-16")])
        #expect(try history.drinks.dayTotals(timeZone: madrid, to: WallInstant(secondsSince1970: midnight15 + 1)).map(\.totalML) == [7, 8])
        #expect(try history.drinks.dayTotals(timeZone: madrid, from: WallInstant(secondsSince1970: midnight15), to: WallInstant(secondsSince1970: noon)).isEmpty)
        #expect(try history.drinks.dayTotals(timeZone: madrid, days: date("2025-06-15")...date("2025-06-20")).map(\.totalML) == [8, 16])
        #expect(try history.drinks.dayTotals(timeZone: madrid, days: date("2025-06-12")...date("2025-06-14")).map(\.totalML) == [7])
        // A day without drinks: zero, with its date.
        #expect(try history.drinks.dayTotal(containing: WallInstant(secondsSince1970: Double(utc(2025, 6, 20, 12))), timeZone: madrid)
            == DayTotal(date: date("2025-06-20"), totalML: 0, drinks: 0))
    }

    @Test func nonFiniteInstantsAreRefused() throws {
        let history = try memoryHistory()
        #expect(throws: HistoryError.self) { try history.drinks.dayTotals(timeZone: zone("UTC"), from: WallInstant(secondsSince1970: .nan)) }
        #expect(throws: HistoryError.self) { try history.drinks.dayTotals(timeZone: zone("UTC"), knownAt: WallInstant(secondsSince1970: .infinity)) }
        #expect(throws: HistoryError.self) { try history.drinks.dayTotal(containing: WallInstant(secondsSince1970: .nan), timeZone: zone("UTC")) }
    }

    // MARK: - The query's plan

    @Test("one bottle's day totals over some days read the timestamp index, not every drink of the bottle; with no days, the bottle's")
    func oneBottlesDaysUseTheTimestampIndex() throws {
        let history = try memoryHistory()
        func plan(first: Int?, last: Int?) throws -> String {
            let (sql, arguments) = try DrinkStore.totalsQuery(first: first, last: last, knownAt: WallInstant(secondsSince1970: 1_800_000_000),
                                                                bottle: bottle)
            return try history.read("planning") { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }.joined(separator: "; ")
            }
        }
        // The key index (bottle, record_id, timestamp) is the bottle's every drink.
        for (first, last) in [(20_500, 20_500), (20_000, 20_500)] as [(Int?, Int?)] {
            let detail = try plan(first: first, last: last)
            #expect(detail.contains("drink_on_timestamp"), "\(detail)")
        }
        #expect(!(try plan(first: 20_500, last: nil)).contains("sqlite_autoindex_drink_1"))
        let whole = try plan(first: nil, last: nil)
        #expect(whole.contains("sqlite_autoindex_drink_1"), "\(whole)")
        // And the totals are the bottle's only.
        _ = try history.drinks.store([drink(1, at: 1_771_200_000, ml: 200)], bottle: bottle, at: WallInstant(secondsSince1970: 0))
        _ = try history.drinks.store([drink(1, at: 1_771_200_100, ml: 300)], bottle: "OTHER-1", at: WallInstant(secondsSince1970: 0))
        let total = try history.drinks.dayTotal(containing: WallInstant(secondsSince1970: 1_771_200_000), timeZone: TimeZone(identifier: "UTC")!, bottle: bottle)
        #expect(total.totalML == 200)
    }
}
