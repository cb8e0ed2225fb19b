// The page's goal form and the JSON API take exactly the same goals: the bottle's range
// (`BottleGoal`, docs/protocol.md 3.2), every whole number in it. The form's own constraints
// (min, max, step), which a browser applies before it posts, are part of that: a step of 50 once
// made the page refuse 2210, which the API, the CLI and Home Assistant's command topic took.

import AquavateProtocol
import BusTestSupport
import Foundation
import TestFixtures
import Testing

@Suite struct GoalAgreementTests {
    @Test func theFormAndTheAPIAcceptAndRefuseTheSameGoals() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let page = try await RawHTTP.send(port: port, "GET", "/")
            let input = try #require(PageReading.goalInput(page.body), "the goal form's input")
            let min = try #require(PageReading.attribute("min", of: input).flatMap { Int($0) })
            let max = try #require(PageReading.attribute("max", of: input).flatMap { Int($0) })
            let step = try #require(PageReading.attribute("step", of: input).flatMap { Int($0) })
            #expect(min...max == BottleGoal.rangeML)
            for goal in [-1, 0, 999, 1000, 1001, 2210, 2225, 2500, 3999, 4000, 4001, 20000] {
                // What a browser lets through (HTML's step mismatch counts from min).
                let browser = (min...max).contains(goal) && (goal - min) % step == 0
                let form = try await RawHTTP.send(port: port, "POST", "/actions/goal",
                                                  headers: [("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "text/html")],
                                                  body: "bottle=\(WebFixture.ana)&goal_ml=\(goal)")
                let api = try await RawHTTP.send(port: port, "POST", "/api/v1/commands", headers: [("Content-Type", "application/json")],
                                                 body: #"{"command":"goal","goal_ml":\#(goal),"bottle":"\#(WebFixture.ana)"}"#)
                let accepted = BottleGoal.holds(goal)
                #expect(browser == accepted, "\(goal): the browser \(browser ? "posts" : "refuses") it")
                // The form answers 303 back to the page either way, with its outcome in the address.
                #expect(form.status == 303, "\(goal): the form answered \(form.status)")
                #expect(form.headers["location"] == "/?done=\(accepted ? "goal" : "goal-refused")&goal_ml=\(goal)", "\(goal): \(form.headers)")
                #expect(api.status == (accepted ? 202 : 422), "\(goal): the API answered \(api.status) \(api.body)")
                if !accepted {
                    #expect(api.error == BottleGoal.refusal(goal), "\(goal)")
                    // The page says it in its own words, naming the same range.
                    let told = try await RawHTTP.send(port: port, "GET", form.headers["location"] ?? "/")
                    #expect(told.body.contains("give \(BottleGoal.rangeML.lowerBound) to \(BottleGoal.rangeML.upperBound) ml"), "\(goal)")
                }
            }
        }
    }
}
