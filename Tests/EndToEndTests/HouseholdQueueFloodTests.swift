// Convergence after the broker dropped a member's messages, end to end with real mosquitto: the
// broker keeps at most 10 messages queued for a member that is away; a flood fills the stopped
// office's queue, so the kitchen's new drinks and a deletion meant for it are dropped by the
// broker. At its restart the office still ends with the kitchen's history (its hello and the
// digests), within the household's bound of 5 minutes.

import BusTestSupport
import Foundation
import History
@testable import Household
import Logging
@testable import MQTT
import ProcessSupport
import TestFixtures
import Testing

@Suite("the household after a flooded broker queue", .serialized)
struct HouseholdQueueFloodTests {
    let attack = HouseholdAttackTests()

    @Test("the office's queue of 10 flooded while it is away: the drinks and deletion the broker dropped reach it within 5 minutes")
    func floodedQueueConverges() async throws {
        try await HouseholdOfTwo.run(brokerSettings: { _ in "max_queued_messages 10\n" }) { kitchen, office, port, _ in
            let url = "mqtt://127.0.0.1:\(port)"
            office.process.send(SIGTERM)
            _ = await office.process.waitForExit(timeout: .seconds(20))
            // A client floods a household topic the office's session subscribes to.
            let flooder = try attack.client(url)
            #expect(await flooder.waitUntilConnected(within: .seconds(10)))
            for index in 0..<200 {
                try flooder.publish(.init(topic: "aquavate/household/drink/flood", text: "\(index)"))
            }
            try await waitUntil(.seconds(30), "the broker to drop messages for the office") {
                kitchen.bus.log("mosquitto").contains("Outgoing messages are being dropped")
            }
            await flooder.stop()
            // Meanwhile the kitchen syncs three drinks and deletes one: the broker drops them for
            // the office, whose queue is full.
            for _ in 0..<3 {
                let added = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                                 "-m", "org.aquavate.Simulator1.AddDrink", "250"],
                                              environment: kitchen.bus.environment, timeout: .seconds(10))
                #expect(added.status == 0, "\(added)")
            }
            let deleted = try await LiveCommandTests().bridge(kitchen.bus, ["bottle", "delete", "2", "--db", kitchen.db])
            #expect(deleted.status == 0, "\(deleted)")
            try await waitUntil(.seconds(60), "the kitchen to hold its 3 new drinks") { attack.drinks(kitchen.db).count == 15 }
            #expect(attack.drinks(office.db).count == 12)
            let again = try HouseholdOfTwo.daemon(office.bus, db: office.db, id: "office", url: url)
            defer { again.killNow() }
            let started = ContinuousClock.now
            try await waitUntil(.seconds(300), "the office to hold the kitchen's history (\(attack.drinks(office.db).count) drinks)") {
                attack.drinks(office.db).mapValues(\.deleted) == attack.drinks(kitchen.db).mapValues(\.deleted)
            }
            let took = ContinuousClock.now - started
            #expect(took < .seconds(300))
            #expect(attack.drinks(office.db).filter(\.value.deleted).count == 1)
            print("flooded queue: the office held the kitchen's history \(took) after its restart")
        }
    }
}
