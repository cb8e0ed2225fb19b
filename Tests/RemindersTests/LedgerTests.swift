// docs/reminders.md 0: day totals over the local calendar day, counting only drinks known at t.

import Foundation
import Testing
@testable import Reminders
import Timekeeping

struct LedgerTests {
    @Test func dayTotalsFollowTheLocalCalendarDay() {
        var ledger = InMemoryDrinkLedger()
        // 00:30 in Madrid on 10 July is 22:30 UTC on 9 July: it belongs to 10 July here.
        ledger.record(timestamp: instant("2026-07-10", "00:30", in: madrid), amountML: 200, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: instant("2026-07-09", "23:59:59", in: madrid), amountML: 300, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: instant("2026-07-10", "23:59:59", in: madrid), amountML: 400, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: instant("2026-07-11", "00:00", in: madrid), amountML: 500, storedAt: WallInstant(secondsSince1970: 0))
        #expect(ledger.dayTotal(at: instant("2026-07-10", "12:00", in: madrid), timeZone: madrid) == 600)
        #expect(ledger.dayTotal(at: instant("2026-07-09", "12:00", in: madrid), timeZone: madrid) == 300)
        #expect(ledger.dayTotal(at: instant("2026-07-11", "00:00", in: madrid), timeZone: madrid) == 500)
        // In UTC the same drinks fall on other days.
        #expect(ledger.dayTotal(at: instant("2026-07-09", "12:00", in: utc), timeZone: utc) == 500)
    }

    @Test func onlyDrinksKnownAtTheInstantCount() {
        var ledger = InMemoryDrinkLedger()
        let noon = instant("2026-03-10", "12:00", in: utc)
        ledger.record(timestamp: noon - .seconds(3600), amountML: 250, storedAt: noon)
        ledger.record(timestamp: noon - .seconds(1800), amountML: 100, storedAt: noon + .seconds(600))
        #expect(ledger.dayTotal(at: noon - .seconds(1), timeZone: utc) == 0)
        #expect(ledger.dayTotal(at: noon, timeZone: utc) == 250)
        #expect(ledger.dayTotal(at: noon + .seconds(600), timeZone: utc) == 350)
        #expect(ledger.revision(at: noon - .seconds(1)) == 0)
        #expect(ledger.revision(at: noon) == 1)
        #expect(ledger.revision(at: noon + .seconds(599)) == 1)
        #expect(ledger.revision(at: noon + .seconds(600)) == 2)
    }

    @Test func recordsThatAreNotDrinksAreIgnored() {
        var ledger = InMemoryDrinkLedger()
        ledger.record(timestamp: WallInstant(secondsSince1970: 1000), amountML: 0, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: WallInstant(secondsSince1970: 1000), amountML: -20, storedAt: WallInstant(secondsSince1970: 0))
        #expect(ledger.drinks.isEmpty)
        #expect(ledger.dayTotal(at: WallInstant(secondsSince1970: 1000), timeZone: utc) == 0)
    }

    @Test func theShortDayOfSpringKeepsItsDrinks() {
        var ledger = InMemoryDrinkLedger()
        // 2026-03-29 in Madrid has 23 hours; 01:30 and 03:30 are an hour apart.
        ledger.record(timestamp: instant("2026-03-29", "01:30", in: madrid), amountML: 100, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: instant("2026-03-29", "03:30", in: madrid), amountML: 200, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: instant("2026-03-29", "23:30", in: madrid), amountML: 400, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: instant("2026-03-30", "00:10", in: madrid), amountML: 800, storedAt: WallInstant(secondsSince1970: 0))
        #expect(ledger.dayTotal(at: instant("2026-03-29", "12:00", in: madrid), timeZone: madrid) == 700)
        // The long day of autumn: 25 hours, both 02:30s on it.
        let firstHalfPast2 = instant("2026-10-25", "00:30", in: utc)   // 02:30 CEST
        ledger.record(timestamp: firstHalfPast2, amountML: 10, storedAt: WallInstant(secondsSince1970: 0))
        ledger.record(timestamp: firstHalfPast2 + .seconds(3600), amountML: 20, storedAt: WallInstant(secondsSince1970: 0))   // 02:30 CET
        ledger.record(timestamp: instant("2026-10-25", "23:59", in: madrid), amountML: 40, storedAt: WallInstant(secondsSince1970: 0))
        #expect(ledger.dayTotal(at: instant("2026-10-25", "12:00", in: madrid), timeZone: madrid) == 70)
    }
}
