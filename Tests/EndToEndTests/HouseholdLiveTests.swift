// Several bridges, one broker (docs/design.md 6), with real parts: a real mosquitto and two
// `aquavate-bridge run` daemons, each with its own private bus and `aquavate-sim` bottle. Each
// bridge's drinks reach the other's history through the broker, exactly once; a bridge that
// was away gets what it missed (a deletion made meanwhile) from its persistent session.

import BusTestSupport
import Foundation
import History
@testable import Household
import Locking
import Logging
@testable import MQTT
import ProcessSupport
@testable import Sinks
import TestFixtures
import Testing
import Timekeeping

@Suite("a household of bridges on one mosquitto")
struct HouseholdLiveTests {
    static let kitchenSerial = "F4:12:FA:00:A3:F2"
    static let officeAddress = "F4:12:FA:00:B0:04"
    static let officeSerial = "F4:12:FA:00:B0:02"

    func daemon(_ bus: PrivateBus, db: String, id: String, port: Int) throws -> ChildProcess {
        try HouseholdOfTwo.daemon(bus, db: db, id: id, url: "mqtt://127.0.0.1:\(port)")
    }

    /// (bottle, record id) → deleted, of every drink in the history at `path` (none before the
    /// file exists: opening it would race the daemon's own migration).
    func drinks(_ path: String) -> [String: Bool] {
        guard FileManager.default.fileExists(atPath: path), let history = try? DrinkHistory(path: path), let stored = try? history.drinks.storedDrinks() else { return [:] }
        return Dictionary(stored.map { ("\($0.bottle)#\($0.recordID)", $0.deleted) }, uniquingKeysWith: { $0 || $1 })
    }

