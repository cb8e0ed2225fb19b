// The page as a family uses it: people by name, the empty state, plurals, commands in words, undo
// (and none in a household), web wording, HTML to a browser and JSON to the API, the manifest, the
// live updates' version (which no secret moves), the script served from the bridge alone (CSP
// `script-src 'self'`), and the page's size over the wire.

import BusTestSupport
import Timekeeping
import Foundation
import History
@testable import Reminders
@testable import Settings
import TestFixtures
import Testing
@testable import Web

@Suite struct PagePolishTests {
    /// As a browser posts the page's forms: asking for HTML (a script gets 4xx JSON refusals).
    static let form = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")]

    @Test func aPanelIsTitledByItsOwnerWithTheBottleInItsOwnPart() throws {
        let fixture = try WebFixture(settings: ["bottle.\(WebFixture.ana).owner=Ana"])
        defer { fixture.remove() }
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(page.contains("<h2 id=\"p0\">Ana</h2><p class=\"sub\">Last sync"))
        #expect(page.contains("class=\"bottle-name\">Ana&#39;s bottle</dd>"))
        // Bea's bottle has no owner: its own name, never its serial when it has a name.
        #expect(page.contains(">Bea &lt;script&gt;</h2>"))
        #expect(!page.contains("<h2 id=\"p1\">AQ-BEA-0002</h2>"))
    }

    @Test func aNewPersonIsToldToSyncNotThatTheyAreBehind() throws {
        let fixture = try WebFixture(drinks: false)
        defer { fixture.remove() }
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(page.components(separatedBy: "class=\"empty-state\">No drinks for ").count == 3)
        #expect(page.contains("No drinks for Bea &lt;script&gt; yet. They show here after the bottle&#39;s next sync"))
        #expect(!page.contains("class=\"urgency"))
        #expect(!page.contains("behind"))
    }

    @Test func daysAreCountedInWords() {
        #expect(WebWords.english.dayCount(1) == "1 day")
        #expect(WebWords.english.dayCount(2) == "2 days")
        #expect(WebWords.english.dayCount(0) == "0 days")
        #expect(WebWords.spanish.dayCount(1) == "1 día")
        #expect(WebWords.english.moreDrinks(1) == "1 more drink today")
    }

    @Test func aStreakOfOneDayIsOneDay() throws {
        // Bea's goal 2500: met yesterday only (the fixture's Bea drinks 1500; one more day of 1000).
        let fixture = try WebFixture(days: 3)
        defer { fixture.remove() }
        let yesterday = WebFixture.now - .seconds(16 * 3600 + 86_400)
        _ = try fixture.history.drinks.store([WebFixture.record(800, at: yesterday + .seconds(20 * 3600), ml: 1000)], bottle: WebFixture.bea, at: WebFixture.now)
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(page.contains("class=\"streak\">1 day<"))
    }

