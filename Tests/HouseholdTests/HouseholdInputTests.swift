// What another bridge's drink may be: the broker is a network, so a received drink is held to a
// bottle key's characters and to the bounds of a chunk's records before it is stored.

@testable import Household
@testable import MQTT
@testable import Sinks
import TestFixtures
import Testing

@Suite struct HouseholdInputTests {
    func payload(bottle: String = "AQV-0042", amount: Int = 250, level: Int = 500, timestamp: Int = 1_764_000_000) -> [UInt8] {
        let json = JSONValue.object([
            "bottle": .string(bottle), "record_id": .int(7), "timestamp": .int(timestamp),
            "amount_ml": .int(amount), "bottle_level_ml": .int(level),
            "type_raw": .int(0), "flags_raw": .int(0), "deleted": .bool(false),
        ])
        return Array(json.text.utf8)
    }

    @Test("a serial or an address is a bottle key; a topic level, a path, a line break or 65 characters are not")
    func bottleKeys() {
        #expect(HouseholdLink.drink(from: payload(bottle: "AQV-0042"), origin: "kitchen")?.bottle == "AQV-0042")
        #expect(HouseholdLink.drink(from: payload(bottle: "F4:12:FA:00:A3:F2"), origin: "kitchen")?.bottle == "F4:12:FA:00:A3:F2")
        for bad in ["", "a/b", "+", "#", "../history", "a\nb", "a b", "é", String(repeating: "A", count: 65)] {
            #expect(HouseholdLink.drink(from: payload(bottle: bad), origin: "kitchen") == nil, "\(bad)")
        }
    }

    @Test("a drink no bottle could record is refused with the reason; a plausible one is kept as sent")
    func recordBounds() throws {
        let now = 1_764_000_000.0
        let good = try #require(HouseholdLink.drink(from: payload(), origin: "kitchen"))
        let kept = HouseholdReplication.record(of: good, now: now)
        #expect(kept.problem == nil)
        #expect(kept.record.amountML == 250 && kept.record.bottleLevelML == 500 && kept.record.recordID == 7)

        for (amount, level, timestamp) in [(32767, 500, 1_764_000_000), (250, 32000, 1_764_000_000),
                                           (250, 500, 0), (250, 500, 1_764_000_000 + 3 * 86_400)] {
            let drink = try #require(HouseholdLink.drink(from: payload(amount: amount, level: level, timestamp: timestamp),
                                                         origin: "kitchen"))
            let problem = HouseholdReplication.record(of: drink, now: now).problem
            #expect(problem?.contains("record #7") == true, "\(amount) \(level) \(timestamp)")
        }
    }
}
