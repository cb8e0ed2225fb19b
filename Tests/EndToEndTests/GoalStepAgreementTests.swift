// Home Assistant's bottle goal number and the page's daily goal form both step by a whole
// millilitre, `BottleGoal`'s step: the firmware takes any whole number of millilitres
// (docs/protocol.md 3.2), and a daily goal asked of the page is shown on the bottle clamped, never
// rounded (docs/design.md 3.7). Home Assistant's number once stepped by 50 while the page, the API
// and the CLI took any whole number, so a goal such as 2210 could be set everywhere but there.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import Locking
import MQTT
import Settings
@testable import Sinks
import TestFixtures
import Testing
import Timekeeping
import Web

@Suite struct GoalStepAgreementTests {
    @Test func homeAssistantsGoalStepIsThePagesStep() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("goal-step-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("history.sqlite").path)
        try history.bottles.save(BottleRecord(id: "AQ-STEP-0001", name: "Aquavate-S001", serial: "AQ-STEP-0001", address: "AA:00:00:00:00:09",
                                              goalML: 2000, lastSeen: WallInstant(secondsSince1970: 1_795_186_000), lastSync: WallInstant(secondsSince1970: 1_795_186_000)))
        let context = WebContext(history: history, baseConfiguration: Configuration(), clock: ManualClock(secondsSince1970: 1_795_186_800))
        let pageStep = try await Self.pageStep(context)

        let sink = try MQTTSinkConfiguration(url: "mqtt://127.0.0.1", bottleAddress: "AA:00:00:00:00:09", bottleName: "Aquavate-S001",
                                             firmwareVersion: "1.4.2", bottleSerial: "AQ-STEP-0001", bottleModel: "Puck v1.0",
                                             bridgeID: "kitchen-pi", bridgeVersion: "0.1.0", supportURL: "https://example.org/aquavate-bridge")
        // The discovery message as it crosses the wire.
        let discovery = try #require(try JSONSerialization.jsonObject(with: Data(HomeAssistantDiscovery.payload(for: sink).text.utf8)) as? [String: Any])
        let goal = try #require((discovery["cmps"] as? [String: Any])?["goal_setting"] as? [String: Any], "\(discovery)")
        let homeAssistantStep = try #require(goal["step"] as? Int, "\(goal)")

        #expect(homeAssistantStep == pageStep, "Home Assistant steps by \(homeAssistantStep) ml, the page by \(pageStep) ml")
        #expect(pageStep == BottleGoal.stepML)
        #expect(goal["min"] as? Int == BottleGoal.rangeML.lowerBound && goal["max"] as? Int == BottleGoal.rangeML.upperBound)
    }

    /// The `step` of the page's goal field, as a browser reads it.
    static func pageStep(_ context: WebContext) async throws -> Int {
        let step = Locked<Int?>(nil)
        try await WebServing.withServer(context) { port in
            let page = try await RawHTTP.send(port: port, "GET", "/")
            let input = try #require(PageReading.goalInput(page.body), "the goal form's input: \(page.body.prefix(300))")
            step.withLock { $0 = PageReading.attribute("step", of: input).flatMap { Int($0) } }
        }
        return try #require(step.withLock { $0 })
    }
}
