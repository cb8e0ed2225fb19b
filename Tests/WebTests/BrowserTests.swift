// The dashboard as a person uses it, in a real headless Chromium: it shows the history, a drink
// is deleted and the goal set through the page's own forms (so the same-origin check lets the
// page through), no console error, nothing wider than a phone; and the README's screenshots.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import ProcessSupport
import Testing
@testable import Web

@Suite struct BrowserTests {
    /// Where the screenshots go: the fixture's folder, or with `AQUAVATE_SCREENSHOTS=docs/screenshots`
    /// the README's (so a test run leaves the repository as it was unless asked to refresh them).
    static func screenshots(_ fixture: WebFixture) -> URL {
        if let folder = ProcessInfo.processInfo.environment["AQUAVATE_SCREENSHOTS"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        return fixture.folder.appendingPathComponent("screenshots")
    }

    @Test func aPersonUsesTheDashboardInChromium() async throws {
        let fixture = try WebFixture(days: 30)
        defer { fixture.remove() }
        let record = try fixture.anaSecondDrinkToday
        try await withBrowser(fixture) { browser, port in
            try await use(browser, port: port, fixture: fixture, record: record)
        }
    }

    /// A record kept aside and a stuck bottle (docs/design.md 3.4), as a person sees them on a
    /// phone: both notices shown, readable, and nothing wider than the phone.
    @Test func aQuarantinedRecordAndAStuckBottleOnAPhone() async throws {
        let fixture = try WebFixture(days: 7)
        defer { fixture.remove() }
        let odd = DrinkRecord(recordID: 950, timestamp: 259_200, amountML: 180, bottleLevelML: 300, typeRaw: 0, flagsRaw: 0)
        _ = try fixture.history.storeChunk([odd], bottle: WebFixture.ana, at: WebFixture.now, bounds: RecordBounds(now: WebFixture.now))
        try fixture.history.updateBottle(id: WebFixture.ana) {
            $0.refusal = SyncRefusal(reason: "chunk 0 announces 255 chunks for a START of 5 record(s)", since: WebFixture.now - 600, connections: 3)
        }
        try await withBrowser(fixture) { browser, port in
            let ana = "section[data-bottle='\(WebFixture.ana)']"
            try await browser.go("http://127.0.0.1:\(port)/")
            let phone = try await browser.screenshot(width: 390, mobile: true)
            #expect(try await browser.text("\(ana) .quarantined-count") == "1")
            #expect(try await browser.text("\(ana) .notice.stuck").contains("255 chunks"))
            #expect(try await browser.script("return document.documentElement.scrollWidth") as? Int ?? 9999 <= 390)
            let screenshots = Self.screenshots(fixture)
            try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
            try phone.write(to: screenshots.appendingPathComponent("dashboard-phone-attention.png"))
            let errors = try await browser.consoleEntries().filter { ($0["level"] as? String) == "SEVERE" }
            #expect(errors.isEmpty, "console errors: \(errors)")
        }
    }

    /// `body` with a headless Chromium driven by chromedriver, and the fixture's server's port.
    private func withBrowser(_ fixture: WebFixture, _ body: @Sendable (WebDriver, Int) async throws -> Void) async throws {
        for program in [WebDriver.chromedriver, WebDriver.chromium] {
            try #require(FileManager.default.isExecutableFile(atPath: program),
                         "\(program) is missing: scripts/install-deps.sh installs chromium and chromium-driver")
        }
        try await fixture.withServer { port in
            let driverPort = try WebDriver.freePort()
            let driver = try ChildProcess.spawn(WebDriver.chromedriver, ["--port=\(driverPort)"])
            defer { driver.killNow() }
            // chromedriver answers /status once it listens (bounded: 10 s at most).
            var ready = false
            for _ in 0..<100 where !ready {
                ready = (try? await RawHTTP.send(port: driverPort, "GET", "/status"))?.status == 200
                if !ready { try await Task.sleep(for: .milliseconds(100)) }
            }
            try #require(ready, "chromedriver did not start")
            let browser = try await WebDriver.start(port: driverPort, profile: fixture.folder.appendingPathComponent("chromium").path)
            do {
                try await body(browser, port)
            } catch {
                await browser.quit()
                throw error
            }
            await browser.quit()
        }
    }

    private func use(_ browser: WebDriver, port: Int, fixture: WebFixture, record: UInt32) async throws {
        let ana = "section[data-bottle='\(WebFixture.ana)']"
        try await browser.go("http://127.0.0.1:\(port)/")
        // What it shows is the history's.
        #expect(try await browser.text("\(ana) .today-ml") == "750 ml of 2000 ml")
        #expect(try await browser.text("section[data-bottle='\(WebFixture.bea)'] .today-ml") == "400 ml of 2500 ml")
        #expect(try await browser.text(".reminders-today") == "0/12")
        #expect(try await browser.elements("\(ana) tr.drink").count == 3)
        #expect(try await browser.elements("\(ana) [data-days='30'] rect.bar").count == 30)

        // Screenshots for the README, before anything is changed.
        let screenshots = Self.screenshots(fixture)
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let phone = try await browser.screenshot(width: 390, mobile: true)
        // Nothing is wider than the phone: no sideways scrolling.
        #expect(try await browser.script("return document.documentElement.scrollWidth") as? Int ?? 9999 <= 390)
        try phone.write(to: screenshots.appendingPathComponent("dashboard-phone.png"))
        let desktop = try await browser.screenshot(width: 1280, mobile: false)
        try desktop.write(to: screenshots.appendingPathComponent("dashboard-desktop.png"))
        #expect(phone.starts(with: [0x89, 0x50, 0x4E, 0x47]) && desktop.count > 10_000)

        // Delete a drink through the page.
        try await browser.click("\(ana) tr[data-record='\(record)'] button.delete")
        #expect(try await browser.text("\(ana) .today-ml", becoming: "450 ml of 2000 ml") == "450 ml of 2000 ml")
        #expect(try fixture.history.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)
        #expect(try await browser.elements("\(ana) tr.drink.deleted").count == 1)

        // Set the goal through the page.
        try await browser.type("\(ana) form.goal input[name=goal_ml]", "2300")
        try await browser.click("\(ana) form.goal button")
        #expect(try await browser.text("\(ana) .goal-ml", becoming: "2000") == "2000")
        #expect(try await browser.text("\(ana) ul.pending li:last-child", becoming: "goal 2300 ml (#2)").contains("2300"))
        let goals = try fixture.history.commands(bottle: WebFixture.ana, statuses: [.pending]).filter { $0.command == "goal" }
        #expect(goals.map(\.argument) == ["2300"])

        // Switch the daily limit off.
        try await browser.click("button.daily-limit-switch")
        #expect(try await browser.text(".reminders-today", becoming: "0") == "0")

        let errors = try await browser.consoleEntries().filter { ($0["level"] as? String) == "SEVERE" }
        #expect(errors.isEmpty, "console errors: \(errors)")
    }
}
