// The dashboard as a person uses it, in a real headless Chromium: it shows the history under the
// people's names, a drink is deleted (after a confirmation) and the delete undone, a goal set and
// a goal refused, the limit switched, all through the page's own forms; it updates itself when a
// sync brings a drink; no console error, nothing wider than a phone; axe-core finds nothing
// serious or critical in any state, light or dark; and the README's screenshots.

import AquavateProtocol
import Timekeeping
import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing
@testable import Web

@Suite(.serialized) struct BrowserTests {
    /// Where the screenshots go: the fixture's folder, or with `AQUAVATE_SCREENSHOTS=docs/images`
    /// the README's (so a test run leaves the repository as it was unless asked to refresh them).
    static func screenshots(_ fixture: WebFixture) throws -> URL {
        let folder: URL
        if let given = ProcessInfo.processInfo.environment["AQUAVATE_SCREENSHOTS"], !given.isEmpty {
            folder = URL(fileURLWithPath: given, relativeTo: Accessibility.repository)
        } else {
            folder = fixture.folder.appendingPathComponent("screenshots")
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Ana's bottle has its owner set: the page calls it Ana's. Bea's has none: its own name.
    static let household = ["bottle.\(WebFixture.ana).owner=Ana"]
    /// The name Bea's bottle advertises where a test takes the README's screenshots: a plain one
    /// (the fixture's hostile name is for the tests of escaping, such as the new household's).
    static let plainName = "Bea"

    @Test func aPersonUsesTheDashboardInChromium() async throws {
        let fixture = try WebFixture(settings: Self.household, days: 30, beaName: Self.plainName)
        defer { fixture.remove() }
        let record = try fixture.anaSecondDrinkToday
        let axe = try await Accessibility.axeSource()
        try await withBrowser(fixture) { browser, port in
            try await use(browser, port: port, fixture: fixture, record: record, axe: axe)
        }
    }

    /// A new household: no drink yet. The page says to sync the bottle, not that anyone is behind.
    @Test func aNewPersonIsToldToSyncTheirBottle() async throws {
        let fixture = try WebFixture(settings: Self.household, drinks: false)
        defer { fixture.remove() }
        let axe = try await Accessibility.axeSource()
        try await withBrowser(fixture) { browser, port in
            let ana = "section[data-bottle='\(WebFixture.ana)']"
            try await browser.go("http://127.0.0.1:\(port)/")
            #expect(try await browser.text("\(ana) .empty-state").hasPrefix("No drinks for Ana yet."))
            // A name that is markup is shown as text.
            #expect(try await browser.text("section[data-bottle='\(WebFixture.bea)'] h2") == WebFixture.hostileName)
            #expect(try await browser.elements("\(ana) .urgency").isEmpty)
            #expect(try await browser.elements("\(ana) .urgency-overdue").isEmpty)
            try await expectAccessible(browser, axe: axe, state: "empty")
            // The check can fail: grey text on white (the old deleted rows' 3.04:1) is found.
            _ = try await browser.script("""
                var p = document.createElement("p"); p.id = "faint"; p.textContent = "faint"; p.style.color = "#8c959f";
                p.style.background = "#fff"; document.querySelector("section").appendChild(p); return true;
                """)
            let faint = try await Accessibility.findings(browser, axe: axe)
            #expect(faint.contains { $0.hasPrefix("color-contrast") && $0.contains("#faint") }, "\(faint)")
            _ = try await browser.script("document.getElementById('faint').remove(); return true")
            try await browser.colourScheme(dark: true)
            try await expectAccessible(browser, axe: axe, state: "empty, dark")
        }
    }

    /// The login page (a token is set): a heading, a labelled field, nothing axe-core objects to.
    @Test func theLoginPageIsAccessible() async throws {
        let fixture = try WebFixture(settings: ["web.token=correct-horse-battery-staple"], days: 2)
        defer { fixture.remove() }
        let axe = try await Accessibility.axeSource()
        try await withBrowser(fixture) { browser, port in
            try await browser.go("http://127.0.0.1:\(port)/")
            #expect(try await browser.text("h1") == "Log in")
            try await expectAccessible(browser, axe: axe, state: "login")
            try await browser.type("input[name=token]", "correct-horse-battery-staple")
            try await browser.click("form button")
            #expect(try await browser.text("header h1", becoming: "Aquavate") == "Aquavate")
            try await expectAccessible(browser, axe: axe, state: "logged in")
        }
    }

    /// A record kept aside and a stuck bottle (docs/design.md 3.4), as a person sees them on a
    /// phone: both notices shown, readable, and nothing wider than the phone.
    @Test func aQuarantinedRecordAndAStuckBottleOnAPhone() async throws {
        let fixture = try WebFixture(days: 7, beaName: Self.plainName)
        defer { fixture.remove() }
        let odd = DrinkRecord(recordID: 950, timestamp: 259_200, amountML: 180, bottleLevelML: 300, typeRaw: 0, flagsRaw: 0)
        _ = try fixture.history.drinks.storeChunk([odd], bottle: WebFixture.ana, at: WebFixture.now, bounds: RecordBounds(now: WebFixture.now.secondsSince1970))
        try fixture.history.bottles.update(id: WebFixture.ana) {
            $0.refusal = SyncRefusal(reason: "chunk 0 announces 255 chunks for a START of 5 record(s)", since: WebFixture.now - .seconds(600), connections: 3)
        }
        let axe = try await Accessibility.axeSource()
        try await withBrowser(fixture) { browser, port in
            let ana = "section[data-bottle='\(WebFixture.ana)']"
            try await browser.go("http://127.0.0.1:\(port)/")
            let phone = try await browser.screenshot(width: 390, mobile: true)
            #expect(try await browser.text("\(ana) .quarantined-count") == "1")
            #expect(try await browser.text("\(ana) .notice.stuck").contains("255 chunks"))
            #expect(try await browser.script("return document.documentElement.scrollWidth") as? Int ?? 9999 <= 390)
            try phone.write(to: try Self.screenshots(fixture).appendingPathComponent("dashboard-phone-attention.png"))
            try await expectAccessible(browser, axe: axe, state: "stuck and quarantined")
            let errors = try await browser.consoleEntries().filter { ($0["level"] as? String) == "SEVERE" }
            #expect(errors.isEmpty, "console errors: \(errors)")
        }
    }

    /// The check for a browser left running can fail: a session never quit and chromedriver killed
    /// alone (the clean-up before) leave its Chromium running, and the check finds it.
    @Test func aChromiumLeftByItsDriverIsFound() async throws {
        let fixture = try WebFixture(days: 1)
        defer { fixture.remove() }
        let profile = fixture.folder.appendingPathComponent("chromium").path
        let driverPort = try WebDriver.freePort()
        let driver = try ChildProcess.spawn(WebDriver.chromedriver, ["--port=\(driverPort)"])
        defer { BrowserProcesses.kill(driver) }
        try await waitUntil(.seconds(10), "chromedriver to listen") {
            (try? await RawHTTP.send(port: driverPort, "GET", "/status"))?.status == 200
        }
        _ = try await WebDriver.start(port: driverPort, profile: profile)
        #expect(await driver.kill(), "chromedriver did not end")
        let left = BrowserProcesses.survivors(profile: profile)
        #expect(left.contains { $0.command.contains(profile) }, "no Chromium found after its driver alone was killed")
        BrowserProcesses.kill(left)
        try await waitUntil(.seconds(10), "the orphaned Chromium to end") { BrowserProcesses.survivors(profile: profile).isEmpty }
    }

    /// No serious or critical finding of axe-core on the page as it is now.
    func expectAccessible(_ browser: WebDriver, axe: String, state: String) async throws {
        let findings = try await Accessibility.findings(browser, axe: axe)
        let version = try await Accessibility.version(browser)
        #expect(findings.isEmpty, "axe-core \(version), \(state): \(findings.joined(separator: "\n"))")
    }

    /// `body` with a headless Chromium driven by chromedriver (HeadlessBrowser: the session quit
    /// on every path, everything chromedriver started killed, nothing of it left running), and
    /// the fixture's server's port.
    private func withBrowser(_ fixture: WebFixture, _ body: @Sendable (WebDriver, Int) async throws -> Void) async throws {
        let profile = fixture.folder.appendingPathComponent("chromium").path
        try await fixture.withServer { port in
            try await HeadlessBrowser.with(profile: profile) { browser in try await body(browser, port) }
        }
    }

    private func use(_ browser: WebDriver, port: Int, fixture: WebFixture, record: UInt32, axe: String) async throws {
        let ana = "section[data-bottle='\(WebFixture.ana)']", bea = "section[data-bottle='\(WebFixture.bea)']"
        try await browser.go("http://127.0.0.1:\(port)/")
        // What it shows is the history's, under the person's name where one is known.
        #expect(try await browser.text("\(ana) h2") == "Ana")
        #expect(try await browser.text("\(ana) .bottle-name") == "Ana's bottle")
        #expect(try await browser.text("\(ana) .sub").hasPrefix("Last sync"))
        #expect(try await browser.text("\(bea) h2") == Self.plainName)
        #expect(try await browser.text("\(ana) .today-ml") == "750 ml of 2000 ml")
        #expect(try await browser.text("\(bea) .today-ml") == "400 ml of 2500 ml")
        #expect(try await browser.text("\(ana) .next-reminder") == "due now")
        #expect(try await browser.text("\(ana) .urgency").hasPrefix("overdue · Ana is 450 ml behind"))
        #expect(try await browser.text(".reminders-today") == "0/12")
        // The last three drinks shown, the rest folded (Ana has three: nothing folded).
        #expect(try await browser.elements("\(ana) tr.drink").count == 3)
        #expect(try await browser.elements("\(ana) details.more").isEmpty)
        // A bar a day on the week and the month (named for screen readers), the year as months.
        #expect(try await browser.elements("\(ana) [data-days='7'] g.bar").count == 7)
        #expect(try await browser.elements("\(ana) [data-days='30'] g.bar").count == 30)
        #expect((11...12).contains(try await browser.elements("\(ana) [data-days='365'] g.bar").count))
        #expect(try await browser.elements("\(ana) [data-days='7'] g.bar.now").count == 1)
        // Legible on a phone: no text under 12 px as drawn at 390 px.
        _ = try await browser.screenshot(width: 390, mobile: true)
        let smallest = try await browser.script("""
            var least = 99; document.querySelectorAll("svg").forEach(function (s) {
              var box = s.viewBox.baseVal; if (!box || !box.width) return;
              var scale = s.getBoundingClientRect().width / box.width;
              s.querySelectorAll("text").forEach(function (t) {
                if (t.getClientRects().length) least = Math.min(least, parseFloat(getComputedStyle(t).fontSize) * scale); }); });
            return least;
            """)
        #expect((smallest as? Double ?? (smallest as? Int).map(Double.init) ?? 0) >= 11.9, "smallest chart text: \(smallest) px")
        // Nothing is wider than the phone: no sideways scrolling.
        #expect(try await browser.script("return document.documentElement.scrollWidth") as? Int ?? 9999 <= 390)

        // Screenshots for the README, before anything is changed: a phone, light and dark, and a laptop.
        let screenshots = try Self.screenshots(fixture)
        let light = try await browser.screenshot(width: 390, mobile: true)
        try await expectAccessible(browser, axe: axe, state: "two bottles, light")
        try await browser.colourScheme(dark: true)
        let dark = try await browser.screenshot(width: 390, mobile: true)
        #expect(try await browser.script("return getComputedStyle(document.body).backgroundColor") as? String == "rgb(13, 17, 23)")
        try await expectAccessible(browser, axe: axe, state: "two bottles, dark")
        try await browser.colourScheme(dark: false)
        let desktop = try await browser.screenshot(width: 1280, mobile: false)
        try light.write(to: screenshots.appendingPathComponent("dashboard-phone-light.png"))
        try dark.write(to: screenshots.appendingPathComponent("dashboard-phone-dark.png"))
        try desktop.write(to: screenshots.appendingPathComponent("dashboard-desktop.png"))
        #expect(light.starts(with: [0x89, 0x50, 0x4E, 0x47]) && dark != light && desktop.count > 10_000)

        // Delete a drink through the page: a first tap asks, the second deletes; the page says so
        // and offers to undo while the bottle has not been told.
        #expect(try await browser.elements("\(ana) tr[data-record='\(record)'] button.delete").count == 1)
        try await browser.click("\(ana) tr[data-record='\(record)'] details.del summary")
        #expect(try await browser.text("\(ana) tr[data-record='\(record)'] button.delete") == "Delete 300 ml at 11:00")
        try await browser.click("\(ana) tr[data-record='\(record)'] button.delete")
        #expect(try await browser.text("\(ana) .today-ml", becoming: "450 ml of 2000 ml") == "450 ml of 2000 ml")
        #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)
        #expect(try await browser.elements("\(ana) tr.drink.deleted").count == 1)
        #expect(try await browser.text(".outcome").hasPrefix("Deleted 300 ml at 11:00"))
        #expect(try await browser.text("\(ana) ul.pending li") == "Delete 300 ml at 11:00")
        #expect(try await browser.script("return location.pathname") as? String == "/")
        try await expectAccessible(browser, axe: axe, state: "after a delete")
        try await browser.colourScheme(dark: true)
        try await expectAccessible(browser, axe: axe, state: "after a delete, dark")
        try await browser.colourScheme(dark: false)
        try await browser.click(".outcome button.undo")
        #expect(try await browser.text("\(ana) .today-ml", becoming: "750 ml of 2000 ml") == "750 ml of 2000 ml")
        #expect(try await browser.text(".outcome") == "The drink is back.")
        #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == false)
        #expect(try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).filter { $0.command == "delete" }.isEmpty)

        // A daily goal out of range (the browser's own check switched off, as an old browser
        // would send it): the page says why, stays the page, and keeps its layout at 1280 px.
        _ = try await browser.script("document.querySelector(\"\(ana) form.goal\").noValidate = true")
        try await browser.type("\(ana) form.goal input[name=daily_goal_ml]", "25000")
        try await browser.click("\(ana) form.goal button")
        #expect(try await browser.text(".outcome", becoming: "25000 ml is not a daily goal: give 1 to 20000 ml.")
                == "25000 ml is not a daily goal: give 1 to 20000 ml.")
        #expect(try await browser.script("return location.pathname") as? String == "/")
        _ = try await browser.screenshot(width: 1280, mobile: false)
        let widths = try await browser.script("return [document.querySelector('.outcome').offsetWidth, document.querySelector('main').clientWidth]") as? [Int] ?? []
        #expect(widths.count == 2 && widths[0] >= widths[1] - 40, "the notice spans the page: \(widths)")
        try await expectAccessible(browser, axe: axe, state: "a refused goal")
        _ = try await browser.screenshot(width: 390, mobile: true)

        // A daily goal: in force at once, and the bottle asked to show it.
        try await browser.type("\(ana) form.goal input[name=daily_goal_ml]", "2300")
        try await browser.click("\(ana) form.goal button")
        #expect(try await browser.text("\(ana) ul.pending li:last-child", becoming: "Bottle goal 2300 ml") == "Bottle goal 2300 ml")
        #expect(try await browser.text("\(ana) .goal-ml") == "2300")
        #expect(try await browser.text(".outcome") == "Daily goal 2300 ml; the bottle shows it from its next sync.")
        let goals = try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).filter { $0.command == "goal" }
        #expect(goals.map(\.argument) == ["2300"])

        // Switch the daily limit off.
        try await browser.click("button.daily-limit-switch")
        #expect(try await browser.text(".reminders-today", becoming: "0") == "0")

        // A sync brings Bea a drink: the open page shows it without being reloaded by hand.
        let todayStart = WebFixture.now - .seconds(16 * 3600)
        _ = try fixture.history.drinks.store([WebFixture.record(900, at: todayStart + .seconds(15 * 3600), ml: 350)], bottle: WebFixture.bea, at: WebFixture.now)
        var seen = ""
        for _ in 0..<300 where seen != "750 ml of 2500 ml" {
            seen = (try? await browser.text("\(bea) .today-ml")) ?? ""
            if seen != "750 ml of 2500 ml" { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(seen == "750 ml of 2500 ml", "the page did not update itself within 30 s")

        let errors = try await browser.consoleEntries().filter { ($0["level"] as? String) == "SEVERE" }
        #expect(errors.isEmpty, "console errors: \(errors)")
    }
}
