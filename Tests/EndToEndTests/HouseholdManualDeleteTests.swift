// A drink added by hand on one bridge of a household and deleted on another is deleted on every
// member: the deleter tells the household (a deletion signed with its key, naming the drink's
// origin), every member applies it, and the origin publishes the drink's tombstone as its own.
// The origin's every surface (the page, the API, `status`, /metrics, Home Assistant's state)
// stops counting it. A deletion forged without the key or with another key deletes nothing and
// is counted. A member away while the deletion was told (its session emptied by another client)
// gets it later: from the deleter's answer to its hello, or, when the hello asks for nothing,
// from the deleter again once the origin's digest still counts the drink. Real parts: a real
// mosquitto, three `aquavate-bridge run` daemons, each with its own private bus and
// `aquavate-sim` bottle.

import BusTestSupport
import Foundation
import History
@testable import Household
import Locking
import Logging
@testable import MQTT
import ProcessSupport
@testable import Settings
@testable import Sinks
import TestFixtures
import Testing
import Timekeeping

@Suite("a household: a drink added by hand on one bridge, deleted on another", .serialized)
struct HouseholdManualDeleteTests {
    static let kitchenSerial = HouseholdLiveTests.kitchenSerial
    static let kitchenAddress = "F4:12:FA:00:A3:F4"
    static let hallwayAddress = "F4:12:FA:00:C0:04"
    let attack = HouseholdAttackTests()
    let live = LiveCommandTests()

    struct Member {
        var name: String
        var bus: PrivateBus
        var db: String
        var process: ChildProcess
    }

    func daemon(_ name: String, bus: PrivateBus, db: String, port: Int, web: Int? = nil) throws -> ChildProcess {
        try bus.spawn(LiveCommandTests.bridge, [
            "run", "--db", db, "--cooldown", "1", "--failure-pause", "1", "--set", "mqtt.url=mqtt://127.0.0.1:\(port)",
            "--set", "bridge.id=\(name)", "--set", "desktop.enabled=false",
        ] + (web.map { ["--http", "127.0.0.1:\($0)"] } ?? []) + HouseholdTestKey.option, logName: name)
    }

    /// The hand-added drinks at `path`: record id → deleted.
    func manual(_ path: String) -> [UInt32: Bool] {
        guard FileManager.default.fileExists(atPath: path), let history = try? DrinkHistory(path: path),
              let stored = try? history.drinks.storedDrinks() else { return [:] }
        return Dictionary(stored.filter(\.drink.manual).map { ($0.recordID, $0.deleted) }, uniquingKeysWith: { $0 || $1 })
    }

    /// A kitchen (2 drinks, its web page on `web`), an office (3) and a hallway (1) in one
    /// household, converged, the office having adopted the kitchen's bottle too (so a drink of it
    /// can be deleted there by name); then `body` with the three and the broker's port.
    func withThreeMembers(web: Int? = nil, _ body: (_ kitchen: Member, _ office: Member, _ hallway: Member, _ port: Int) async throws -> Void)
        async throws {
        try await withPrivateBus { kitchenBus in
            try await withPrivateBus { officeBus in
                try await withPrivateBus { hallwayBus in
                    let folder = TemporaryFolder()
                    try await live.startSimulator(on: kitchenBus, folder: folder, records: 2, name: "kitchen-sim")
                    try await live.startSimulator(on: officeBus, folder: folder, records: 3, arguments: ["--address", HouseholdLiveTests.officeAddress],
                                                  name: "office-sim")
                    try await live.startSimulator(on: hallwayBus, folder: folder, records: 1, arguments: ["--address", Self.hallwayAddress],
                                                  name: "hallway-sim")
                    let port = try freeTCPPort()
                    let broker = try startMosquitto(on: kitchenBus, in: folder, port: port)
                    defer { broker.killNow() }
                    let dbs = ["kitchen", "office", "hallway"].map { folder.path + "/\($0).sqlite" }
                    for path in dbs { _ = try DrinkHistory(path: path) }
                    try DrinkHistory(path: dbs[1]).bottles.save(BottleRecord(id: Self.kitchenSerial, serial: Self.kitchenSerial))
                    let kitchen = Member(name: "kitchen", bus: kitchenBus, db: dbs[0], process: try daemon("kitchen", bus: kitchenBus, db: dbs[0], port: port, web: web))
                    let office = Member(name: "office", bus: officeBus, db: dbs[1], process: try daemon("office", bus: officeBus, db: dbs[1], port: port))
                    let hallway = Member(name: "hallway", bus: hallwayBus, db: dbs[2], process: try daemon("hallway", bus: hallwayBus, db: dbs[2], port: port))
                    defer { kitchen.process.killNow(); office.process.killNow(); hallway.process.killNow() }
                    do {
                        try await waitUntil(.seconds(60), "the three histories to hold the bottles' 6 drinks") {
                            dbs.allSatisfy { attack.drinks($0).count == 6 }
                        }
                        try await body(kitchen, office, hallway, port)
                    } catch {
                        for member in [kitchen, office, hallway] {
                            Issue.record("\(member.name.uppercased()) \(manual(member.db)):\n\(member.bus.log(member.name).suffix(4000))")
                        }
                        throw error
                    }
                    for member in [kitchen, office, hallway] { member.process.send(SIGTERM) }
                    for member in [kitchen, office, hallway] {
                        #expect(await member.process.waitForExit(timeout: .seconds(20)) == 0, "\(member.name)")
                    }
                }
            }
        }
    }

