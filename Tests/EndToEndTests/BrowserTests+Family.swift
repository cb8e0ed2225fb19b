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
