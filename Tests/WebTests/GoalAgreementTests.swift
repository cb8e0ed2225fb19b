// Two goals, two ranges (docs/design.md 3.7), and every surface that sets one of them takes the
// same numbers and refuses the others with one line naming the range:
// - the person's daily goal (`DailyGoal`): `setup --goal` and `config set daily_goal_ml` (the setting's
//   own check, which both call), the page's goal form (its min, max and step included, which a
//   browser applies before it posts) and the API's `daily_goal`;
// - the bottle's goal (`BottleGoal`): the command queue that `bottle goal` and Home Assistant's
//   number go through, and the API's `goal`, under its key and under its earlier one.
// One set of inputs runs through all of them. (A step of 50 on the form once made the page refuse
// 2210, which the API, the CLI and Home Assistant's command topic took.)

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import Reminders
import Settings
import TestFixtures
import Testing

@Suite struct GoalAgreementTests {
    static let inputs = [-1, 0, 1, 999, 1000, 2210, 2225, 4000, 4001, 5000, 20000, 20001, 1_000_001]

    @Test func setupThePageAndTheAPITakeTheSameDailyGoals() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let html = [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html")]
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/")
            let input = try #require(PageReading.goalInput(page.body), "the goal form's input")
            let min = try #require(PageReading.attribute("min", of: input).flatMap { Int($0) })
            let max = try #require(PageReading.attribute("max", of: input).flatMap { Int($0) })
            let step = try #require(PageReading.attribute("step", of: input).flatMap { Int($0) })
            #expect(min...max == DailyGoal.rangeML)
            for goal in Self.inputs {
                let accepted = DailyGoal.refusal(goal) == nil
                #expect(accepted == DailyGoal.rangeML.contains(goal))
                // `setup --goal` and `config set daily_goal_ml`.
                let setting: String?
                do { setting = try SettingCatalog.requireKey(Setting.dailyGoalML.name).normalize(String(goal)) } catch let error as SettingError {
                    setting = nil
                    #expect(error.description.contains("from \(DailyGoal.rangeML.lowerBound) to \(DailyGoal.rangeML.upperBound)"), "\(goal): \(error)")
                }
                #expect((setting != nil) == accepted, "\(goal): the setting \(setting == nil ? "refuses" : "takes") it")
                // What a browser lets through (HTML's step mismatch counts from min).
                let browser = (min...max).contains(goal) && (goal - min) % step == 0
                #expect(browser == accepted, "\(goal): the browser \(browser ? "posts" : "refuses") it")
                let form = try await RawHTTP.send(port: port, "POST", "/actions/goal", headers: html, body: "bottle=\(WebFixture.ana)&daily_goal_ml=\(goal)")
                #expect(form.status == 303, "\(goal): the form answered \(form.status)")
                #expect(form.headers["location"] == "/?done=\(accepted ? "goal" : "goal-refused")&daily_goal_ml=\(goal)", "\(goal): \(form.headers)")
                let api = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")],
                                                 body: #"{"command":"daily_goal","daily_goal_ml":\#(goal),"bottle":"\#(WebFixture.ana)"}"#)
                #expect(api.status == (accepted ? 202 : 422), "\(goal): the API answered \(api.status) \(api.body)")
                if accepted {
                    // The daily goal in force at once, and the bottle asked to show it clamped.
                    #expect(api.jsonObject["daily_goal_ml"] as? Int == goal && api.jsonObject["bottle_goal_ml"] as? Int == BottleGoal.clamped(goal),
                            "\(goal): \(api.body)")
                    #expect(try fixture.history.settings.value("bottle.\(WebFixture.ana).daily_goal_ml") == String(goal))
                    let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.ana)")
                    #expect(status.jsonObject["daily_goal_ml"] as? Int == goal && status.jsonObject["goal_ml"] as? Int == goal, "\(goal): \(status.body)")
                    #expect(status.jsonObject["pending_goal_ml"] as? Int == BottleGoal.clamped(goal), "\(goal): \(status.body)")
                } else {
                    #expect(api.error == DailyGoal.refusal(goal), "\(goal)")
                    // The page says it in its own words, naming the same range.
                    let told = try await RawHTTP.send(port: port, "GET", form.headers["location"] ?? "/")
                    #expect(told.body.contains("give \(DailyGoal.rangeML.lowerBound) to \(DailyGoal.rangeML.upperBound) ml"), "\(goal)")
                }
            }
            // The other person's goal was never touched.
            let bea = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.bea)")
            #expect(bea.jsonObject["daily_goal_ml"] as? Int == 2500 && bea.jsonObject.keys.contains("pending_goal_ml") == false, "\(bea.body)")
        }
    }

    @Test func theCommandQueueAndTheAPITakeTheSameBottleGoals() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            for goal in Self.inputs {
                let accepted = BottleGoal.refusal(goal) == nil
                #expect(accepted == BottleGoal.rangeML.contains(goal))
                // `bottle goal ML` and Home Assistant's number.
                var queued: String?
                do {
                    _ = try BottleControl(history: fixture.history).queue(.goal(goal), bottle: WebFixture.ana, at: WebFixture.now)
                } catch let refused as BottleRequestRefused {
                    queued = refused.description
                }
                #expect((queued == nil) == accepted, "\(goal): the queue \(queued ?? "takes it")")
                if !accepted { #expect(queued == BottleGoal.refusal(goal)) }
                for key in ["bottle_goal_ml", "goal_ml"] {
                    let api = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")],
                                                     body: #"{"command":"goal","\#(key)":\#(goal),"bottle":"\#(WebFixture.ana)"}"#)
                    #expect(api.status == (accepted ? 202 : 422), "\(goal) as \(key): the API answered \(api.status) \(api.body)")
                    if !accepted { #expect(api.error == BottleGoal.refusal(goal), "\(goal) as \(key)") }
                }
            }
            // A bottle goal is not the daily goal: with none set, the bottle's goal still gives it.
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.ana)")
            #expect(status.jsonObject["daily_goal_ml"] as? Int == 2000 && status.jsonObject["bottle_goal_ml"] as? Int == 2000, "\(status.body)")
            #expect(try fixture.history.settings.value("bottle.\(WebFixture.ana).daily_goal_ml") == nil)
        }
    }

    @Test func theDailyGoalAnswerNamesTheQueuedCommandOrNull() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let body = #"{"command":"daily_goal","daily_goal_ml":2200,"bottle":"\#(WebFixture.ana)"}"#
            let first = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")], body: body)
            let id = try #require(first.jsonObject["command_id"] as? Int, "\(first.body)")
            #expect(first.body.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"bottle":"\#(WebFixture.ana)","bottle_goal_ml":2200,"command_id":\#(id),"daily_goal_ml":2200,"event":"daily_goal"}"#)
            // The bottle is about to show 2200 already: nothing is queued, and the key says so as null.
            let again = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")], body: body)
            #expect(again.body.trimmingCharacters(in: .whitespacesAndNewlines)
                == #"{"bottle":"\#(WebFixture.ana)","bottle_goal_ml":2200,"command_id":null,"daily_goal_ml":2200,"event":"daily_goal"}"#)
        }
    }
}
