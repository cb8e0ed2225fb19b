// One bottle heard in several rooms (docs/design.md 6), with real parts: a real mosquitto, two or
// three `aquavate-bridge run` daemons, each with its own private bus and an `aquavate-sim` that
// stands for the same physical bottle heard from its room (`--shared-bottle`: one drink store,
// one LE link, so only one room's Connect succeeds at a time). And several bottles on one bus
// (`--bottles`), synced by one bridge one connection at a time.
//
// Properties: every drink in every history exactly once; no sync lost to a stale claim for
// longer than its expiry (180 s, HouseholdClaims.expiry); the broker killed mid-sync and a bridge
// cut off from the broker lose nothing and store nothing twice.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

@Suite("one bottle in several rooms, several bottles on one bus")
struct HouseholdRoomsTests {
    /// The simulator's default address; its serial is the address − 2.
    static let address = "F4:12:FA:00:A3:F4"
    static let serial = "F4:12:FA:00:A3:F2"
    /// HouseholdClaims.expiry: a hold never released counts this long.
    static let claimExpiry: Duration = .seconds(180)

    /// One room: its bus, its simulator's state file and its bridge's history.
    struct Room {
        let name: String
        let bus: PrivateBus
        let state: String
        let db: String
    }

    /// `count` rooms, each with its own private bus and a simulator of the one shared bottle (the
    /// first seeds it with `records` drinks), stopped afterwards whatever happens.
    func withRooms(_ names: [String], records: Int, simulatorArguments: [String] = [],
                   _ body: ([Room], TemporaryFolder) async throws -> Void) async throws {
        let folder = TemporaryFolder()
        try await withBuses(names.count) { buses in
            var rooms: [Room] = []
            for (index, (name, bus)) in zip(names, buses).enumerated() {
                let room = Room(name: name, bus: bus, state: folder.path + "/\(name)-sim.json", db: folder.path + "/\(name).sqlite")
                _ = try bus.spawn(LiveCommandTests.simulator, [
                    "--bus", bus.address, "--records", index == 0 ? "\(records)" : "0", "--disconnect-delay", "0.1",
                    "--shared-bottle", folder.path + "/bottle", "--connect-timeout", "2", "--state-file", room.state,
                ] + simulatorArguments, logName: "\(name)-sim")
                // One at a time: the first seeds the shared ring before the others read it.
                try await waitUntil(.seconds(20), "the \(name) simulator to be ready (\(bus.log("\(name)-sim")))") {
                    FileManager.default.fileExists(atPath: room.state)
                }
                _ = try DrinkHistory(path: room.db)  // the test reads it while the daemon writes
                rooms.append(room)
            }
            try await body(rooms, folder)
        }
    }

    func withBuses(_ count: Int, _ body: ([PrivateBus]) async throws -> Void, _ buses: [PrivateBus] = []) async throws {
        guard buses.count < count else { return try await body(buses) }
        try await withPrivateBus { bus in try await withBuses(count, body, buses + [bus]) }
    }

    /// A mosquitto on loopback at `port` (no persistence: a restart loses the sessions).
    func broker(_ bus: PrivateBus, _ folder: TemporaryFolder, port: Int, logName: String = "mosquitto") throws -> ChildProcess {
        try startMosquitto(on: bus, in: folder, port: port, logName: logName)
    }

    func daemon(_ room: Room, port: Int) throws -> ChildProcess {
        try room.bus.spawn(LiveCommandTests.bridge, [
            "run", "--db", room.db, "--cooldown", "1", "--failure-pause", "1",
            "--set", "mqtt.url=mqtt://127.0.0.1:\(port)", "--set", "bridge.id=\(room.name)", "--set", "desktop.enabled=false",
        ] + HouseholdTestKey.option, logName: room.name)
    }

    /// Every stored drink's "bottle#record_id", duplicates kept (a drink stored twice shows twice).
    func stored(_ room: Room) -> [String] {
        guard let history = try? DrinkHistory(path: room.db), let drinks = try? history.drinks.storedDrinks() else { return [] }
        return drinks.map { "\($0.bottle)#\($0.recordID)" }
    }

