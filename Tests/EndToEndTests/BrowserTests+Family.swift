// A family of four on a phone, in a real headless Chromium: the 3-second question "is everyone on
// track?" is answered on the first screen (every person's row of the family strip inside the first
// 360 × 640 viewport, light and dark), the 30-day and 12-month charts fold on the phone and show on
// a laptop, a row leads to its person's panel, and axe-core (wcag22aa included) finds nothing
// serious or critical. Part of `BrowserTests`, whose tests run one at a time: each checks that no
// Chromium is left when it ends, and would take another test's browser for its own.

import BusTestSupport
import Foundation
import TestFixtures
import Testing
@testable import Web

extension BrowserTests {
    @Test("every person's row is inside the first screen of a 360 px phone, light and dark")
    func theFamilyOnThePhonesFirstScreen() async throws {
        let fixture = try WebFixture.family(days: 30)
        defer { fixture.remove() }
        let axe = try await Accessibility.axeSource()
        let profile = fixture.folder.appendingPathComponent("chromium").path
        try await fixture.withServer { port in
            try await HeadlessBrowser.with(profile: profile) { browser in
                try await browser.go("http://127.0.0.1:\(port)/")
                for dark in [false, true] {
                    try await browser.colourScheme(dark: dark)
                    try await browser.viewport(width: 360, height: 640, mobile: true)
                    let rows = try await browser.script("""
                        return Array.from(document.querySelectorAll("nav.family li a")).map(function (a) {
                          var r = a.getBoundingClientRect(); return [a.querySelector(".who").textContent, r.top, r.bottom, r.height]; });
                        """) as? [[Any]] ?? []
                    let viewport = try await browser.script("return [window.innerWidth, window.innerHeight, window.scrollY]") as? [Int] ?? []
                    #expect(viewport.count == 3 && viewport[0] == 360 && viewport[1] == 640 && viewport[2] == 0, "\(viewport)")
                    #expect(rows.map { $0.first as? String ?? "" } == ["Leo", "Maya", "Dan", "Cai"], "\(rows)")
                    for row in rows {
                        let bottom = (row[2] as? Double) ?? (row[2] as? Int).map(Double.init) ?? 9999
                        let height = (row[3] as? Double) ?? (row[3] as? Int).map(Double.init) ?? 0
                        #expect(bottom <= 640, "\(row) is below the first screen (dark: \(dark))")
                        #expect(height >= 44, "\(row) is no 44 px target")
                    }
                    // The month and the year are folded on the phone; the week is not.
                    let shown = try await browser.script("""
                        var s = document.querySelector("section.bottle");
                        return [s.querySelector("[data-days='7'] svg").checkVisibility() ? 1 : 0, s.querySelector("[data-days='30'] svg").checkVisibility() ? 1 : 0];
                        """) as? [Int] ?? []
                    #expect(shown == [1, 0], "week and month shown: \(shown)")
                    // The first screen a parent sees, for docs/web.md.
                    if !dark {
                        let first = try await browser.screenshotOfViewport()
                        try first.write(to: try Self.screenshots(fixture).appendingPathComponent("dashboard-family-phone.png"))
                    }
                    try await expectAccessible(browser, axe: axe, state: "a family of four at 360 px\(dark ? ", dark" : "")")
                }
                // On a laptop the fold is gone: every chart shows.
                try await browser.colourScheme(dark: false)
                try await browser.viewport(width: 1366, height: 900, mobile: false)
                let laptop = try await browser.script("""
                    return Array.from(document.querySelectorAll("[data-days] svg")).filter(function (s) { return !s.checkVisibility(); }).length;
                    """) as? Int
                #expect(laptop == 0, "charts hidden at 1366 px: \(laptop ?? -1)")
                // A row leads to its person's panel.
                try await browser.viewport(width: 360, height: 640, mobile: true)
                try await browser.click("nav.family li:nth-child(2) a")
                let target = try await browser.script("""
                    var h = document.querySelector(location.hash); return [h.textContent, Math.round(h.getBoundingClientRect().top)];
                    """) as? [Any] ?? []
                #expect(target.first as? String == "Maya", "\(target)")
                #expect(((target.last as? Int) ?? 9999) < 640, "\(target)")
                let errors = try await browser.consoleEntries().filter { ($0["level"] as? String) == "SEVERE" }
                #expect(errors.isEmpty, "console errors: \(errors)")
            }
        }
    }

}

