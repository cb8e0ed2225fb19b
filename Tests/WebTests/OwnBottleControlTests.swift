// A control acts on the person whose panel holds it, and on no one else: each panel has its own
// reminders and daily-limit switch, built from its bottle's own settings, and every form names
// its bottle. Maya's bottle synced last; a parent switches Leo's limit from that page, and
// Maya's limit reads the same on every surface afterwards (the page, the API, `status`,
// `/metrics`). A form without its bottle is refused with a 400 and changes nothing.

import BusTestSupport
import Foundation
import History
@testable import Reports
import Settings
import TestFixtures
import Testing
@testable import Web

@Suite struct OwnBottleControlTests {
    /// Ana's bottle is Maya's and was seen last (10 minutes ago); Bea's is Leo's (an hour ago).
    static let family = ["bottle.\(WebFixture.ana).owner=Maya", "bottle.\(WebFixture.bea).owner=Leo"]
    static let browser = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")]

    /// What a daily-limit switch could move, for one bottle, on every surface.
    struct Surfaces: Equatable, CustomStringConvertible {
        /// The panel's `data-on` of its limit, and its count of reminders today.
        var pageLimit: String?
        var pageCount: String?
        var apiLimit: Bool?
        var apiCountText: String?
        var statusLimit: Bool
        var statusLine: String
        /// Every `/metrics` line of the bottle.
        var metrics: [String]
        var description: String { "page \(pageLimit ?? "-") \(pageCount ?? "-"), API \(apiLimit.map(String.init) ?? "-"), status \(statusLimit)" }
    }

    static func surfaces(of bottle: String, port: Int, fixture: WebFixture) async throws -> Surfaces {
        let page = try await RawHTTP.send(port: port, "GET", "/").body
        let panel = try #require(PageReading.panel(of: bottle, in: page), "no panel of \(bottle)")
        func between(_ open: String, _ close: String) -> String? {
            guard let start = panel.range(of: open), let end = panel[start.upperBound...].range(of: close) else { return nil }
            return String(panel[start.upperBound..<end.lowerBound])
        }
        let api = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(bottle)")
        let record = try #require(try fixture.history.bottles.bottle(named: bottle))
        let status = try StatusReport.make(history: fixture.history, configuration: try fixture.context.configuration(), at: WebFixture.now, bottle: record)
        let metrics = try await RawHTTP.send(port: port, "GET", "/metrics").body
        return Surfaces(pageLimit: between("class=\"daily-limit\" data-on=\"", "\""), pageCount: between("class=\"reminders-today\">", "<"),
                        apiLimit: api.jsonObject["daily_limit"] as? Bool, apiCountText: api.jsonObject["reminders_today_text"] as? String,
                        statusLimit: status.dailyLimit, statusLine: status.jsonLine(),
                        metrics: metrics.split(separator: "\n").filter { $0.contains("bottle=\"\(bottle)\"") }.map(String.init))
    }