    @Test("two bridges exchange their drinks through the broker; one away meanwhile catches up, deletions too")
    func drinksConverge() async throws {
        try await HouseholdOfTwo.withParts(kitchenRecords: 5, officeRecords: 7) { parts in
            let live = LiveCommandTests()
            let kitchenBus = parts.kitchenBus, officeBus = parts.officeBus, port = parts.port, kitchenDB = parts.kitchenDB, officeDB = parts.officeDB
            // The office first: it syncs its bottle and publishes with nobody listening yet.
            var office = try daemon(officeBus, db: officeDB, id: "office", port: port)
            try await waitUntil(.seconds(30), "the office to sync its bottle (\(officeBus.log("office")))") {
                drinks(officeDB).count == 7
            }
            // The kitchen joins: its hello makes the office publish again; its own drinks go out.
            let kitchen = try daemon(kitchenBus, db: kitchenDB, id: "kitchen", port: port)
            do {
                try await waitUntil(.seconds(30), "both histories to hold all 12 drinks") {
                    drinks(kitchenDB).count == 12 && drinks(officeDB).count == 12
                }
            } catch {
                Issue.record("kitchen \(drinks(kitchenDB).count), office \(drinks(officeDB).count)\nKITCHEN:\n\(kitchenBus.log("kitchen"))\nOFFICE:\n\(officeBus.log("office"))")
                throw error
            }
            #expect(drinks(kitchenDB) == drinks(officeDB), "the same drinks, each once")
            #expect(Set(drinks(kitchenDB).keys.map { String($0.split(separator: "#")[0]) }) == [Self.kitchenSerial, Self.officeSerial])
            let kitchenHistory = try DrinkHistory(path: kitchenDB)
            #expect(try kitchenHistory.bottles.all().map(\.id) == [Self.kitchenSerial], "another bridge's bottle is not adopted here")
            let officeDrinks = try await runTool(LiveCommandTests.bridge, ["history", "--json", "--bottle", Self.officeSerial, "--db", kitchenDB])
            #expect(officeDrinks.status == 0 && officeDrinks.output.split(separator: "\n").filter { $0.contains(#""event":"drink""#) }.count == 7,
                    "the kitchen shows the office's bottle by its serial: \(officeDrinks)")

            // The office goes away; a drink is deleted in the kitchen meanwhile.
            office.send(SIGTERM)
            #expect(await office.waitForExit(timeout: .seconds(20)) == 0, "\(officeBus.log("office"))")
            let delete = try await live.bridge(kitchenBus, ["bottle", "delete", "3", "--db", kitchenDB])
            #expect(delete.status == 0, "\(delete)")
            // Back: the deletion waits for it in its session.
            office = try daemon(officeBus, db: officeDB, id: "office", port: port)
            try await waitUntil(.seconds(40), "the deletion to reach the office (\(officeBus.log("office")))") {
                drinks(officeDB)["\(Self.kitchenSerial)#3"] == true
            }
            #expect(drinks(kitchenDB) == drinks(officeDB))
            #expect(drinks(officeDB).values.filter { $0 }.count == 1)
            kitchen.send(SIGTERM)
            office.send(SIGTERM)
            #expect(await kitchen.waitForExit(timeout: .seconds(20)) == 0, "\(kitchenBus.log("kitchen"))")
            #expect(await office.waitForExit(timeout: .seconds(20)) == 0, "\(officeBus.log("office"))")
        }
    }

    @Test("three bridges; the broker killed and restarted without its sessions while a bridge syncs: it syncs alone, and all converge after")
    func brokerRestart() async throws {
        try await withPrivateBus { kitchenBus in
            try await withPrivateBus { officeBus in
                try await withPrivateBus { atticBus in
                    let folder = TemporaryFolder()
                    let live = LiveCommandTests()
                    try await live.startSimulator(on: kitchenBus, folder: folder, records: 5, name: "kitchen-sim")
                    try await live.startSimulator(on: officeBus, folder: folder, records: 7, arguments: ["--address", Self.officeAddress],
                                                  name: "office-sim")
                    try await live.startSimulator(on: atticBus, folder: folder, records: 4, arguments: ["--address", "F4:12:FA:00:C0:04"],
                                                  name: "attic-sim")
                    let port = try freeTCPPort()
                    var broker = try startMosquitto(on: kitchenBus, in: folder, port: port)
                    let dbs = ["kitchen", "office", "attic"].map { folder.path + "/\($0).sqlite" }
                    for path in dbs { _ = try DrinkHistory(path: path) }
                    let office = try daemon(officeBus, db: dbs[1], id: "office", port: port)
                    let attic = try daemon(atticBus, db: dbs[2], id: "attic", port: port)
                    try await waitUntil(.seconds(30), "office and attic to share their 11 drinks") {
                        drinks(dbs[1]).count == 11 && drinks(dbs[2]).count == 11
                    }
                    // The broker dies; the kitchen starts and syncs its bottle meanwhile.
                    broker.killNow()
                    _ = await broker.waitForExit(timeout: .seconds(10))
                    let kitchen = try daemon(kitchenBus, db: dbs[0], id: "kitchen", port: port)
                    try await waitUntil(.seconds(30), "the kitchen to sync alone") { drinks(dbs[0]).count == 5 }
                    #expect(drinks(dbs[1]).count == 11, "nothing can reach the others without the broker")
                    // Back, with no session at all: each bridge says hello (retained, a new epoch), in
                    // whatever order they come back, and every other answers it once with everything;
                    // each kept once. The bridges reconnect with back-off (1 s doubling to 60 s): the
                    // wait is generous, not a measure (Benchmarks/household.sh measures).
                    broker = try startMosquitto(on: kitchenBus, in: folder, port: port, logName: "mosquitto2")
                    defer { broker.killNow() }
                    do {
                        try await waitUntil(.seconds(120), "all three histories to hold the 16 drinks") {
                            dbs.allSatisfy { drinks($0).count == 16 }
                        }
                    } catch {
                        Issue.record("\(dbs.map { drinks($0).count })\nKITCHEN:\n\(kitchenBus.log("kitchen"))\nOFFICE:\n\(officeBus.log("office"))\nATTIC:\n\(atticBus.log("attic"))")
                        throw error
                    }
                    #expect(drinks(dbs[0]) == drinks(dbs[1]) && drinks(dbs[1]) == drinks(dbs[2]))
                    for bridge in [kitchen, office, attic] { bridge.send(SIGTERM) }
                    for bridge in [kitchen, office, attic] { #expect(await bridge.waitForExit(timeout: .seconds(20)) == 0) }
                }
            }
        }
    }

    @Test("a claim held by a bridge that dies keeps the bottle only until its last will; duplicated and reordered drinks are stored once")
    func deadHolderAndDuplicates() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let live = LiveCommandTests()
            try await live.startSimulator(on: bus, folder: folder, records: 5, name: "sim")
            let port = try freeTCPPort()
            let broker = try startMosquitto(on: bus, in: folder, port: port)
            defer { broker.killNow() }
            // "ghost", another bridge of the household (it has the key), holds the bottle (as a
            // bridge that was killed mid-sync left it). Each message its own stamp, in order.
            let sequence = Locked<UInt64>(0)
            func signed(_ topic: String, _ text: String, retain: Bool = false) -> MosquittoClient.Message {
                let stamp = HouseholdStamp(sender: "ghost", boot: 1, sequence: sequence.withLock { $0 += 1; return $0 },
                                           time: WallInstant(Date()))
                return .init(topic: topic, payload: HouseholdSeal.seal(topic: topic, body: Array(text.utf8), stamp: stamp, key: HouseholdTestKey.key),
                             retain: retain)
            }
            let ghost = try MosquittoClient(options: .init(broker: MQTTBrokerURL(host: "127.0.0.1", port: port), reconnectDelay: 0.1...0.5),
                                            handlers: .init(), logger: Logger(label: "ghost") { _ in SwiftLogNoOpLogHandler() })
            ghost.start()
            try await waitUntil(.seconds(10), "the ghost to connect") { ghost.isConnected }
            try ghost.publish(signed("aquavate/household/alive/ghost", "online", retain: true))
            try ghost.publish(signed("aquavate/household/claim/f412fa00a3f4/ghost", #"{"phase":"hold","rssi":-40}"#, retain: true))
            let db = folder.path + "/kitchen.sqlite"
            _ = try DrinkHistory(path: db)
            let kitchen = try daemon(bus, db: db, id: "kitchen", port: port)
            try await waitUntil(.seconds(30), "the kitchen to leave the bottle to the ghost") {
                bus.log("kitchen").contains("is synced by ghost")
            }
            #expect(drinks(db).isEmpty, "no connection while another bridge holds the bottle")

            // The ghost's drinks arrive twice and out of order; then its last will.
            func drink(_ id: Int, deleted: Bool = false) -> String {
                #"{"amount_ml":100,"bottle":"GHOST1","bottle_level_ml":300,"deleted":\#(deleted),"flags_raw":0,"record_id":\#(id),"timestamp":\#(1_795_330_800 + id * 60),"type_raw":0}"#
            }
            for payload in [drink(2, deleted: true), drink(1), drink(2), drink(1), drink(3), drink(3)] {
                try ghost.publish(signed("aquavate/household/drink/ghost", payload))
            }
            let willAt = ContinuousClock.now
            try ghost.publish(signed("aquavate/household/alive/ghost", "offline", retain: true))
            do {
                try await waitUntil(.seconds(30), "the kitchen to sync once the ghost is gone") {
                    drinks(db).keys.filter { $0.hasPrefix("F4:12:FA:00:A3:F2") }.count == 5
                }
            } catch {
                Issue.record("\(drinks(db))\n\(bus.log("kitchen"))")
                throw error
            }
            #expect(ContinuousClock.now - willAt < .seconds(20), "within the 10 s rest and a sync, far under the claim's expiry")
            let ghostDrinks = drinks(db).filter { $0.key.hasPrefix("GHOST1#") }
            #expect(ghostDrinks == ["GHOST1#1": false, "GHOST1#2": true, "GHOST1#3": false], "each once; the early deletion holds")
            kitchen.send(SIGTERM)
            #expect(await kitchen.waitForExit(timeout: .seconds(20)) == 0)
            await ghost.stop()
        }
    }
}