    @Test func waitingCommandsAreSaidInWordsAndDrinksFold() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        // Five more drinks for Ana today: three shown, the rest folded.
        let start = WebFixture.now - .seconds(16 * 3600)
        _ = try fixture.history.drinks.store((0..<5).map { WebFixture.record(700 + UInt32($0), at: start + .seconds(15 * 3600 + $0 * 60), ml: 100) },
                                      bottle: WebFixture.ana, at: WebFixture.now)
        let record = try fixture.anaSecondDrinkToday
        try BottleControl(history: fixture.history).queue(.delete(recordID: Int(record)), bottle: WebFixture.ana, at: WebFixture.now)
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(page.contains("<li data-command=\"1\">Delete 300 ml at 11:00</li>"))
        #expect(!page.contains("delete drink #"))
        #expect(page.contains("<details class=\"more\"><summary>5 more drinks today</summary>"))
        #expect(page.contains("<button type=\"submit\" class=\"delete danger\">Delete 250 ml at 08:00</button>"))
        // No header cell without a name (axe: empty-table-header).
        #expect(!page.contains("<th></th>"))
    }

    @Test func aDeleteIsUndoneWhileTheBottleHasNotBeenToldAndNotAfter() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let record = try fixture.anaSecondDrinkToday
        try await fixture.withServer { port in
            let delete = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: Self.form, body: "bottle=AQ-ANA-0001&record_id=\(record)")
            let location = try #require(delete.headers["location"])
            let page = try await RawHTTP.send(port: port, "GET", location)
            #expect(page.body.contains("role=\"status\">Deleted 300 ml at 11:00: the bottle forgets it at its next sync."))
            #expect(page.body.contains("action=\"/actions/undo\"><input type=\"hidden\" name=\"bottle\" value=\"AQ-ANA-0001\"><input type=\"hidden\" name=\"command\" value=\"1\">"))
            let undo = try await RawHTTP.send(port: port, "POST", "/actions/undo", headers: Self.form, body: "bottle=AQ-ANA-0001&command=1")
            #expect(undo.status == 303)
            #expect(undo.headers["location"] == "/?done=restored")
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == false)
            #expect(try fixture.history.commands.all(bottle: WebFixture.ana).isEmpty)
            let after = try await RawHTTP.send(port: port, "GET", "/")
            #expect(after.body.contains("class=\"today-ml\" data-ml=\"750\""))

            // Deleted again, and the bottle is being sent the command: too late.
            _ = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: Self.form, body: "bottle=AQ-ANA-0001&record_id=\(record)")
            let command = try #require(try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).first)
            _ = try fixture.history.commands.update(id: command.id, status: .sending, message: nil, at: WebFixture.now)
            let late = try await RawHTTP.send(port: port, "POST", "/actions/undo", headers: Self.form, body: "bottle=AQ-ANA-0001&command=\(command.id)")
            #expect(late.headers["location"] == "/?done=undo-too-late")
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)
            let deletedPage = try await RawHTTP.send(port: port, "GET", "/?done=deleted&command=\(command.id)")
            #expect(!deletedPage.body.contains("/actions/undo"), "no undo once the bottle has it")
            // Nonsense undos change nothing.
            let junk = try await RawHTTP.send(port: port, "POST", "/actions/undo", headers: Self.form, body: "bottle=AQ-ANA-0001&command=99")
            #expect(junk.headers["location"] == "/?done=refused")
        }
    }

    @Test("in a household no delete is undone: the other bridges keep a delete for good once they have it")
    func noUndoInAHousehold() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try fixture.history.settings.set("household.key", Data((0..<32).map { UInt8($0) }).base64EncodedString())
        let record = try fixture.anaSecondDrinkToday
        try await fixture.withServer { port in
            let delete = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: Self.form, body: "bottle=AQ-ANA-0001&record_id=\(record)")
            let page = try await RawHTTP.send(port: port, "GET", try #require(delete.headers["location"]))
            #expect(page.body.contains("role=\"status\">Deleted 300 ml at 11:00"))
            #expect(!page.body.contains("/actions/undo"), "no undo offered in a household")
            let command = try #require(try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).first)
            let undo = try await RawHTTP.send(port: port, "POST", "/actions/undo", headers: Self.form, body: "bottle=AQ-ANA-0001&command=\(command.id)")
            #expect(undo.headers["location"] == "/?done=undo-shared")
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)
            #expect(try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).count == 1)
        }
    }

    @Test func unknownPathsAnswerHTMLToABrowserAndJSONToTheAPI() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let browser = try await RawHTTP.send(port: port, "GET", "/nope", headers: [("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")])
            #expect(browser.status == 404)
            #expect(browser.headers["content-type"] == "text/html; charset=utf-8")
            #expect(browser.body.contains("<h1>Not found</h1>"))
            #expect(!browser.body.contains("openapi"))
            let api = try await RawHTTP.send(port: port, "GET", "/api/v1/nope", headers: [("Accept", "text/html")])
            #expect(api.status == 404)
            #expect(api.headers["content-type"] == "application/json; charset=utf-8")
            let plain = try await RawHTTP.send(port: port, "GET", "/nope")
            #expect(plain.jsonObject["error"] is String)
        }
    }

    @Test func thePageCanBeAddedToAPhonesHomeScreen() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/")
            #expect(page.body.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\" crossorigin=\"use-credentials\">"))
            let manifest = try await RawHTTP.send(port: port, "GET", "/manifest.webmanifest")
            #expect(manifest.status == 200)
            #expect(manifest.headers["content-type"] == "application/manifest+json")
            #expect(manifest.jsonObject["start_url"] as? String == "/")
            #expect(manifest.jsonObject["display"] as? String == "standalone")
            let icons = manifest.jsonObject["icons"] as? [[String: Any]] ?? []
            #expect(icons.first?["src"] as? String == "/icon.svg")
            let icon = try await RawHTTP.send(port: port, "GET", "/icon.svg")
            #expect(icon.status == 200 && icon.body.hasPrefix("<svg"))
            #expect(icon.headers["content-type"] == "image/svg+xml")
        }
    }

    /// The live updates' version changes with what the page shows, and only then (within the
    /// quarter hour).
    @Test func theVersionChangesWithADrinkAndACommand() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let first = try await RawHTTP.send(port: port, "GET", "/events")
            #expect(first.headers["content-type"] == "text/event-stream; charset=utf-8")
            #expect(first.body.hasPrefix("retry: \(PageVersion.retryMilliseconds)\nevent: version\ndata: "))
            let again = try await RawHTTP.send(port: port, "GET", "/events")
            #expect(again.body == first.body)
            let page = try await RawHTTP.send(port: port, "GET", "/")
            let version = first.body.split(separator: "\n")[2].dropFirst("data: ".count)
            #expect(page.body.contains("<body data-version=\"\(version)\">"))
            _ = try fixture.history.drinks.store([WebFixture.record(900, at: WebFixture.now - .seconds(60), ml: 100)], bottle: WebFixture.bea, at: WebFixture.now)
            let afterDrink = try await RawHTTP.send(port: port, "GET", "/events")
            #expect(afterDrink.body != first.body)
            try BottleControl(history: fixture.history).queue(.goal(2200), bottle: WebFixture.bea, at: WebFixture.now)
            let afterCommand = try await RawHTTP.send(port: port, "GET", "/events")
            #expect(afterCommand.body != afterDrink.body)
            // A secret is not on the page, and whoever can read /events must not see it change.
            try fixture.history.settings.set("household.key", Data((0..<32).map { UInt8($0) }).base64EncodedString())
            let afterSecret = try await RawHTTP.send(port: port, "GET", "/events")
            #expect(afterSecret.body == afterCommand.body)
        }
    }

    /// The one script is the bridge's own file: the policy allows no inline script, so markup
    /// slipped into the page (a bottle's name) could never run one.
    @Test func theScriptComesFromTheBridgeAlone() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/")
            #expect(page.body.contains("<script src=\"/page.js\" defer></script>"))
            let policy = try #require(page.headers["content-security-policy"])
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self';") && policy.contains("connect-src 'self'"))
            #expect(!policy.contains("script-src 'self' 'unsafe-inline'"))
            let script = try await RawHTTP.send(port: port, "GET", "/page.js")
            #expect(script.status == 200)
            #expect(script.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(script.body.contains("new EventSource(\"/events\")"))
        }
    }

    /// docs/design.md 5: under 30 KiB over the wire for a year of two bottles.
    @Test func thePageOfAYearOfTwoBottlesIsUnder30KiBGzipped() async throws {
        let fixture = try WebFixture(days: 365)
        defer { fixture.remove() }
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        let folder = fixture.folder.appendingPathComponent("page.html")
        try Data(page.utf8).write(to: folder)
        let gzip = try await runTool("/bin/sh", ["-c", "gzip -c -6 '\(folder.path)' | wc -c"])
        let size = Int(gzip.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max
        #expect(size < 30 * 1024, "gzipped: \(size) bytes, plain \(page.utf8.count)")
        print("page: \(page.utf8.count) bytes, \(size) gzipped")
    }

    @Test func theNextReminderIsWhenThePaceFallsALevelBehind() {
        var settings = HydrationSettings(timeZone: .gmt)
        settings.goalML = 2000
        settings.activeStartMinute = 8 * 60
        settings.activeEndMinute = 22 * 60
        // 16:00 with 750 ml: expected 1142, 392 behind (attention); overdue from 400 behind.
        let next = NextReminder(minuteOfDay: 16 * 60, dayTotalML: 750, settings: settings, remindersSent: 0)
        guard case .at(let minute) = next else { Issue.record("no reminder: \(next)"); return }
        #expect(minute > 16 * 60 && minute < 16 * 60 + 10)
        #expect(Pace(minuteOfDay: minute, dayTotalML: 750, settings: settings).urgency == .overdue)
        #expect(Pace(minuteOfDay: minute - 1, dayTotalML: 750, settings: settings).urgency == .attention)
        #expect(NextReminder(minuteOfDay: 16 * 60, dayTotalML: 2000, settings: settings, remindersSent: 0) == .goalMet)
        #expect(NextReminder(minuteOfDay: 16 * 60, dayTotalML: 100, settings: settings, remindersSent: 0) == .dueNow)
        #expect(NextReminder(minuteOfDay: 16 * 60, dayTotalML: 100, settings: settings, remindersSent: 12) == .noneToday)
        settings.enabled = false
        #expect(NextReminder(minuteOfDay: 16 * 60, dayTotalML: 750, settings: settings, remindersSent: 0) == .remindersOff)
    }
}