    /// The shared bottle as this room's simulator sees it (its state file).
    func bottle(_ room: Room) -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: room.state),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return json
    }

    func connected(_ room: Room) -> Bool { bottle(room)["connected"] as? Bool == true }

    /// A drink through this room's simulator (one record in the shared ring).
    func drink(_ room: Room, _ amount: Int) async throws {
        let result = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                          "-m", "org.aquavate.Simulator1.AddDrink", "\(amount)"],
                                       environment: room.bus.environment, timeout: .seconds(10))
        #expect(result.status == 0 && !result.output.contains("uint32 0"), "a recorded drink: \(result)")
    }

    /// A test hook of this room's simulator (`DropLink`, `Sleep`, `Wake`).
    func hook(_ room: Room, _ method: String) async throws {
        let result = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                          "-m", "org.aquavate.Simulator1.\(method)"],
                                       environment: room.bus.environment, timeout: .seconds(10))
        #expect(result.status == 0, "\(result)")
    }

    /// Until every room's history holds the drinks 1…`count` of the shared bottle, each once.
    func waitForAll(_ rooms: [Room], _ count: Int, _ what: String) async throws {
        let want = Set((1...count).map { "\(Self.serial)#\($0)" })
        do {
            try await waitUntil(.seconds(60), what) {
                rooms.allSatisfy { Set(stored($0)) == want }
            }
        } catch {
            var logs = "\(rooms.map { "\($0.name): \(stored($0).count)" })"
            for room in rooms {
                logs += "\n\(room.name.uppercased()):\n\(room.bus.log(room.name))\n" + String(room.bus.log("\(room.name)-sim").suffix(3000))
            }
            Issue.record("\(logs)")
            throw error
        }
        for room in rooms {
            #expect(stored(room).count == count, "\(room.name): each drink once, not \(stored(room).count) rows for \(count) drinks")
        }
    }

    func stop(_ bridges: [ChildProcess]) async {
        for bridge in bridges where bridge.isRunning { bridge.send(SIGTERM) }
        for bridge in bridges { _ = await bridge.waitForExit(timeout: .seconds(20)) }
    }

    // MARK: - Several bottles on one bus

    @Test("one bridge, two bottles on one bus: both adopted and synced one connection at a time; history and status per bottle")
    func twoBottlesOneBus() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let state = folder.path + "/sim.json", secondState = folder.path + "/sim-2.json"
            _ = try bus.spawn(LiveCommandTests.simulator, ["--bus", bus.address, "--bottles", "2", "--records", "6",
                                                           "--disconnect-delay", "0.1", "--state-file", state], logName: "sim")
            try await waitUntil(.seconds(20), "the simulator to be ready (\(bus.log("sim")))") {
                FileManager.default.fileExists(atPath: secondState)
            }
            let db = folder.path + "/history.sqlite"
            let second = "F4:12:FA:00:A3:F6"  // bottle 2: address + 4 (F4:12:FA:00:A3:F8), serial − 2
            // Both adopted before (as two `run --adopt` would have left them), neither synced yet.
            let adopting = try DrinkHistory(path: db)
            for (serial, address) in [(Self.serial, Self.address), (second, "F4:12:FA:00:A3:F8")] {
                try adopting.bottles.update(id: serial) {
                    $0.serial = serial
                    $0.address = address
                }
            }
            let bridge = try bus.spawn(LiveCommandTests.bridge, ["run", "--db", db, "--cooldown", "1",
                                                                 "--set", "desktop.enabled=false"], logName: "run")
            do {
                try await waitUntil(.seconds(60), "both bottles synced") {
                    guard let drinks = try? DrinkHistory(path: db).drinks.storedDrinks() else { return false }
                    return drinks.filter { $0.bottle == Self.serial }.count == 6 && drinks.filter { $0.bottle == second }.count == 6
                }
            } catch {
                Issue.record("\(bus.log("run"))\n\(bus.log("sim").suffix(4000))")
                throw error
            }
            #expect(bus.log("sim").contains("Aquavate-A3F6 (F4:12:FA:00:A3:F8) with 6 records"), "bottle 2's own name and address")
            let history = try DrinkHistory(path: db)
            #expect(Set(try history.bottles.all().map(\.id)) == [Self.serial, second], "the two bottles, under their serials")
            #expect(try history.drinks.storedDrinks().count == 12, "each drink once")
            // Never two links at once from this one bridge: the two bottles' sessions do not overlap.
            let links = bus.log("sim").split(separator: "\n").filter { $0.contains("event: linked to") || $0.contains("event: link down") }
            var open = 0, most = 0
            for line in links {
                open += line.contains("linked to") ? 1 : -1
                most = max(most, open)
            }
            #expect(most == 1 && links.filter { $0.contains("linked to") }.count >= 2, "one connection at a time: \(links)")

            for serial in [Self.serial, second] {
                let one = try await runTool(LiveCommandTests.bridge, ["history", "--json", "--bottle", serial, "--db", db])
                let drinks = one.output.split(separator: "\n").filter { $0.contains(#""event":"drink""#) }
                #expect(one.status == 0 && drinks.count == 6 && drinks.allSatisfy { $0.contains(#""bottle":"\#(serial)""#) }, "\(one)")
                let status = try await runTool(LiveCommandTests.bridge, ["status", "--json", "--bottle", serial, "--db", db])
                #expect(status.status == 0 && status.output.contains(#""bottle":"\#(serial)""#)
                        && !status.output.contains(serial == Self.serial ? second : Self.serial), "\(status)")
            }
            bridge.send(SIGTERM)
            #expect(await bridge.waitForExit(timeout: .seconds(20)) == 0, "\(bus.log("run"))")
        }
    }

    // MARK: - One bottle, several rooms

    @Test("three rooms hear one bottle: every drink, wherever it was synced, in every history exactly once")
    func everyDrinkOnce() async throws {
        try await withRooms(["kitchen", "office", "attic"], records: 12) { rooms, folder in
            let port = try freeTCPPort()
            let mosquitto = try broker(rooms[0].bus, folder, port: port)
            defer { mosquitto.killNow() }
            let bridges = try rooms.map { try daemon($0, port: port) }
            try await waitForAll(rooms, 12, "every history to hold the 12 drinks")
            // Drinks through two rooms' simulators: one bottle, so one record each.
            try await drink(rooms[1], 200)
            try await drink(rooms[2], 150)
            try await waitForAll(rooms, 14, "every history to hold the 14 drinks")
            try await waitUntil(.seconds(10), "every room's simulator to show the bottle drained") {
                rooms.allSatisfy { bottle($0)["unsynced_count"] as? Int == 0 }
            }
            let links = rooms.map { room in room.bus.log("\(room.name)-sim").components(separatedBy: "event: linked to").count - 1 }
            #expect(links.reduce(0, +) >= 2, "synced by connections from the rooms: \(links)")
            await stop(bridges)
        }
    }

    @Test("a bridge killed while it holds the claim (mid-sync): another room syncs the bottle well within the claim's expiry; nothing lost or twice")
    func killedHolder() async throws {
        try await withRooms(["kitchen", "office"], records: 300, simulatorArguments: ["--fault", "slow-writes=60"]) { rooms, folder in
            let port = try freeTCPPort()
            let mosquitto = try broker(rooms[0].bus, folder, port: port)
            defer { mosquitto.killNow() }
            var bridges = try rooms.map { try daemon($0, port: port) }
            try await waitUntil(.seconds(60), "a room to link to the bottle") { rooms.contains(where: connected) }
            let holder = rooms.firstIndex(where: connected)!, other = 1 - holder
            bridges[holder].killNow()  // SIGKILL mid-sync: its claim stays retained; its last will says offline
            let killedAt = ContinuousClock.now
            _ = await bridges[holder].waitForExit(timeout: .seconds(10))
            // bluetoothd keeps the link of a client that died; the bottle leaves that room's range.
            try await hook(rooms[holder], "DropLink")
            try await waitUntil(Self.claimExpiry, "the \(rooms[other].name) to link to the bottle") { connected(rooms[other]) }
            let handOver = ContinuousClock.now - killedAt
            #expect(handOver < Self.claimExpiry, "no sync lost to a stale claim for longer than its expiry: \(handOver)")
            // The killed bridge comes back; what it stored before it died reaches the other, and back.
            bridges[holder] = try daemon(rooms[holder], port: port)
            try await waitForAll(rooms, 300, "both histories to hold all 300 drinks")
            await stop(bridges)
        }
    }

    @Test("a claim holder whose host vanishes (no last will until the broker's keep-alive runs out): another room syncs within the claim's expiry")
    func vanishedHolder() async throws {
        try await withRooms(["kitchen", "office"], records: 150, simulatorArguments: ["--fault", "slow-writes=40"]) { rooms, folder in
            let port = try freeTCPPort()
            let mosquitto = try broker(rooms[0].bus, folder, port: port)
            defer { mosquitto.killNow() }
            let relay = try #require(TCPRelay(to: port))
            defer { relay.stop() }
            // The kitchen reaches the broker through the relay, and holds the bottle first.
            let kitchen = try daemon(rooms[0], port: relay.port)
            try await waitUntil(.seconds(60), "the kitchen to link to the bottle") { connected(rooms[0]) }
            let office = try daemon(rooms[1], port: port)
            // The kitchen's host vanishes from the network mid-sync: its retained hold stays, and
            // its release cannot reach the broker.
            relay.freeze()
            let vanishedAt = ContinuousClock.now
            try await waitUntil(.seconds(60), "the kitchen to finish its sync on its own") {
                !connected(rooms[0]) && bottle(rooms[0])["unsynced_count"] as? Int == 0
            }
            // The kitchen no longer hears the bottle (else it would sync it again on its own,
            // which is right: it still thinks it is connected to the broker).
            try await hook(rooms[0], "Sleep")
            try await drink(rooms[1], 150)
            do {
                try await waitUntil(Self.claimExpiry, "the office to sync the bottle") {
                    stored(rooms[1]).contains("\(Self.serial)#151")
                }
            } catch {
                Issue.record("OFFICE:\n\(rooms[1].bus.log("office"))\nKITCHEN:\n\(rooms[0].bus.log("kitchen"))")
                throw error
            }
            let stale = ContinuousClock.now - vanishedAt
            #expect(stale < Self.claimExpiry, "no sync lost to a stale claim for longer than its expiry: \(stale)")
            relay.thaw()
            try await waitForAll(rooms, 151, "both histories to converge once the kitchen is back")
            await stop([kitchen, office])
        }
    }

    @Test("the broker killed in the middle of a sync and restarted: nothing lost, nothing twice")
    func brokerKilledMidSync() async throws {
        try await withRooms(["kitchen", "office", "attic"], records: 200, simulatorArguments: ["--fault", "slow-writes=60"]) { rooms, folder in
            let port = try freeTCPPort()
            var mosquitto = try broker(rooms[0].bus, folder, port: port)
            let bridges = try rooms.map { try daemon($0, port: port) }
            try await waitUntil(.seconds(60), "a room to link to the bottle") { rooms.contains(where: connected) }
            mosquitto.killNow()
            _ = await mosquitto.waitForExit(timeout: .seconds(10))
            // The sync goes on without the broker; a drink meanwhile.
            try await drink(rooms[2], 120)
            try await waitUntil(.seconds(60), "the bottle to be drained without the broker") {
                rooms.allSatisfy { bottle($0)["unsynced_count"] as? Int == 0 } && !rooms.contains(where: connected)
            }
            mosquitto = try broker(rooms[0].bus, folder, port: port, logName: "mosquitto2")
            defer { mosquitto.killNow() }
            try await waitForAll(rooms, 201, "every history to hold the 201 drinks after the broker's return")
            await stop(bridges)
        }
    }

    @Test("two bridges with no broker hear one bottle: each drink is drained by exactly one of them, never offered again")
    func oneStoreNoBroker() async throws {
        try await withRooms(["kitchen", "office"], records: 40, simulatorArguments: ["--fault", "slow-writes=20"]) { rooms, _ in
            // No mqtt.url: no claims, each bridge syncs whenever it sees the bottle; the bottle's
            // single link and single store decide.
            let bridges = try rooms.map { room in
                try room.bus.spawn(LiveCommandTests.bridge, ["run", "--db", room.db, "--cooldown", "1", "--failure-pause", "1",
                                                             "--set", "desktop.enabled=false"], logName: room.name)
            }
            for (index, amount) in [100, 110, 120, 130].enumerated() {
                try await waitUntil(.seconds(60), "the drinks so far to be drained") {
                    Set(rooms.flatMap(stored)).count == 40 + index
                }
                try await drink(rooms[index % 2], amount)
            }
            let all = Set((1...44).map { "\(Self.serial)#\($0)" })
            try await waitUntil(.seconds(60), "all 44 drinks to be drained") { Set(rooms.flatMap(stored)) == all }
            let kitchen = stored(rooms[0]), office = stored(rooms[1])
            #expect(Set(kitchen).isDisjoint(with: office), "no record offered to both rooms: \(Set(kitchen).intersection(office))")
            #expect(kitchen.count + office.count == 44, "each drink stored once, in one history")
            await stop(bridges)
        }
    }

    @Test("a bridge cut off from the broker keeps syncing the bottle locally, and the histories converge after")
    func partitionedBridge() async throws {
        try await withRooms(["kitchen", "office"], records: 10) { rooms, folder in
            let port = try freeTCPPort()
            let mosquitto = try broker(rooms[0].bus, folder, port: port)
            defer { mosquitto.killNow() }
            let relay = try #require(TCPRelay(to: port))
            defer { relay.stop() }
            let kitchen = try daemon(rooms[0], port: port)
            let office = try daemon(rooms[1], port: relay.port)
            try await waitForAll(rooms, 10, "both histories to hold the 10 drinks")
            // The bottle leaves the kitchen's range (asleep there: not heard), the office's
            // connection to the broker is cut; drinks meanwhile, heard in the office only.
            try await hook(rooms[0], "Sleep")
            relay.cut()
            for amount in [110, 120, 130] { try await drink(rooms[1], amount) }
            try await waitUntil(.seconds(60), "the office to sync the 3 drinks on its own") {
                Set(stored(rooms[1])).isSuperset(of: (11...13).map { "\(Self.serial)#\($0)" })
            }
            #expect(stored(rooms[0]).count == 10, "nothing reached the kitchen across the cut")
            relay.restore()
            try await hook(rooms[0], "Wake")
            try await waitForAll(rooms, 13, "both histories to converge after the cut")
            await stop([kitchen, office])
        }
    }
}
