// The family strip at the top of `/`: a row per person, the one who most needs a drink first, each
// with the day against the goal, the urgency as a colour and a word, the next reminder, and a
// link to the person's panel. And the words of the page, written for a parent: about the person
// (third person), nothing said twice, the bottle's own name kept to the bottle's part of the panel,
// and the Spanish page as complete as the English one.

import BusTestSupport
import Foundation
import History
import TestFixtures
import Testing
@testable import Web

@Suite struct FamilyStripTests {
    /// The strip's rows, in order: (link, name, amount, state class, state, next reminder).
    struct Row: Equatable {
        var link, name, amount, urgency, state, next: String
    }

    static func rows(_ page: String) throws -> [Row] {
        let start = try #require(page.range(of: "<nav class=\"family\""), "no family strip")
        let end = try #require(page[start.upperBound...].range(of: "</nav>"))
        let strip = String(page[start.upperBound..<end.lowerBound])
        func inner(_ text: String, after open: String) -> String? {
            guard let at = text.range(of: open), let close = text[at.upperBound...].range(of: "</span>") else { return nil }
            return String(text[at.upperBound..<close.lowerBound])
        }
        return try strip.components(separatedBy: "<li ").dropFirst().map { item in
            let link = try #require(PageReading.attribute("href", of: item))
            let stateOpen = try #require(item.range(of: "class=\"state "))
            let urgency = String(item[stateOpen.upperBound...].prefix { $0 != "\"" })
            return Row(link: link, name: try #require(inner(item, after: "class=\"who\">")), amount: try #require(inner(item, after: "class=\"amount\">")),
                       urgency: urgency, state: try #require(inner(item, after: "class=\"state \(urgency)\">")),
                       next: try #require(inner(item, after: "class=\"next\">")))
        }
    }

    @Test("four people: a row each, overdue first, the larger deficit first, each linking to its person's panel")
    func theFamilyByNeed() throws {
        let fixture = try WebFixture.family()
        defer { fixture.remove() }
        let model = try DashboardModel.make(fixture.context)
        let page = DashboardPage.render(model)
        let rows = try Self.rows(page)
        #expect(rows.map(\.name) == ["Leo", "Maya", "Dan", "Cai"], "\(rows)")
        #expect(rows.map(\.amount) == ["400 / 2500 ml", "750 / 2000 ml", "700 / 1600 ml", "1300 / 1400 ml"])
        #expect(rows.map(\.urgency) == ["urgency-overdue", "urgency-overdue", "urgency-attention", "urgency-on-track"])
        #expect(rows.map(\.state) == ["overdue", "overdue", "needs a drink", "on track"])
        #expect(rows[0].next == "reminder due now" && rows[3].next.hasPrefix("reminder around ") || rows[3].next == "none due today", "\(rows)")
        // Each row links to the heading of that person's panel.
        for row in rows {
            let id = String(row.link.dropFirst())
            #expect(row.link.hasPrefix("#") && page.contains("<h2 id=\"\(id)\">\(row.name)</h2>"), "\(row)")
        }
        // Before the first panel, after the header.
        let strip = try #require(page.range(of: "<nav class=\"family\""))
        let firstPanel = try #require(page.range(of: "<section class=\"bottle"))
        #expect(strip.lowerBound < firstPanel.lowerBound)
        // The order is the urgency's, then the deficit's, whatever the panels' order (by name).
        let byNeed = model.panels.sorted { ($0.pace.urgency, $0.pace.displayedDeficitML) > ($1.pace.urgency, $1.pace.displayedDeficitML) }
        #expect(byNeed.map(\.person) == rows.map(\.name))
    }

    @Test("a person whose bottle has brought no drink yet comes last, said as such, never as behind")
    func aNewPersonComesLast() throws {
        let fixture = try WebFixture.family()
        defer { fixture.remove() }
        try fixture.history.bottles.save(BottleRecord(id: "AQ-EVA-0005", name: "Aquavate-E5F7", serial: "AQ-EVA-0005", goalML: 1500,
                                                      lastSeen: WebFixture.now, lastSync: WebFixture.now))
        let rows = try Self.rows(DashboardPage.render(try DashboardModel.make(fixture.context)))
        #expect(rows.count == 5)
        #expect(rows.last?.name == "Aquavate-E5F7" && rows.last?.state == "no drinks yet" && rows.last?.urgency == "urgency-none", "\(rows)")
    }

    @Test func onePersonHasNoStrip() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try fixture.history.bottles.forget(id: WebFixture.bea, at: WebFixture.now)
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(!page.contains("class=\"family\""))
    }
}
