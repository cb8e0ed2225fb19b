// A goal set on the page (or the API, Home Assistant, the CLI) is shown at once, as today's goal
// marked as waiting for the bottle, by every surface that resolves the bottle through `BottleView`:
// the page, `status`, `/api/v1/status`. The JSON's `goal_ml` keeps its meaning (the goal in force,
// docs/design.md 3.4/3.6) and `pending_goal_ml` carries the waiting one. A `goal_ml` setting
// overrides the bottle's goal, so a goal waiting for the bottle changes nothing shown as the goal.

import BusTestSupport
import Foundation
import History
import Reminding
import Reports
import TestFixtures
import Testing
@testable import Web

@Suite struct WaitingGoalTests {
    @Test("a goal set on the page is today's goal at once, marked as waiting; the API keeps goal_ml and adds pending_goal_ml")
    func shownAtOnce() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let set = try await RawHTTP.send(port: port, "POST", "/actions/goal", headers: form, body: "bottle=\(WebFixture.ana)&goal_ml=1800")
            #expect(set.status == 303)

            let page = try await RawHTTP.send(port: port, "GET", "/")
            let ana = try #require(PageReading.panel(of: WebFixture.ana, in: page.body))
            #expect(ana.contains("<span class=\"goal-ml\">1800</span> ml <small class=\"goal-waiting\">· the bottle takes it at its next sync</small>"), "\(ana)")
            #expect(ana.contains("of 1800 ml"), "the gauge's caption: \(ana)")
            let bea = try #require(PageReading.panel(of: WebFixture.bea, in: page.body))
            #expect(bea.contains("<span class=\"goal-ml\">2500</span> ml</dd>") && !bea.contains("goal-waiting"), "\(bea)")

            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.ana)")
            #expect(status.jsonObject["goal_ml"] as? Int == 2000, "goal_ml is the goal in force: \(status.body)")
            #expect(status.jsonObject["pending_goal_ml"] as? Int == 1800, "\(status.body)")
            let other = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.bea)")
            #expect(other.jsonObject["goal_ml"] as? Int == 2500)
            #expect(other.jsonObject.keys.contains("pending_goal_ml") == false, "\(other.body)")
        }
        // `status`, from the same resolved view.
        let bottle = try #require(try fixture.history.bottles().first { $0.id == WebFixture.ana })
        let views = try BottleViews(configuration: fixture.configuration, history: fixture.history)
        let view = try views.resolve(bottle, at: WebFixture.now)
        #expect(view.goalML == 2000 && view.pendingGoalML == 1800 && view.waitingGoalML == 1800 && view.shownGoalML == 1800)
        let report = try StatusReport.make(view, in: views, at: WebFixture.now)
        let today = try #require(report.textLines().first { $0.hasPrefix("Today:") })
        #expect(today == "Today: 750 ml of 1800 ml (41%) · the bottle takes this goal at its next sync (2000 ml until then)", "\(today)")
        #expect(report.jsonLine().contains("\"pending_goal_ml\":1800"))
    }

    @Test("with a goal_ml setting the waiting goal is only the bottle's: the goal shown stays the setting's")
    func aSettingOverridesIt() async throws {
        let fixture = try WebFixture(settings: ["bottle.\(WebFixture.ana).goal_ml=2200"])
        defer { fixture.remove() }
        _ = try BottleControl(history: fixture.history).queue(.goal(1800), bottle: WebFixture.ana, at: WebFixture.now)
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/")
            let ana = try #require(PageReading.panel(of: WebFixture.ana, in: page.body))
            #expect(ana.contains("<span class=\"goal-ml\">2200</span> ml</dd>") && !ana.contains("goal-waiting"), "\(ana)")
            #expect(ana.contains("Goal 1800 ml"), "still listed as waiting for the bottle: \(ana)")
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.ana)")
            #expect(status.jsonObject["goal_ml"] as? Int == 2200)
            #expect(status.jsonObject["pending_goal_ml"] as? Int == 1800)
        }
    }
}