    /// `log drink 300` for the kitchen's bottle on the kitchen; its id, once all three hold it.
    func addOnKitchen(_ kitchen: Member, _ office: Member, _ hallway: Member) async throws -> UInt32 {
        let logged = try await live.bridge(kitchen.bus, ["log", "drink", "300", "--bottle", Self.kitchenSerial, "--db", kitchen.db])
        #expect(logged.status == 0, "\(logged)")
        let id = try #require(manual(kitchen.db).keys.first)
        try await waitUntil(.seconds(40), "the drink added by hand to reach the office and the hallway") {
            manual(office.db)[id] == false && manual(hallway.db)[id] == false
        }
        return id
    }

    /// What the kitchen's surfaces say of its bottle's day (ml), and whether its page lists a drink as deleted.
    struct Surfaces: Sendable, Equatable {
        var api: Int?
        var status: Int?
        var metrics: Int?
        var homeAssistant: Int?
        var pageDeleted: Bool?
    }

    /// What the kitchen's surfaces say of its bottle's day: the API, `status --json`, /metrics,
    /// Home Assistant's state (ml); and whether the page lists drink `id` as deleted.
    func kitchenSurfaces(_ kitchen: Member, web: Int, homeAssistant: Locked<[String: Int]>, id: UInt32) async throws -> Surfaces {
        let api = try await RawHTTP.send(port: web, "GET", "/api/v1/status?bottle=\(Self.kitchenSerial)")
        let status = try await live.bridge(kitchen.bus, ["status", "--json", "--db", kitchen.db])
        let statusToday = status.output.split(separator: "\n").compactMap { line -> Int? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["bottle"] as? String == Self.kitchenSerial else { return nil }
            return object["today_ml"] as? Int
        }.first
        let metrics = try await RawHTTP.send(port: web, "GET", "/metrics")
        let metricsToday = metrics.body.split(separator: "\n").first { $0.hasPrefix("aquavate_today_liters{") && $0.contains("bottle=\"\(Self.kitchenSerial)\"") }
            .flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }.map { Int(($0 * 1000).rounded()) }
        let topic = MQTTTopics(bottleID: MQTTTopics.bottleID(fromAddress: Self.kitchenAddress)).state
        let state = homeAssistant.withLock { $0[topic] }
        let page = try await RawHTTP.send(port: web, "GET", "/")
        let listed: Bool? = page.body.contains("<tr class=\"drink deleted\" data-record=\"\(id)\">") ? true
            : page.body.contains("<tr class=\"drink\" data-record=\"\(id)\">") ? false : nil
        return Surfaces(api: api.jsonObject["today_ml"] as? Int, status: statusToday, metrics: metricsToday, homeAssistant: state, pageDeleted: listed)
    }

    @Test("added on the kitchen, deleted on the office: deleted on all three, gone from the kitchen's every surface; forged deletions delete nothing and are counted")
    func deletedEverywhere() async throws {
        let web = try freeTCPPort()
        try await withThreeMembers(web: web) { kitchen, office, hallway, port in
            // Home Assistant's view: the retained states on the broker.
            let states = Locked<[String: Int]>([:])
            let homeAssistant = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(port)"), reconnectDelay: 0.1...0.5),
                handlers: .init(connected: { client in try? client.subscribe("aquavate/+/state") },
                                message: { _, message in
                                    guard let object = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any],
                                          let total = object["daily_total_ml"] as? Int else { return }
                                    states.withLock { $0[message.topic] = total }
                                }),
                logger: Logger(label: "home-assistant") { _ in SwiftLogNoOpLogHandler() })
            homeAssistant.start()
            defer { Task { await homeAssistant.stop() } }
            let id = try await addOnKitchen(kitchen, office, hallway)
            let drink = try #require(try DrinkHistory(path: kitchen.db).drinks.storedDrinks().first { $0.recordID == id })

            // Counted on every surface of the kitchen first.
            let withDrink = try await RawHTTP.send(port: web, "GET", "/api/v1/status?bottle=\(Self.kitchenSerial)").jsonObject["today_ml"] as? Int
            let counted = try #require(withDrink)
            #expect(counted >= 300)
            let seen = Locked(Surfaces())
            try await waitUntil(.seconds(30), "Home Assistant's state to count the drink") {
                let now = try await kitchenSurfaces(kitchen, web: web, homeAssistant: states, id: id)
                seen.withLock { $0 = now }
                return now.homeAssistant == counted
            }
            let before = seen.withLock { $0 }
            #expect(before == Surfaces(api: counted, status: counted, metrics: counted, homeAssistant: counted, pageDeleted: false), "\(before)")

            // Forged: a stranger without the key, and one with another key, each deleting it in the office's name.
            let base = "aquavate/household"
            let body = #"{"bottle":"\#(Self.kitchenSerial)","origin":"kitchen","record_id":\#(id),"timestamp":\#(drink.timestamp)}"#
            let otherKey = try #require(HouseholdKey(base64: HouseholdKey.generate()))
            let alien = HouseholdSeal.seal(topic: "\(base)/delete/office", body: Array(body.utf8),
                                           stamp: .init(sender: "office", boot: UInt64.max / 2, sequence: 0,
                                                        time: WallInstant(secondsSince1970: Date().timeIntervalSince1970)), key: otherKey)
            let droppedBefore = [kitchen, office, hallway].map { attack.total($0.db) }
            let stranger = try attack.client("mqtt://127.0.0.1:\(port)")
            #expect(await stranger.waitUntilConnected(within: .seconds(10)))
            try stranger.publish(.init(topic: "\(base)/delete/office", text: body))
            try stranger.publish(.init(topic: "\(base)/delete/office", payload: alien))
            try await waitUntil(.seconds(30), "the three to count both forgeries") {
                zip([kitchen, office, hallway], droppedBefore).allSatisfy { attack.total($0.db) >= $1 + 2 }
            }
            await stranger.stop()
            for member in [kitchen, office, hallway] {
                #expect(manual(member.db)[id] == false, "a forged deletion deletes nothing at the \(member.name)")
                #expect((attack.dropped(member.db)["unsigned"] ?? 0) >= 1 && (attack.dropped(member.db)["forged"] ?? 0) >= 1,
                        "\(member.name): \(attack.dropped(member.db))")
            }

            // The office deletes it by its id, as a person there would.
            let deleted = try await live.bridge(office.bus, ["bottle", "delete", "\(id)", "--bottle", Self.kitchenSerial, "--db", office.db])
            #expect(deleted.status == 0, "\(deleted)")
            try await waitUntil(.seconds(40), "the deletion to reach the kitchen and the hallway") {
                manual(kitchen.db)[id] == true && manual(hallway.db)[id] == true
            }
            #expect(manual(office.db)[id] == true)
            for member in [kitchen, office, hallway] {
                #expect(try DrinkHistory(path: member.db).commands.all().isEmpty, "no command for a bottle at the \(member.name)")
                #expect(attack.drinks(member.db).filter(\.value.deleted).count == 1, "only that drink deleted at the \(member.name)")
            }
            #expect(kitchen.bus.log("kitchen").contains("office deleted drink #\(id) of \(Self.kitchenSerial), added by hand on this bridge"))
            #expect(office.bus.log("office").contains("told the household that drink #\(id) of \(Self.kitchenSerial), added by hand on kitchen, was deleted here"),
                    "told at once, not found later by the digests")

            // Gone from every surface of the kitchen, its origin.
            let expected = counted - 300
            do {
                try await waitUntil(.seconds(30), "the kitchen's surfaces to stop counting it") {
                    let now = try await kitchenSurfaces(kitchen, web: web, homeAssistant: states, id: id)
                    seen.withLock { $0 = now }
                    return now == Surfaces(api: expected, status: expected, metrics: expected, homeAssistant: expected, pageDeleted: true)
                }
            } catch {
                Issue.record("the kitchen's surfaces: \(seen.withLock { $0 }), expected \(expected) ml")
                throw error
            }
        }
    }

    /// Starts `member` again; when `blind`, its saved state first says it holds every member's
    /// drinks up to tomorrow, so that its hello asks for nothing.
    func restart(_ member: Member, port: Int, blind: Bool) throws -> Member {
        if blind {
            let history = try DrinkHistory(path: member.db)
            var state = try history.household.replication()
            let tomorrow = WallInstant(secondsSince1970: Date().timeIntervalSince1970 + 86_400)
            state.peers = ["kitchen", "office", "hallway"].map { name in
                HouseholdPeerMark(member: name, answeredEpoch: state.peers.first { $0.member == name }?.answeredEpoch, heardUpTo: tomorrow)
            }
            try history.household.saveReplication(state)
        }
        var again = member
        again.process = try daemon(member.name, bus: member.bus, db: member.db, port: port)
        return again
    }

    /// While `act` runs, clients resuming the sessions of the stopped `members` take what the
    /// broker queued for them, until each holds a deletion told by the office.
    func stealSessions(of members: [String], port: Int, _ act: () async throws -> Void) async throws {
        var thieves: [(MosquittoClient, Locked<Int>)] = []
        for member in members {
            let taken = Locked(0)
            let thief = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(parsing: "mqtt://127.0.0.1:\(port)"),
                               clientID: HouseholdMembership.sessionClientID(bridgeID: member, key: HouseholdTestKey.key),
                               reconnectDelay: 0.1...0.5, cleanSession: false),
                handlers: .init(message: { _, message in
                    if message.topic == "aquavate/household/delete/office" { taken.withLock { $0 += 1 } }
                }),
                logger: Logger(label: "thief") { _ in SwiftLogNoOpLogHandler() })
            thief.start()
            #expect(await thief.waitUntilConnected(within: .seconds(10)))
            thieves.append((thief, taken))
        }
        try await act()
        let taken = thieves.map(\.1)
        try await waitUntil(.seconds(60), "the thieves to take the office's deletion") {
            taken.allSatisfy { $0.withLock { $0 } >= 1 }
        }
        for (thief, _) in thieves { await thief.stop() }
    }

    @Test("the kitchen and the hallway away, their sessions emptied of the office's deletion: both get it later, the kitchen (whose hello asks for nothing) through the digests")
    func lostDeletionConverges() async throws {
        try await withThreeMembers { kitchen, office, hallway, port in
            let id = try await addOnKitchen(kitchen, office, hallway)
            for member in [kitchen, hallway] {
                member.process.send(SIGTERM)
                #expect(await member.process.waitForExit(timeout: .seconds(20)) == 0, "\(member.name)")
            }
            try await stealSessions(of: ["kitchen", "hallway"], port: port) {
                let deleted = try await live.bridge(office.bus, ["bottle", "delete", "\(id)", "--bottle", Self.kitchenSerial, "--db", office.db])
                #expect(deleted.status == 0, "\(deleted)")
            }
            #expect(manual(office.db)[id] == true)
            #expect(manual(kitchen.db)[id] == false && manual(hallway.db)[id] == false, "both missed the deletion")

            // The kitchen first, alone: its hello asks for nothing, so only the digests can tell.
            let kitchenAgain = try restart(kitchen, port: port, blind: true)
            defer { kitchenAgain.process.killNow() }
            let started = ContinuousClock.now
            try await waitUntil(.seconds(300), "the kitchen, the drink's origin, to hold it deleted") { manual(kitchen.db)[id] == true }
            let took = ContinuousClock.now - started
            #expect(office.bus.log("office").contains("told kitchen again of 1 deletion(s) of its drinks added by hand"),
                    "the digest's comparison told the kitchen again")
            // Then the hallway: from the kitchen's tombstone waiting in its session, or the office's answer to its hello.
            let hallwayAgain = try restart(hallway, port: port, blind: false)
            defer { hallwayAgain.process.killNow() }
            try await waitUntil(.seconds(60), "the hallway to hold it deleted") { manual(hallway.db)[id] == true }
            for member in [kitchenAgain, hallwayAgain] {
                member.process.send(SIGTERM)
                #expect(await member.process.waitForExit(timeout: .seconds(20)) == 0, "\(member.name)")
            }
            print("household: the lost deletion of a drink added by hand reached its origin \(took) after its restart")
        }
    }
}
