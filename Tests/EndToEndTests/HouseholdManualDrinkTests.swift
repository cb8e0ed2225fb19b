// A drink added by hand on one bridge of a household (`log drink`, beside its running daemon)
// reaches the other bridge as a manual drink, and so does its delete; neither bridge queues a
// command for the bottle. Real parts: a real mosquitto, two `aquavate-bridge run` daemons, each
// with its own private bus and `aquavate-sim` bottle.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

@Suite("a household: a drink added by hand on one bridge")
struct HouseholdManualDrinkTests {
    /// The first id of the drinks added by hand (docs/design.md 3.4).
    static let firstManualID = 2_147_483_648
    /// (bottle#record id) → (manual, deleted) of every drink at `path`; empty before the file exists.
    func drinks(_ path: String) -> [String: [Bool]] {
        guard FileManager.default.fileExists(atPath: path), let history = try? DrinkHistory(path: path),
              let stored = try? history.storedDrinks() else { return [:] }
        return Dictionary(stored.map { ("\($0.bottle)#\($0.recordID)", [$0.drink.manual, $0.deleted]) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("log drink on the kitchen's bridge reaches the office's as manual, its delete too, no command for a bottle")
    func manualDrinkReplicates() async throws {
        try await withPrivateBus { kitchenBus in
            try await withPrivateBus { officeBus in
                let folder = TemporaryFolder()
                let live = LiveCommandTests()
                try await live.startSimulator(on: kitchenBus, folder: folder, records: 2, name: "kitchen-sim")
                try await live.startSimulator(on: officeBus, folder: folder, records: 3, arguments: ["--address", HouseholdLiveTests.officeAddress],
                                              name: "office-sim")
                let port = try freeTCPPort()
                let broker = try startMosquitto(on: kitchenBus, in: folder, port: port)
                defer { broker.killNow() }
                let kitchenDB = folder.path + "/kitchen.sqlite", officeDB = folder.path + "/office.sqlite"
                for path in [kitchenDB, officeDB] { _ = try DrinkHistory(path: path) }
                let household = HouseholdLiveTests()
                let kitchen = try household.daemon(kitchenBus, db: kitchenDB, id: "kitchen", port: port)
                let office = try household.daemon(officeBus, db: officeDB, id: "office", port: port)
                try await waitUntil(.seconds(40), "both histories to hold the bottles' 5 drinks") {
                    drinks(kitchenDB).count == 5 && drinks(officeDB).count == 5
                }

                let logged = try await live.bridge(kitchenBus, ["log", "drink", "300", "--bottle", HouseholdLiveTests.kitchenSerial, "--db", kitchenDB])
                #expect(logged.status == 0, "\(logged)")
                let key = "\(HouseholdLiveTests.kitchenSerial)#\(Self.firstManualID)"
                do {
                    try await waitUntil(.seconds(40), "the manual drink to reach the office") { drinks(officeDB)[key] != nil }
                } catch {
                    Issue.record("KITCHEN:\n\(kitchenBus.log("kitchen"))\nOFFICE:\n\(officeBus.log("office"))")
                    throw error
                }
                #expect(drinks(officeDB)[key] == [true, false], "stored manual")
                #expect(try DrinkHistory(path: officeDB).highestRecordID(bottle: HouseholdLiveTests.kitchenSerial) == 2,
                        "the bottle's ids there never see it")
                let listed = try await runTool(LiveCommandTests.bridge, ["history", "--json", "--bottle", HouseholdLiveTests.kitchenSerial, "--db", officeDB])
                #expect(listed.output.split(separator: "\n").contains { $0.contains(#""amount_ml":300"#) && $0.contains(#""manual":true"#) }, "\(listed)")

                let deleted = try await live.bridge(kitchenBus, ["bottle", "delete", "\(Self.firstManualID)", "--db", kitchenDB])
                #expect(deleted.status == 0, "\(deleted)")
                try await waitUntil(.seconds(40), "the delete to reach the office") { drinks(officeDB)[key] == [true, true] }
                for path in [kitchenDB, officeDB] {
                    #expect(try DrinkHistory(path: path).commands().isEmpty, "no command for a bottle at \(path)")
                }
                kitchen.send(SIGTERM)
                office.send(SIGTERM)
                #expect(await kitchen.waitForExit(timeout: .seconds(20)) == 0, "\(kitchenBus.log("kitchen"))")
                #expect(await office.waitForExit(timeout: .seconds(20)) == 0, "\(officeBus.log("office"))")
            }
        }
    }
}
