// Several bottles on one bridge, live (docs/design.md 6): `run --once` against two `aquavate-sim`
// bottles (each on its own private bus, in turn: one simulated BlueZ holds one bottle), one
// history; then status, history and config per bottle as a person uses them.

import BusTestSupport
import Foundation
import History
import TestFixtures
import Testing

@Suite("several bottles against aquavate-sim")
struct SeveralBottlesLiveTests {
    let live = LiveCommandTests()
    static let firstSerial = "F4:12:FA:00:A3:F2"
    static let secondAddress = "F4:12:FA:00:B0:04"
    /// The simulator's serial is its Wi-Fi MAC: the BLE address − 2.
    static let secondSerial = "F4:12:FA:00:B0:02"

    /// A command that needs no bus.
    func offline(_ arguments: [String]) async throws -> ToolResult {
        try await runTool(LiveCommandTests.bridge, arguments)
    }

    func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test("a second bottle is adopted with --adopt, then synced like the first; histories, status and days stay apart")
    func twoBottlesOneHistory() async throws {
        let shared = TemporaryFolder()
        let db = shared.path + "/history.sqlite"
        try await live.withSimulator(records: 5) { bus, _ in
            let run = try await live.bridge(bus, ["run", "--once", "--db", db])
            #expect(run.status == 0, "\(run)")
        }
        try await live.withSimulator(records: 7, arguments: ["--address", Self.secondAddress]) { bus, _ in
            let ignored = try await live.bridge(bus, ["run", "--once", "--timeout", "3", "--db", db])
            #expect(ignored.status != 0 && ignored.error.contains("ignored"), "a bottle not adopted is left alone: \(ignored)")
            let adopted = try await live.bridge(bus, ["run", "--once", "--adopt", "--db", db])
            #expect(adopted.status == 0, "\(adopted)")
            let again = try await live.bridge(bus, ["run", "--once", "--db", db])
            #expect(again.status == 0 && again.error.contains("had nothing to sync"), "adopted for good: \(again)")
        }
        let history = try DrinkHistory(path: db)
        let stored = try history.drinks.storedDrinks()
        #expect(stored.filter { $0.bottle == Self.firstSerial }.count == 5)
        #expect(stored.filter { $0.bottle == Self.secondSerial }.count == 7)
        #expect(Set(try history.bottles.all().map(\.id)) == [Self.firstSerial, Self.secondSerial])

        let set = try await offline(["config", "set", "bottle.\(Self.secondSerial).daily_goal_ml", "1800", "--db", db])
        #expect(set.status == 0, "\(set)")
        let owner = try await offline(["config", "set", "bottle.\(Self.secondSerial).owner", "Bea", "--db", db])
        #expect(owner.status == 0, "\(owner)")
        let list = try await offline(["config", "list", "--db", db])
        #expect(list.output.contains("bottle.\(Self.secondSerial).daily_goal_ml = 1800  [config set]"), "\(list.output)")

        let status = try await offline(["status", "--json", "--db", db])
        #expect(status.status == 0, "\(status)")
        let reports = try lines(status.output)
        #expect(Set(reports.compactMap { $0["bottle"] as? String }) == [Self.firstSerial, Self.secondSerial])
        #expect(reports.first { $0["bottle"] as? String == Self.secondSerial }?["goal_ml"] as? Int == 1800)
        #expect(reports.first { $0["bottle"] as? String == Self.secondSerial }?["owner"] as? String == "Bea")
        #expect(reports.first { $0["bottle"] as? String == Self.firstSerial }?["goal_ml"] as? Int == 2500)

        let one = try await offline(["history", "--json", "--bottle", Self.secondAddress, "--db", db])
        #expect(one.status == 0, "\(one)")
        let events = try lines(one.output)
        #expect(events.filter { $0["event"] as? String == "drink" }.count == 7)
        #expect(events.allSatisfy { $0["bottle"] as? String == Self.secondSerial }, "\(one.output)")
        let all = try lines(try await offline(["history", "--json", "--db", db]).output)
        let days = all.filter { $0["event"] as? String == "day" }
        #expect(Set(days.compactMap { $0["bottle"] as? String }) == [Self.firstSerial, Self.secondSerial], "one day per bottle and day")
    }
}
