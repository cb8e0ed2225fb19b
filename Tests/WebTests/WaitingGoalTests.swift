// A bottle goal set through the command queue (the CLI, the API's `goal`, Home Assistant's number)
// is shown at once, where the bottle's goal is the daily goal, as today's goal marked as waiting
// for the bottle, by every surface that resolves the bottle through `BottleView`: the page,
// `status`, `/api/v1/status`. The JSON's `goal_ml` keeps its meaning (the daily goal in force,
// docs/design.md 3.4/3.6/3.7) and `pending_goal_ml` carries the waiting one. A `goal_ml` setting
// gives the daily goal, so a bottle goal waiting for the bottle changes nothing shown as the goal.

import BusTestSupport
import Foundation
import History
import Reminding
import Reports
import TestFixtures
import Testing
@testable import Web

@Suite struct WaitingGoalTests {
    @Test("a bottle goal queued is today's goal at once, marked as waiting; the API keeps goal_ml and adds pending_goal_ml")
    func shownAtOnce() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let set = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")],
                                             body: #"{"command":"goal","bottle_goal_ml":1800,"bottle":"\#(WebFixture.ana)"}"#)
            #expect(set.status == 202, "\(set.body)")

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
        let bottle = try #require(try fixture.history.bottles.all().first { $0.id == WebFixture.ana })
        let views = try BottleViews(configuration: fixture.configuration, history: fixture.history)
        let view = try views.resolve(bottle, at: WebFixture.now)
        #expect(view.goalML == 2000 && view.pendingGoalML == 1800 && view.waitingGoalML == 1800 && view.shownGoalML == 1800)
        let report = try StatusReport.make(view, in: views, at: WebFixture.now)
        let today = try #require(report.textLines().first { $0.hasPrefix("Today:") })
        #expect(today == "Today: 750 ml of 1800 ml (41%) · the bottle takes this goal at its next sync (2000 ml until then)", "\(today)")
        #expect(report.jsonLine().contains("\"pending_goal_ml\":1800"))
    }

    @Test("with a daily_goal_ml setting the waiting goal is only the bottle's: the goal shown stays the setting's")
    func aSettingOverridesIt() async throws {
        let fixture = try WebFixture(settings: ["bottle.\(WebFixture.ana).daily_goal_ml=2200"])
        defer { fixture.remove() }
        _ = try BottleControl(history: fixture.history).queue(.goal(1800), bottle: WebFixture.ana, at: WebFixture.now)
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/")
            let ana = try #require(PageReading.panel(of: WebFixture.ana, in: page.body))
            // The daily goal, and beside it what the bottle's display shows until it takes 1800.
            #expect(ana.contains("<span class=\"goal-ml\">2200</span> ml <small class=\"bottle-goal\">· the bottle shows 2000 ml</small></dd>")
                    && !ana.contains("goal-waiting"), "\(ana)")
            #expect(ana.contains("Bottle goal 1800 ml"), "still listed as waiting for the bottle: \(ana)")
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.ana)")
            #expect(status.jsonObject["goal_ml"] as? Int == 2200)
            #expect(status.jsonObject["pending_goal_ml"] as? Int == 1800)
        }
    }
}
