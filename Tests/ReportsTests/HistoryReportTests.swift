// `history --days N`: the last N local days, today included, on an injected "now".

import Foundation
import History
@testable import Reports
@testable import Settings
import TestFixtures
import Testing

@Suite("History report")
struct HistoryReportTests {
    @Test("--days N keeps the drinks of the last N local days, today included")
    func lastDays() throws {
        let history = try DrinkHistory(path: nil)
        _ = try runReplay([shippedCapture("backlog-600.aqcap")], history: history)
        var configuration = Configuration()
        try configuration.applyOverride("timezone=Europe/Madrid")
        // "Now" is 2026-11-20T12:00:00Z; the backlog holds 30 drinks a day from 1 to 20 November.
        let now = 1_795_176_000.0
        let three = try HistoryReport.make(history: history, configuration: configuration, days: 3, now: .init(secondsSince1970: now))
        #expect(three.days.map(\.date) == ["2026-11-18", "2026-11-19", "2026-11-20"])
        #expect(three.drinks.count == 90)
        let all = try HistoryReport.make(history: history, configuration: configuration, days: nil, now: .init(secondsSince1970: now))
        #expect(all.days.count == 20)
        #expect(all.drinks.count == 600)
        let csv = three.lines(format: .csv)
        #expect(csv.count == 1 + 90 + 3)
        #expect(csv.last == "day,,2026-11-20,,,,,,\(three.days.last!.totalML),30,2500,")
    }
}
