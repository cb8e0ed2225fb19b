// The page a person opens: what it shows against the history, its forms, its languages.

import BusTestSupport
import Timekeeping
import Foundation
import History
import Locking
@testable import Reports
@testable import Settings
import TestFixtures
import Testing
@testable import Web

@Suite struct DashboardTests {
    @Test func eachBottleHasItsPanelWithItsDay() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let reply = try await RawHTTP.send(port: port, "GET", "/")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "text/html; charset=utf-8")
            let page = reply.body
            #expect(page.components(separatedBy: "<section class=\"bottle c").count == 3)
            #expect(page.contains("data-bottle=\"AQ-ANA-0001\""))
            #expect(page.contains("class=\"today-ml\" data-ml=\"750\""))
            #expect(page.contains("class=\"today-ml\" data-ml=\"400\""))
            // A bottle's name is whatever it advertised: escaped, never markup.
            #expect(page.contains("Bea &lt;script&gt;"))
            #expect(page.components(separatedBy: "<script").count == 2, "the page's own script only")
            // Ana's drinks of today, each with its delete form; 7, 30 and 365-day charts.
            #expect(page.components(separatedBy: "action=\"/actions/delete\"").count == 5)
            for span in [7, 30, 365] { #expect(page.contains("data-days=\"\(span)\"")) }
            #expect(page.contains("class=\"pace\""))
            #expect(page.contains("class=\"reminders-today\">0/12<"))
            #expect(page.contains("81%"))
            #expect(page.contains("420 ml"))
            // Ana met her goal (2000) the last 7 days; Bea (2500) never.
            #expect(page.contains("class=\"streak\">7 days"))
            #expect(page.contains("class=\"streak\">0 days"))
            // Nothing from anywhere else.
            let links = page.components(separatedBy: "http").dropFirst().map { String($0.prefix(25)) }
            #expect(links.allSatisfy { $0.hasPrefix("://www.w3.org/2000/svg") }, "\(links)")
        }
    }

    @Test func theFormsSetTheGoalDeleteADrinkAndSwitchTheLimit() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let record = try fixture.anaSecondDrinkToday
        try await fixture.withServer { port in
            // As a browser posts the page's forms: asking for HTML.
            let form = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")]
            let goal = try await RawHTTP.send(port: port, "POST", "/actions/goal", headers: form, body: "bottle=AQ-ANA-0001&daily_goal_ml=2300")
            #expect(goal.status == 303)
            #expect(goal.headers["location"] == "/?done=goal&daily_goal_ml=2300")
            // The person's daily goal (the bottle's own key), and the bottle asked to show it.
            #expect(try fixture.history.settings.value("bottle.AQ-ANA-0001.daily_goal_ml") == "2300")
            #expect(try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).filter { $0.command == "goal" }.map(\.argument) == ["2300"])
            let page = try await RawHTTP.send(port: port, "GET", "/?done=goal&daily_goal_ml=2300")
            #expect(page.body.contains("role=\"status\">Daily goal 2300 ml; the bottle shows it from its next sync."))
            #expect(page.body.contains("<li data-command=\"1\">Bottle goal 2300 ml</li>"))
            #expect(page.body.contains("value=\"2300\" required"), "the field shows the daily goal")

            let delete = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: form, body: "bottle=AQ-ANA-0001&record_id=\(record)")
            #expect(delete.status == 303)
            #expect(delete.headers["location"] == "/?done=deleted&command=2")
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)

            let limit = try await RawHTTP.send(port: port, "POST", "/actions/daily-limit", headers: form, body: "bottle=AQ-ANA-0001&enabled=false")
            #expect(limit.status == 303)
            #expect(limit.headers["location"] == "/?done=limit-off")
            #expect(try fixture.history.settings.value("bottle.AQ-ANA-0001.reminders.daily_limit") == "false")
            let after = try await RawHTTP.send(port: port, "GET", "/")
            #expect(after.body.contains("class=\"reminders-today\">0<"))
            #expect(after.body.contains("class=\"today-ml\" data-ml=\"450\""))

            // Refused: back to the page (post/redirect/get), which says why in the page's words.
            let low = try await RawHTTP.send(port: port, "POST", "/actions/goal", headers: form, body: "bottle=AQ-ANA-0001&daily_goal_ml=25000")
            #expect(low.status == 303)
            #expect(low.headers["location"] == "/?done=goal-refused&daily_goal_ml=25000")
            let told = try await RawHTTP.send(port: port, "GET", low.headers["location"] ?? "/")
            #expect(told.body.contains("role=\"alert\">25000 ml is not a daily goal: give 1 to 20000 ml."))
            let junk = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: form, body: "bottle=AQ-ANA-0001&record_id=x")
            #expect(junk.status == 303)
            #expect(junk.headers["location"] == "/?done=delete-refused")
            // A client that does not ask for HTML (a script) gets design 3.6's 4xx JSON error, in
            // the same words, and nothing changes.
            let script = try await RawHTTP.send(port: port, "POST", "/actions/goal", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                                body: "bottle=AQ-ANA-0001&daily_goal_ml=25000")
            #expect(script.status == 422)
            #expect(script.error == "25000 ml is not a daily goal: give 1 to 20000 ml.")
            let scriptDelete = try await RawHTTP.send(port: port, "POST", "/actions/delete", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                                      body: "bottle=AQ-ANA-0001&record_id=x")
            #expect(scriptDelete.status == 422 && scriptDelete.headers["content-type"]?.hasPrefix("application/json") == true)
            // No bottle named: the page's forms always name one, so this is no form of the page; a
            // 400 with a way back, never command-line advice, and nothing queued.
            let unnamed = try await RawHTTP.send(port: port, "POST", "/actions/goal", headers: form, body: "daily_goal_ml=2200")
            #expect(unnamed.status == 400)
            #expect(unnamed.body.contains("href=\"/\""))
            #expect(!unnamed.body.contains("--bottle"))
            #expect(try fixture.history.commands.all(bottle: WebFixture.ana, statuses: [.pending]).filter { $0.command == "goal" }.map(\.argument) == ["2300"])
        }
    }

    @Test func thePageSpeaksSpanish() throws {
        let fixture = try WebFixture(settings: ["messages.locale=es"])
        defer { fixture.remove() }
        let page = DashboardPage.render(try DashboardModel.make(fixture.context))
        #expect(page.contains("<html lang=\"es\">"))
        #expect(page.contains("Tragos de hoy"))
        #expect(page.contains("viernes"))  // 20 November 2026 is a Friday
    }

    @Test func theChartFileHasADayABar() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let svg = try ChartFile.svg(history: fixture.history, configuration: fixture.configuration, days: 30, now: WebFixture.now)
        #expect(svg.hasPrefix("<?xml"))
        #expect(svg.contains("xmlns=\"http://www.w3.org/2000/svg\""))
        // A bar a day, named; 8 days with drinks, the 22 before the first drink no data (not 0 ml),
        // both bottles summed: 2100 + 1500.
        #expect(svg.components(separatedBy: "class=\"bar").count == 31)
        #expect(svg.components(separatedBy: "class=\"bar nodata\"").count == 23)
        #expect(svg.components(separatedBy: "data-ml=\"0\"").count == 1)
        #expect(svg.contains("data-ml=\"3600\""))
        #expect(svg.contains("data-date=\"2026-11-20\" data-ml=\"1150\"><title>Friday 20 November: 1150 ml, today, so far</title>"))
        #expect(svg.contains("class=\"goal\""))
        // A file has no page around it: it carries its own colours.
        #expect(svg.contains("<style>"))
    }

    @Test func aServerThatCannotListenLeavesTheDaemonAlone() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            // The port is taken: the service logs and returns; it does not throw into the group.
            let second = try WebServer(context: fixture.context, address: ListenAddress(port: port), logger: .init(label: "test"))
            try await second.serviceBesideDaemon().run()
            #expect(try await RawHTTP.send(port: port, "GET", "/api/v1/status").status == 200)
        }
    }
}

