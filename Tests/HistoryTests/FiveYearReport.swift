// Five years of drinks: day totals are checked for correctness, and their time is printed (the
// budget, < 20 ms, is the benchmark's to judge, not this test's).

import AquavateProtocol
import Foundation
@testable import History
import Testing
import Timekeeping

@Suite struct FiveYearReport {
    static let madrid = zone("Europe/Madrid")
    static let firstDay = date("2021-01-01")
    static let dayCount = 1826
    /// Local times of the day's drinks, seconds after local midnight.
    /// The last one is 23:59:59 on a 24-hour day, and stays within the day on 23- and 25-hour days.
    static let drinkTimes = [8 * 3600, 11 * 3600, 14 * 3600 + 30 * 60, 18 * 3600, 22 * 3600 + 59 * 60 + 59]

    /// One drink at each of `drinkTimes` (seconds after the day's start) every day, in chunks of 17, and the expected totals.
    static func fill(_ history: DrinkHistory) throws -> [DayTotal] {
        var records: [DrinkRecord] = []
        var expected: [DayTotal] = []
        for offset in 0..<dayCount {
            let day = firstDay + offset
            let start = day.interval(in: madrid).start
            var total = 0
            for (index, time) in drinkTimes.enumerated() {
                let amount = Int16(30 + (offset * 7 + index * 13) % 220)
                records.append(drink(UInt32(records.count + 1), at: UInt32(start.secondsSince1970) + UInt32(time), ml: amount))
                total += Int(amount)
            }
            expected.append(DayTotal(date: day, totalML: total, drinks: drinkTimes.count))
        }
        var storedAt = 1_600_000_000.0
        for chunk in stride(from: 0, to: records.count, by: 17) {
            _ = try history.drinks.store(Array(records[chunk..<min(chunk + 17, records.count)]), bottle: "b", at: WallInstant(secondsSince1970: storedAt))
            storedAt += 1
        }
        return expected
    }

    /// Best and median of `runs` timings of `body`, in milliseconds.
    static func measure(_ runs: Int = 15, _ body: () throws -> Void) rethrows -> (best: Double, median: Double) {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<runs {
            let elapsed = try clock.measure(body)
            times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
        }
        times.sort()
        return (times[0], times[runs / 2])
    }

    static func format(_ value: (best: Double, median: Double)) -> String {
        "best \(String(format: "%.2f", value.best)) ms, median \(String(format: "%.2f", value.median)) ms"
    }

    /// The first day where `totals` and `expected` differ, nil when they are equal.
    static func firstDifference(_ totals: [DayTotal], _ expected: [DayTotal]) -> String? {
        if let (got, wanted) = zip(totals, expected).first(where: { $0 != $1 }) {
            return "\(got) != \(wanted)"
        }
        return totals.count == expected.count ? nil : "\(totals.count) days, expected \(expected.count)"
    }

    @Test func dayTotalsOverFiveYears() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("five-years.sqlite").path, durability: .normal)
        let fillTime = try Self.measure(1) { _ = try Self.fill(history) }
        var expected: [DayTotal] = []
        let refillTime = try Self.measure(1) { expected = try Self.fill(history) }  // all duplicates now
        #expect(try history.drinks.drinkCount() == Self.dayCount * Self.drinkTimes.count)

        var totals: [DayTotal] = []
        let all = try Self.measure { totals = try history.drinks.dayTotals(timeZone: Self.madrid) }
        #expect(Self.firstDifference(totals, expected) == nil)

        let knownAt = try Self.measure { totals = try history.drinks.dayTotals(timeZone: Self.madrid, knownAt: WallInstant(secondsSince1970: 2_000_000_000)) }
        #expect(Self.firstDifference(totals, expected) == nil)

        let lastWeek = Self.firstDay + (Self.dayCount - 7)...Self.firstDay + (Self.dayCount - 1)
        let week = try Self.measure { totals = try history.drinks.dayTotals(timeZone: Self.madrid, days: lastWeek) }
        #expect(totals == Array(expected.suffix(7)))

        var today = DayTotal(date: Self.firstDay, totalML: 0, drinks: 0)
        let instant = (Self.firstDay + 1000).interval(in: Self.madrid).start + .seconds(43_200)
        let one = try Self.measure { today = try history.drinks.dayTotal(containing: instant, timeZone: Self.madrid, knownAt: WallInstant(secondsSince1970: 2e9)) }
        #expect(today == expected[1000])

        print("""
            [history five-year report] \(Self.dayCount * Self.drinkTimes.count) drinks over \(Self.dayCount) days, Europe/Madrid, file database (WAL)
              store all in chunks of 17 (durability normal): \(String(format: "%.0f", fillTime.best)) ms, again (all duplicates): \(String(format: "%.0f", refillTime.best)) ms
              dayTotals, all 5 years:            \(Self.format(all))
              dayTotals, all 5 years, knownAt:   \(Self.format(knownAt))
              dayTotals, last 7 days:            \(Self.format(week))
              dayTotal(containing:), knownAt:    \(Self.format(one))
            """)
    }

    @Test func storingAChunkWithFullDurability() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("full.sqlite").path, durability: .full)
        var next: UInt32 = 1
        var newCount = 0
        let timing = try Self.measure(30) {
            let chunk = (0..<17).map { index in drink(next + UInt32(index), at: 1_700_000_000 + next + UInt32(index)) }
            next += 17
            newCount += try history.drinks.store(chunk, bottle: "b", at: WallInstant(secondsSince1970: Double(next))).filter(\.isNew).count
        }
        #expect(newCount == 30 * 17)
        #expect(try history.drinks.drinkCount() == 30 * 17)
        print("[history five-year report] store one chunk of 17, durability full (commit + fsync): \(Self.format(timing))")
    }
}
