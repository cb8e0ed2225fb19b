// A member's MQTT session against a broker client that takes it: the session's client id is made
// from the household key (not `aquavate-<bridge.id>-house`, which any client could guess), and a
// member whose session was resumed still says hello, so that what the broker had queued for it and
// someone else received meanwhile reaches it all the same (docs/household.md, "Sessions").

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

@Suite("the household's sessions", .serialized)
struct HouseholdSessionTests {
    let attack = HouseholdAttackTests()

    @Test("a drink queued for a stopped member and taken by whoever had its session reaches it after its restart")
    func takenSessionIsCaughtUp() async throws {
        try await HouseholdOfTwo.run { kitchen, office, port, _ in
            let url = "mqtt://127.0.0.1:\(port)"
            // The office stops; its session (and what is queued for it) stays at the broker.
            office.process.send(SIGTERM)
            _ = await office.process.waitForExit(timeout: .seconds(20))
            // A drink in the kitchen, published for the household while the office is away.
            let added = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                             "-m", "org.aquavate.Simulator1.AddDrink", "250"],
                                          environment: kitchen.bus.environment, timeout: .seconds(10))
            #expect(added.status == 0, "\(added)")
            try await waitUntil(.seconds(40), "the kitchen to sync its new drink") {
                (try? DrinkHistory(path: kitchen.db).drinks.storedDrinks(bottle: HouseholdLiveTests.kitchenSerial).count) == 6
            }
            // Someone who has the office's session id (here: from the key) resumes it and takes
            // what was queued. The guessable id of before is no longer the office's.
            let sessionID = HouseholdMembership.sessionClientID(bridgeID: "office", key: HouseholdTestKey.key)
            #expect(sessionID != "aquavate-office-house")
            let taken = Locked<[MosquittoClient.Message]>([])
            let thief = try MosquittoClient(
                options: .init(broker: MQTTBrokerURL(parsing: url), clientID: sessionID, reconnectDelay: 0.1...0.5, cleanSession: false),
                handlers: .init(message: { _, message in taken.withLock { $0.append(message) } }),
                logger: Logger(label: "thief") { _ in SwiftLogNoOpLogHandler() })
            thief.start()
            try await waitUntil(.seconds(20), "the thief to receive the queued drink") {
                taken.withLock { $0.contains { $0.topic == "aquavate/household/drink/kitchen" } }
            }
            await thief.stop()
            #expect(drinks(office.db) == 12, "the office does not hold the new drink yet")
            // The office starts again: the broker resumes its session (emptied), and its hello
            // asks the kitchen for what it lacks.
            let again = try HouseholdOfTwo.daemon(office.bus, db: office.db, id: "office", url: url, logName: "office-again")
            defer { again.killNow() }
            try await waitUntil(.seconds(60), "the office to hold the kitchen's new drink (\(drinks(office.db)))") {
                drinks(office.db) == 13
            }
            #expect(office.bus.log("office-again").contains("its session resumed"), "\(office.bus.log("office-again").suffix(1500))")
        }
    }

    func drinks(_ db: String) -> Int { attack.drinks(db).count }
}
