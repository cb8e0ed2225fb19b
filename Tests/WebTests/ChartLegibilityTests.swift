// The charts as a phone reads them: drawn 268 units wide (12-unit text is 12 px on a 320 px
// screen), months in three letters on two rows, the week's values above their bars and off the goal
// line, drawn after every bar (so no bar covers one), no bar a focus stop too small to tap, and the
// days before the first drink drawn as no data rather than as 0 ml.

import Foundation
import History
import Timekeeping
import TestFixtures
import Testing
@testable import Web

@Suite struct ChartLegibilityTests {
    @Test("the charts are drawn for a 320 px screen and no bar is a focus stop")
    func drawnForTheNarrowestPhone() throws {
        let fixture = try WebFixture(days: 365)
        defer { fixture.remove() }
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(page.contains("viewBox=\"0 0 268 "))
        #expect(!page.contains("viewBox=\"0 0 340 "))
        #expect(!page.contains("tabindex"), "nothing focusable but the controls")
        // The year: twelve months, three letters each, alternating between two rows.
        let panel = try #require(PageReading.panel(of: WebFixture.ana, in: page))
        let year = try #require(panel.range(of: "data-days=\"365\""))
        let svg = String(panel[year.upperBound...].prefix { $0 != "\n" })
        let labels = svg.components(separatedBy: "<text x=").dropFirst().compactMap { part -> (y: String, text: String)? in
            guard let y = PageReading.attribute("y", of: " " + part), let open = part.range(of: ">"), let close = part.range(of: "</text>") else { return nil }
            return (y, String(part[open.upperBound..<close.lowerBound]))
        }.filter { Int($0.text) == nil }
        #expect(labels.map(\.text) == ["Dec", "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov"], "\(labels)")
        #expect(Set(labels.map(\.y)).count == 2, "two rows: \(labels)")
        #expect(svg.contains("this month, so far"))
        #expect(!svg.contains("today, so far"))
    }

    @Test("the week's values are above their bars, after every bar, and off the goal line")
    func valuesAboveTheBars() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        // Bea drinks 1500 a day against 2500; one day of 2450, just under her goal's line.
        let yesterday = WebFixture.now - .seconds(16 * 3600 + 86_400)
        _ = try fixture.history.drinks.store([WebFixture.record(800, at: yesterday + .seconds(20 * 3600), ml: 950)], bottle: WebFixture.bea, at: WebFixture.now)
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        let panel = try #require(PageReading.panel(of: WebFixture.bea, in: page))
        let week = try #require(panel.range(of: "data-days=\"7\""))
        let svg = String(panel[week.upperBound...].prefix { $0 != "\n" })
        let lastBar = try #require(svg.range(of: "</g>", options: .backwards))
        let firstValue = try #require(svg.range(of: "<text class=\"v\""))
        #expect(lastBar.upperBound <= firstValue.lowerBound, "values drawn after the bars")
        let goalLine = try #require(svg.range(of: "<line class=\"goal\""))
        let goalY = try #require(PageReading.attribute("y1", of: String(svg[goalLine.lowerBound...].prefix { $0 != ">" })).flatMap(Double.init))
        let values = svg.components(separatedBy: "<text class=\"v\"").dropFirst()
        #expect(values.count == 7)
        for value in values {
            let baseline = try #require(PageReading.attribute("y", of: value).flatMap(Double.init))
            // The text's box (12 px: from baseline − 11 to baseline + 2) clear of the line.
            #expect(baseline + 2 < goalY - 1 || baseline - 11 > goalY + 1, "a value on the goal line: \(value.prefix(60)), line at \(goalY)")
        }
        #expect(svg.contains(">2450</text>"))
        // Two neighbours never run together: side by side only with 6 units between them (12 px
        // text, about 7 units a digit), else a row apart.
        let boxes = try values.map { value -> (x: Double, y: Double, width: Double) in
            let x = try #require(PageReading.attribute("x", of: value).flatMap(Double.init))
            let y = try #require(PageReading.attribute("y", of: value).flatMap(Double.init))
            let text = try #require(value.range(of: ">").map { value[$0.upperBound...].prefix { $0 != "<" } })
            return (x, y, Double(text.count) * 7)
        }
        for (a, b) in zip(boxes, boxes.dropFirst()) {
            #expect(abs(a.x - b.x) >= (a.width + b.width) / 2 + 6 || abs(a.y - b.y) >= 12, "\(a) and \(b) overlap")
        }
    }

    @Test("days before the first drink are no data, not 0 ml, in the charts and the week's summary")
    func noDataBeforeTheFirstDrink() throws {
        let fixture = try WebFixture(days: 4)
        defer { fixture.remove() }
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        let panel = try #require(PageReading.panel(of: WebFixture.ana, in: page))
        let month = try #require(panel.range(of: "data-days=\"30\""))
        let svg = String(panel[month.upperBound...].prefix { $0 != "\n" })
        // 3 past days and today have drinks; the 26 days before are no data.
        #expect(svg.components(separatedBy: "class=\"bar nodata\"").count - 1 == 26)
        #expect(svg.components(separatedBy: "class=\"bar\"").count - 1 + svg.components(separatedBy: "class=\"bar now\"").count - 1 == 4)
        #expect(!svg.contains("data-ml=\"0\""))
        #expect(svg.contains(": no data</title>"))
        // The week: 3 days with data, all met (2100 against 2000).
        #expect(panel.contains("class=\"week-summary\">3 of 3 days met · average 2,100 ml<"), "\(panel.prefix(200))")
        // The year's months before the first drink are no data too.
        let year = try #require(panel.range(of: "data-days=\"365\""))
        #expect(String(panel[year.upperBound...].prefix { $0 != "\n" }).contains("class=\"bar nodata\""))
    }
}
