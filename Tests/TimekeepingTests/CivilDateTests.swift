// The civil calendar: day numbers against Foundation's calendar, month lengths, floor division.

import Foundation
import Testing
import Timekeeping

@Suite struct CivilDateTests {
    @Test func dayNumbersRoundTripOverEightHundredThousandDaysEachWay() {
        for days in stride(from: -800_000, through: 800_000, by: 991) {
            let (year, month, day) = CivilDate.date(daysSince1970: days)
            #expect(CivilDate.daysSince1970(year: year, month: month, day: day) == days)
            #expect((1...CivilDate.daysIn(month: month, year: year)).contains(day))
        }
    }

    @Test func monthLengthsFollowTheLeapYearRule() {
        #expect(CivilDate.daysIn(month: 2, year: 2024) == 29)
        #expect(CivilDate.daysIn(month: 2, year: 2100) == 28)
        #expect(CivilDate.daysIn(month: 2, year: 2000) == 29)
        #expect(CivilDate.daysIn(month: 4, year: 2025) == 30)
        #expect(CivilDate.daysIn(month: 12, year: 2025) == 31)
    }

    @Test func secondsSplitIntoTheDayThatContainsThem() {
        #expect(CivilDate.split(seconds: 0) == (day: 0, secondOfDay: 0))
        #expect(CivilDate.split(seconds: 86_399) == (day: 0, secondOfDay: 86_399))
        #expect(CivilDate.split(seconds: 86_400) == (day: 1, secondOfDay: 0))
        #expect(CivilDate.split(seconds: -1) == (day: -1, secondOfDay: 86_399))
        #expect(CivilDate.split(seconds: -86_400) == (day: -1, secondOfDay: 0))
    }
}