    @Test("Leo's limit switched from the page drawn when Maya synced last leaves Maya's untouched everywhere")
    func aSwitchActsOnItsOwnBottleAlone() async throws {
        let fixture = try WebFixture(settings: Self.family)
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/").body
            let maya = try await Self.surfaces(of: WebFixture.ana, port: port, fixture: fixture)
            #expect(maya.pageLimit == "true" && maya.apiLimit == true && maya.statusLimit, "\(maya)")
            #expect(maya.pageCount == "0/12")
            // Leo's panel has its own switch, which names Leo's bottle.
            let leoPanel = try #require(PageReading.panel(of: WebFixture.bea, in: page))
            let fields = try #require(PageReading.formFields(action: "/actions/daily-limit", in: leoPanel), "Leo's panel has no daily-limit switch")
            #expect(fields == "bottle=\(WebFixture.bea)&enabled=false")
            #expect(leoPanel.contains("class=\"reminders-today\">0/12<"))

            let posted = try await RawHTTP.send(port: port, "POST", "/actions/daily-limit", headers: Self.browser, body: fields)
            #expect(posted.status == 303)
            #expect(posted.headers["location"] == "/?done=limit-off")

            let leo = try await Self.surfaces(of: WebFixture.bea, port: port, fixture: fixture)
            #expect(leo.pageLimit == "false" && leo.apiLimit == false && !leo.statusLimit, "\(leo)")
            #expect(leo.pageCount == "0" && leo.apiCountText == "Reminders Today: 0")
            // Maya's: the same on every surface as before the switch.
            #expect(try await Self.surfaces(of: WebFixture.ana, port: port, fixture: fixture) == maya)
            // Written as Leo's own setting; the global key, every bottle's default, is untouched.
            #expect(try fixture.history.settings.value("bottle.\(WebFixture.bea).reminders.daily_limit") == "false")
            #expect(try fixture.history.settings.value(Setting.dailyLimit.name) == nil)
        }
    }

    @Test("every form of the page names its bottle, and one without is refused with a 400 that changes nothing")
    func aFormWithoutItsBottleIsRefused() async throws {
        let fixture = try WebFixture(settings: Self.family)
        defer { fixture.remove() }
        let record = try fixture.anaSecondDrinkToday
        try await fixture.withServer { port in
            // Every form on the page carries a bottle (but logging out).
            let page = try await RawHTTP.send(port: port, "GET", "/").body
            let forms = page.components(separatedBy: "<form").dropFirst()
            #expect(forms.count >= 6, "\(forms.count) forms")
            for form in forms {
                let whole = form.components(separatedBy: "</form>")[0]
                #expect(whole.contains("name=\"bottle\" value=\""), "a form without its bottle: \(whole.prefix(200))")
            }
            let plain = [("Content-Type", "application/x-www-form-urlencoded")]
            for (action, fields) in [("/actions/daily-limit", "enabled=false"), ("/actions/goal", "daily_goal_ml=2200"),
                                     ("/actions/delete", "record_id=\(record)"), ("/actions/undo", "command=1"),
                                     ("/actions/daily-limit", "bottle=&enabled=false")] {
                let script = try await RawHTTP.send(port: port, "POST", action, headers: plain, body: fields)
                #expect(script.status == 400, "\(action) \(fields): \(script.status) \(script.body)")
                #expect(script.error?.hasPrefix("bottle is required") == true, "\(action): \(script.body)")
                // A browser gets the page's own error page, with the same status.
                let browser = try await RawHTTP.send(port: port, "POST", action, headers: Self.browser, body: fields)
                #expect(browser.status == 400 && browser.headers["content-type"] == "text/html; charset=utf-8", "\(action): \(browser.status)")
            }
            #expect(try fixture.history.settings.value(Setting.dailyLimit.name) == nil)
            #expect(try fixture.history.settings.all().keys.filter { $0.contains("daily_limit") }.isEmpty)
            #expect(try fixture.history.commands.all().isEmpty)
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == false)
        }
    }

    @Test("an undo posted for another person's bottle undoes nothing")
    func anUndoActsOnItsOwnBottleAlone() async throws {
        let fixture = try WebFixture(settings: Self.family)
        defer { fixture.remove() }
        let record = try fixture.anaSecondDrinkToday
        try await fixture.withServer { port in
            let delete = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: Self.browser, body: "bottle=\(WebFixture.ana)&record_id=\(record)")
            let shown = try await RawHTTP.send(port: port, "GET", try #require(delete.headers["location"])).body
            let undo = try #require(PageReading.formFields(action: "/actions/undo", in: shown))
            #expect(undo == "bottle=\(WebFixture.ana)&command=1")
            let crossed = try await RawHTTP.send(port: port, "POST", "/actions/undo", headers: Self.browser, body: "bottle=\(WebFixture.bea)&command=1")
            #expect(crossed.headers["location"] == "/?done=refused")
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)
            let own = try await RawHTTP.send(port: port, "POST", "/actions/undo", headers: Self.browser, body: undo)
            #expect(own.headers["location"] == "/?done=restored")
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == false)
        }
    }
}
