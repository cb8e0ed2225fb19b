// Anti-entropy, end to end with real mosquitto: a member that lacks a drink of another, and whose
// hello cannot ask for it (its saved state says it has everything: the case a hello's "latest
// change held" cannot see, such as a drink lost in the middle of others), still gets it, because
// the members compare signed per-day digests after a (re)connection and on a schedule, and ask,
// of the days that differ, for exactly the drinks they lack. The loss here is a stolen session: a
// client resumed the stopped office's session and took the kitchen's queued drink.

import BusTestSupport
import Foundation
import History
@testable import Household
import Locking
import Logging
@testable import MQTT
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

@Suite("the household's anti-entropy", .serialized)
struct HouseholdAntiEntropyTests {
    let attack = HouseholdAttackTests()

    @Test("a drink taken from a member's session, which its hello does not ask for, reaches it through the digests within 5 minutes")
    func lostDrinkFoundByDigest() async throws {
        try await HouseholdOfTwo.run { kitchen, office, port, _ in
            let url = "mqtt://127.0.0.1:\(port)"
            office.process.send(SIGTERM)
            _ = await office.process.waitForExit(timeout: .seconds(20))
            try await stealOfficeSession(url: url, messages: 1) {
                let added = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                                 "-m", "org.aquavate.Simulator1.AddDrink", "250"],
                                              environment: kitchen.bus.environment, timeout: .seconds(10))
                #expect(added.status == 0, "\(added)")
            }
            #expect(attack.drinks(office.db).count == 12)
            let took = try await restartOfficeBlind(office, url: url) {
                attack.drinks(office.db).count == 13
            }
            let log = office.bus.log("office-again")
            #expect(log.contains("day(s) of kitchen's drinks differ"), "\(log.suffix(2000))")
            let kitchenLog = kitchen.bus.log("kitchen")
            // Exactly the day that differs, today's, and of it exactly the drink the office lacks.
            #expect(kitchenLog.contains("office asked for 1 day(s) of this bridge's drinks again (1 of them drink by drink); publishing 1\n"),
                    "\(kitchenLog.suffix(2000))")
            #expect(attack.drinks(office.db).mapValues(\.deleted) == attack.drinks(kitchen.db).mapValues(\.deleted))
            print("anti-entropy: the office held the lost drink \(took) after its restart")
        }
    }

    @Test("deletions taken from a member's session, with no drink added, reach it through the digests within 5 minutes")
    func lostDeletionsFoundByDigest() async throws {
        try await HouseholdOfTwo.run { kitchen, office, port, _ in
            let url = "mqtt://127.0.0.1:\(port)"
            office.process.send(SIGTERM)
            _ = await office.process.waitForExit(timeout: .seconds(20))
            let kitchenSerial = HouseholdAttackTests.kitchenSerial
            // Only deletion marks change: the digest's counts stay the same, only its hash over
            // the deletion marks can tell.
            try await stealOfficeSession(url: url, messages: 2) {
                for record in ["2", "4"] {
                    let deleted = try await LiveCommandTests().bridge(kitchen.bus, ["bottle", "delete", record, "--db", kitchen.db])
                    #expect(deleted.status == 0, "\(deleted)")
                }
            }
            #expect(attack.drinks(kitchen.db).filter(\.value.deleted).count == 2)
            #expect(attack.drinks(office.db).filter(\.value.deleted).isEmpty, "the office missed both deletions")
            let took = try await restartOfficeBlind(office, url: url) {
                attack.drinks(office.db)["\(kitchenSerial)#2"]?.deleted == true && attack.drinks(office.db)["\(kitchenSerial)#4"]?.deleted == true
            }
            #expect(office.bus.log("office-again").contains("day(s) of kitchen's drinks differ"))
            #expect(attack.drinks(office.db).mapValues(\.deleted) == attack.drinks(kitchen.db).mapValues(\.deleted))
            print("anti-entropy: the office held the lost deletions \(took) after its restart")
        }
    }

    @Test("20 drinks and 5 deletions taken from a member's session reach it through the digests within 5 minutes")
    func manyLostChangesFoundByDigest() async throws {
        try await HouseholdOfTwo.run { kitchen, office, port, _ in
            let url = "mqtt://127.0.0.1:\(port)"
            office.process.send(SIGTERM)
            _ = await office.process.waitForExit(timeout: .seconds(20))
            try await stealOfficeSession(url: url, messages: 25) {
                for _ in 0..<20 {
                    let added = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                                     "-m", "org.aquavate.Simulator1.AddDrink", "120"],
                                                  environment: kitchen.bus.environment, timeout: .seconds(10))
                    #expect(added.status == 0, "\(added)")
                }
                try await waitUntil(.seconds(60), "the kitchen to hold its 20 new drinks") { attack.drinks(kitchen.db).count == 32 }
                for record in ["1", "2", "3", "4", "5"] {
                    let deleted = try await LiveCommandTests().bridge(kitchen.bus, ["bottle", "delete", record, "--db", kitchen.db])
                    #expect(deleted.status == 0, "\(deleted)")
                }
            }
            #expect(attack.drinks(office.db).count == 12)
            let took = try await restartOfficeBlind(office, url: url) {
                attack.drinks(office.db).mapValues(\.deleted) == attack.drinks(kitchen.db).mapValues(\.deleted)
            }
            #expect(attack.drinks(office.db).filter(\.value.deleted).count == 5)
            print("anti-entropy: the office held the 20 lost drinks and 5 deletions \(took) after its restart")
        }
    }

    /// While `act` runs and after, a client resuming the stopped office's session takes what the
    /// broker queued for it, until it holds `messages` of the kitchen's drink messages.
    func stealOfficeSession(url: String, messages: Int, _ act: () async throws -> Void) async throws {
        let taken = Locked<[MosquittoClient.Message]>([])
        let thief = try MosquittoClient(
            options: .init(broker: MQTTBrokerURL(parsing: url), clientID: HouseholdMembership.sessionClientID(bridgeID: "office", key: HouseholdTestKey.key),
                           reconnectDelay: 0.1...0.5, cleanSession: false),
            handlers: .init(message: { _, message in taken.withLock { $0.append(message) } }),
            logger: Logger(label: "thief") { _ in SwiftLogNoOpLogHandler() })
        thief.start()
        #expect(await thief.waitUntilConnected(within: .seconds(10)))
        try await act()
        try await waitUntil(.seconds(60), "the thief to receive \(messages) of the kitchen's drink messages") {
            taken.withLock { $0.filter { $0.topic == "aquavate/household/drink/kitchen" }.count >= messages }
        }
        await thief.stop()
    }

    /// Restarts the office with its saved state saying it holds the kitchen's drinks up to
    /// tomorrow, so its hello asks for nothing (what a hello cannot see, a digest can), and waits
    /// at most 5 minutes for `converged`; returns how long that took.
    func restartOfficeBlind(_ office: HouseholdBridge, url: String,
                            converged: @escaping @Sendable () -> Bool) async throws -> Duration {
        let history = try DrinkHistory(path: office.db)
        var state = try history.household.replication()
        let tomorrow = WallInstant(secondsSince1970: Date().timeIntervalSince1970 + 86_400)
        state.peers = state.peers.filter { $0.member != "kitchen" }
            + [HouseholdPeerMark(member: "kitchen", answeredEpoch: state.peers.first { $0.member == "kitchen" }?.answeredEpoch, heardUpTo: tomorrow)]
        try history.household.saveReplication(state)
        let again = try HouseholdOfTwo.daemon(office.bus, db: office.db, id: "office", url: url, logName: "office-again")
        defer { again.killNow() }
        let started = ContinuousClock.now
        try await waitUntil(.seconds(300), "the office to converge with the kitchen (\(attack.drinks(office.db).count) drinks)", converged)
        let took = ContinuousClock.now - started
        #expect(took < .seconds(300))
        return took
    }
}