@Suite struct DayEventJSONTests {
    /// The day event is written by hand (for speed): it must read back as the serializer's would.
    @Test func aDayLineIsTheJSONOfItsFields() throws {
        let nasty = "a\"b\\c\n\u{1}é/💧"
        let line = BridgeEvent.day(.init(date: "2026-11-20", totalML: 1234, drinks: 5, goalML: 2500, bottle: nasty)).jsonLine()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["bottle"] as? String == nasty)
        #expect(object["date"] as? String == "2026-11-20")
        #expect(object["total_ml"] as? Int == 1234 && object["drinks"] as? Int == 5 && object["goal_ml"] as? Int == 2500)
        #expect(object["event"] as? String == "day")
        let plain = BridgeEvent.day(.init(date: "2026-11-20", totalML: 0, drinks: 0, goalML: 2500)).jsonLine()
        #expect(plain == #"{"daily_goal_ml":2500,"date":"2026-11-20","drinks":0,"event":"day","goal_ml":2500,"total_ml":0}"#)
    }

    @Test func chartNumbersHaveOneDecimalAtMost() {
        #expect(Charts.f(12) == "12")
        #expect(Charts.f(12.34) == "12.3")
        #expect(Charts.f(-0.25) == "-0.3" || Charts.f(-0.25) == "-0.2")
        #expect(Charts.f(-3.5) == "-3.5")
        #expect(Charts.f(.nan) == "0")
    }
}

@Suite struct SharedRenderTests {
    /// Shared while under way, never kept: a request after a rendering gets a new one.
    @Test func aFinishedRenderingIsNotReused() async throws {
        let shared = SharedRenders()
        let count = Locked(0)
        for expected in 1...3 {
            let bytes = try await shared.bytes(for: "/") {
                let n = count.withLock { value -> Int in
                    value += 1
                    return value
                }
                return Array("render \(n)".utf8)
            }
            #expect(String(decoding: bytes, as: UTF8.self) == "render \(expected)")
        }
    }

    @Test func simultaneousRequestsAllGetTheRendering() async throws {
        let shared = SharedRenders()
        let count = Locked(0)
        let results = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    String(decoding: try await shared.bytes(for: "/metrics") {
                        count.withLock { $0 += 1 }
                        return Array("metrics".utf8)
                    }, as: UTF8.self)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results == Array(repeating: "metrics", count: 20))
        #expect((1...20).contains(count.withLock { $0 }))
    }
}
