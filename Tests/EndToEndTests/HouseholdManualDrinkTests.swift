// A drink added by hand on one bridge of a household (`log drink`, beside its running daemon)
// reaches the other bridge as a manual drink, and so does its delete; neither bridge queues a
// command for the bottle. Two bridges that add one for the same bottle at the same moment give
// them different ids, and a delete by id removes exactly that one on both. Real parts: a real
// mosquitto, two `aquavate-bridge run` daemons, each with its own private bus and
// `aquavate-sim` bottle.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

@Suite("a household: a drink added by hand on one bridge")
struct HouseholdManualDrinkTests {
    /// (bottle#record id) → (manual, deleted) of every drink at `path`; empty before the file exists.
    func drinks(_ path: String) -> [String: [Bool]] {
        guard FileManager.default.fileExists(atPath: path), let history = try? DrinkHistory(path: path),
              let stored = try? history.drinks.storedDrinks() else { return [:] }
        return Dictionary(stored.map { ("\($0.bottle)#\($0.recordID)", [$0.drink.manual, $0.deleted]) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("log drink on the kitchen's bridge reaches the office's as manual, its delete too, no command for a bottle")
    func manualDrinkReplicates() async throws {
        try await HouseholdOfTwo.run(kitchenRecords: 2, officeRecords: 3, expectCleanExit: true) { kitchen, office, _, _ in
            let live = LiveCommandTests()
            let kitchenBus = kitchen.bus, officeBus = office.bus, kitchenDB = kitchen.db, officeDB = office.db

            let logged = try await live.bridge(kitchenBus, ["log", "drink", "300", "--bottle", HouseholdLiveTests.kitchenSerial, "--db", kitchenDB])
            #expect(logged.status == 0, "\(logged)")
            let added = try #require(try DrinkHistory(path: kitchenDB).drinks.storedDrinks().first(where: \.drink.manual))
            let key = "\(HouseholdLiveTests.kitchenSerial)#\(added.recordID)"
            do {
                try await waitUntil(.seconds(40), "the manual drink to reach the office") { drinks(officeDB)[key] != nil }
            } catch {
                Issue.record("KITCHEN:\n\(kitchenBus.log("kitchen"))\nOFFICE:\n\(officeBus.log("office"))")
                throw error
            }
            #expect(drinks(officeDB)[key] == [true, false], "stored manual")
            #expect(try DrinkHistory(path: officeDB).drinks.highestRecordID(bottle: HouseholdLiveTests.kitchenSerial) == 2,
                    "the bottle's ids there never see it")
            let listed = try await runTool(LiveCommandTests.bridge, ["history", "--json", "--bottle", HouseholdLiveTests.kitchenSerial, "--db", officeDB])
            #expect(listed.output.split(separator: "\n").contains { $0.contains(#""amount_ml":300"#) && $0.contains(#""manual":true"#) }, "\(listed)")

            let deleted = try await live.bridge(kitchenBus, ["bottle", "delete", "\(added.recordID)", "--db", kitchenDB])
            #expect(deleted.status == 0, "\(deleted)")
            try await waitUntil(.seconds(40), "the delete to reach the office") { drinks(officeDB)[key] == [true, true] }
            for path in [kitchenDB, officeDB] {
                #expect(try DrinkHistory(path: path).commands.all().isEmpty, "no command for a bottle at \(path)")
            }
        }
    }

    /// The hand-added drinks at `path`: record id → (origin, deleted).
    func manualDrinks(_ path: String) -> [UInt32: Bool] {
        guard let history = try? DrinkHistory(path: path), let stored = try? history.drinks.storedDrinks() else { return [:] }
        return Dictionary(stored.filter(\.drink.manual).map { ($0.recordID, $0.deleted) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("both bridges add a drink for the same bottle at the same second: two ids, and deleting one deletes exactly it on both")
    func sameMomentTwoIdsOneDelete() async throws {
        try await HouseholdOfTwo.run(kitchenRecords: 2, officeRecords: 3, prepare: { parts in
            // The office has synced the kitchen's bottle before (it is adopted there too), so a
            // drink can be added for it on either bridge.
            try DrinkHistory(path: parts.officeDB).bottles.save(BottleRecord(id: HouseholdLiveTests.kitchenSerial,
                                                                             serial: HouseholdLiveTests.kitchenSerial))
        }, expectCleanExit: true) { kitchen, office, _, _ in
            let live = LiveCommandTests()
            let kitchenBus = kitchen.bus, officeBus = office.bus, kitchenDB = kitchen.db, officeDB = office.db

            // The same bottle, the same second, on both at once (each before it hears of the other's).
            let time = ISO8601Text.format(WallInstant(secondsSince1970: (Date().timeIntervalSince1970 - 120).rounded(.down)))
            let serial = HouseholdLiveTests.kitchenSerial
            async let inKitchen = live.bridge(kitchenBus, ["log", "drink", "300", "--at", time, "--bottle", serial, "--db", kitchenDB])
            async let inOffice = live.bridge(officeBus, ["log", "drink", "450", "--at", time, "--bottle", serial, "--db", officeDB])
            let (kitchenLogged, officeLogged) = try await (inKitchen, inOffice)
            #expect(kitchenLogged.status == 0 && officeLogged.status == 0, "\(kitchenLogged) \(officeLogged)")
            let kitchenID = try #require(manualDrinks(kitchenDB).keys.first)
            let officeID = try #require(manualDrinks(officeDB).keys.first)
            #expect(kitchenID != officeID, "each bridge's own id")
            do {
                try await waitUntil(.seconds(40), "each drink to reach the other bridge") {
                    manualDrinks(kitchenDB) == [kitchenID: false, officeID: false] && manualDrinks(officeDB) == [kitchenID: false, officeID: false]
                }
            } catch {
                Issue.record("KITCHEN \(manualDrinks(kitchenDB)):\n\(kitchenBus.log("kitchen"))\nOFFICE \(manualDrinks(officeDB)):\n\(officeBus.log("office"))")
                throw error
            }

            // The kitchen deletes its own by its id: that one goes on both, the office's stays on both.
            let deleted = try await live.bridge(kitchenBus, ["bottle", "delete", "\(kitchenID)", "--bottle", serial, "--db", kitchenDB])
            #expect(deleted.status == 0, "\(deleted)")
            try await waitUntil(.seconds(40), "the delete to reach the office") { manualDrinks(officeDB)[kitchenID] == true }
            for path in [kitchenDB, officeDB] {
                #expect(manualDrinks(path) == [kitchenID: true, officeID: false], "exactly the kitchen's deleted at \(path)")
                let amounts = try DrinkHistory(path: path).drinks.storedDrinks(includeDeleted: false).filter(\.drink.manual).map(\.amountML)
                #expect(amounts == [450], "the office's 450 ml still counts at \(path)")
            }
        }
    }
}