extension BrowserTests {
    /// What a phone of `width` shows, measured from the DOM with every fold opened: how wide the
    /// page is, the interactive elements smaller than 44 × 44 px, and the smallest chart text.
    struct Measures {
        var scrollWidth: Int
        var smallTargets: [String]
        var smallestText: Double
        var targets: Int
    }

    static func measure(_ browser: WebDriver) async throws -> Measures {
        let result = try await browser.script("""
            document.querySelectorAll("details").forEach(function (d) { d.open = true; });
            var small = [], count = 0;
            document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]").forEach(function (e) {
              if (!e.checkVisibility()) return; count++;
              var r = e.getBoundingClientRect();
              if (r.width < 44 || r.height < 44) small.push(e.tagName + "." + e.className + " " + Math.round(r.width) + "x" + Math.round(r.height) + " " + e.textContent.slice(0, 30));
            });
            var least = 99;
            document.querySelectorAll("svg").forEach(function (s) {
              var box = s.viewBox.baseVal; if (!box || !box.width || !s.checkVisibility()) return;
              var scale = s.getBoundingClientRect().width / box.width;
              s.querySelectorAll("text").forEach(function (t) { least = Math.min(least, parseFloat(getComputedStyle(t).fontSize) * scale); });
            });
            var width = document.documentElement.scrollWidth;
            document.querySelectorAll("details.older, details.more, details.del").forEach(function (d) { d.open = false; });
            return [width, small, least, count];
            """) as? [Any] ?? []
        return Measures(scrollWidth: result.first as? Int ?? 9999, smallTargets: result.count > 1 ? result[1] as? [String] ?? ["?"] : ["?"],
                        smallestText: result.count > 2 ? (result[2] as? Double ?? (result[2] as? Int).map(Double.init) ?? 0) : 0,
                        targets: result.count > 3 ? result[3] as? Int ?? 0 : 0)
    }

    @Test("two and four people at 320, 360, 390 and 1366 px, light and dark: no sideways scroll, 44 px targets, 12 px chart text, axe-core clean")
    func legibleAndTouchableAtEveryWidth() async throws {
        let axe = try await Accessibility.axeSource()
        let two = try WebFixture(settings: Self.household, days: 365, beaName: Self.plainName)
        defer { two.remove() }
        let four = try WebFixture.family(days: 30)
        defer { four.remove() }
        for (name, fixture) in [("two people", two), ("four people", four)] {
            let profile = fixture.folder.appendingPathComponent("chromium").path
            try await fixture.withServer { port in
                try await HeadlessBrowser.with(profile: profile) { browser in
                    try await browser.go("http://127.0.0.1:\(port)/")
                    for dark in [false, true] {
                        try await browser.colourScheme(dark: dark)
                        for width in [320, 360, 390, 1366] {
                            let state = "\(name), \(width) px\(dark ? ", dark" : "")"
                            try await browser.viewport(width: width, height: width > 1000 ? 900 : 700, mobile: width < 1000)
                            let measures = try await Self.measure(browser)
                            #expect(measures.scrollWidth <= width, "\(state): \(measures.scrollWidth) px wide")
                            #expect(measures.targets > 5 && measures.smallTargets.isEmpty, "\(state): \(measures.smallTargets.joined(separator: "; "))")
                            #expect(measures.smallestText >= 11.95, "\(state): chart text \(measures.smallestText) px")
                            try await expectAccessible(browser, axe: axe, state: state)
                        }
                    }
                    // Three-letter months under the year's bars.
                    let months = try await browser.script("""
                        return Array.from(document.querySelectorAll("section.bottle [data-days='365'] svg > text")).map(function (t) { return t.textContent; });
                        """) as? [String] ?? []
                    #expect(months.contains("Nov") && months.filter { Int($0) == nil }.allSatisfy { $0.count == 3 }, "\(months)")
                }
            }
        }
    }
}
