// What another bridge's drink may be: the broker is a network, so a received drink is held to a
// bottle key's characters and to the bounds of a chunk's records before it is stored.

import AquavateProtocol
import Foundation
@testable import Household
@testable import MQTT
@testable import Sinks
import TestFixtures
import Testing
import Timekeeping

@Suite struct HouseholdInputTests {
    func payload(bottle: String = "AQV-0042", amount: Int = 250, level: Int = 500, timestamp: Int = 1_764_000_000) -> [UInt8] {
        let bottle = String(decoding: try! JSONEncoder().encode(bottle), as: UTF8.self)
        return Array(("{\"amount_ml\":\(amount),\"bottle\":\(bottle),\"bottle_level_ml\":\(level),\"deleted\":false,"
            + "\"flags_raw\":0,\"record_id\":7,\"timestamp\":\(timestamp),\"type_raw\":0}").utf8)
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
        let now = WallInstant(secondsSince1970: 1_764_000_000)
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

    @Test("a drink's message is the bytes the household always sent, and reads back as the same drink")
    func drinkMessageRoundTrip() throws {
        for (changedAt, deleted) in [(nil, false), (WallInstant(secondsSince1970: 1_764_000_123.25), true)] as [(WallInstant?, Bool)] {
            let drink = HouseholdLink.Drink(Drink(bottle: "AQV-0042", recordID: 7, timestamp: 1_764_000_000, amountML: 250,
                                                  bottleLevelML: -12, typeRaw: 1, flagsRaw: 0x05, deleted: deleted),
                                            origin: "kitchen", changedAt: changedAt)
            let changed = changedAt.map { "\"changed_at\":\"\($0)\"," } ?? ""
            let text = HouseholdLink.payload(drink)
            #expect(text == "{\"amount_ml\":250,\"bottle\":\"AQV-0042\",\"bottle_level_ml\":-12,\(changed)\"deleted\":\(deleted),"
                + "\"flags_raw\":5,\"record_id\":7,\"timestamp\":1764000000,\"type_raw\":1}")
            #expect(HouseholdLink.drink(from: Array(text.utf8), origin: "kitchen") == drink)
        }
    }

    @Test("a drink added by hand says so with one more key, reads back manual, and is held to a person's bounds")
    func manualDrinkMessage() throws {
        let now = WallInstant(secondsSince1970: 1_764_000_600)
        let drink = HouseholdLink.Drink(Drink(bottle: "AQV-0042", recordID: Drink.firstManualRecordID, timestamp: 1_764_000_000,
                                              amountML: 2500, bottleLevelML: 0, typeRaw: 0, flagsRaw: 0, deleted: false, manual: true),
                                        origin: "kitchen")
        let text = HouseholdLink.payload(drink)
        #expect(text == "{\"amount_ml\":2500,\"bottle\":\"AQV-0042\",\"bottle_level_ml\":0,\"deleted\":false,"
            + "\"flags_raw\":0,\"manual\":true,\"record_id\":2147483648,\"timestamp\":1764000000,\"type_raw\":0}")
        let read = try #require(HouseholdLink.drink(from: Array(text.utf8), origin: "kitchen"))
        #expect(read == drink && read.manual)
        // 2500 ml is more than a bottle records at once, not more than a person adds by hand.
        #expect(HouseholdReplication.record(of: read, now: now).problem == nil)
        #expect(HouseholdReplication.record(of: { var bottles = drink; bottles.manual = false; return bottles }(), now: now).problem != nil)
        // A manual drink with a bottle's id, or more than a person may add, is not stored.
        var lowID = drink
        lowID.recordID = 7
        lowID.amountML = 250
        #expect(HouseholdReplication.record(of: lowID, now: now).problem != nil)
        var jug = drink
        jug.amountML = 6000
        #expect(HouseholdReplication.record(of: jug, now: now).problem != nil)
        // Anything but true is a bottle's drink.
        let odd = text.replacingOccurrences(of: "\"manual\":true", with: "\"manual\":\"yes\"")
        #expect(HouseholdLink.drink(from: Array(odd.utf8), origin: "kitchen")?.manual == false)
    }

    @Test("a message that is not a whole drink is refused, and an odd change time only loses the time")
    func malformedDrinkMessages() throws {
        let good = String(decoding: payload(), as: UTF8.self)
        #expect(HouseholdLink.drink(from: payload(), origin: "kitchen") != nil)
        for bad in ["", "not json", "[1,2]", "\"text\"", "{}", good.replacingOccurrences(of: "\"deleted\":false", with: "\"deleted\":0"),
                    good.replacingOccurrences(of: "\"record_id\":7", with: "\"record_id\":\"7\""),
                    good.replacingOccurrences(of: "\"record_id\":7", with: "\"record_id\":-7"),
                    good.replacingOccurrences(of: "\"record_id\":7", with: "\"record_id\":4294967296"),
                    good.replacingOccurrences(of: "\"type_raw\":0", with: "\"type_raw\":256"),
                    good.replacingOccurrences(of: "\"amount_ml\":250", with: "\"amount_ml\":32768"),
                    good.replacingOccurrences(of: ",\"timestamp\":1764000000", with: "")] {
            #expect(HouseholdLink.drink(from: Array(bad.utf8), origin: "kitchen") == nil, "\(bad)")
        }
        for odd in ["\"x\"", "12", "\"inf\"", "null"] {
            let text = good.dropLast() + ",\"changed_at\":\(odd)}"
            let drink = try #require(HouseholdLink.drink(from: Array(text.utf8), origin: "kitchen"), "\(text)")
            #expect(drink.changedAt == nil)
        }
    }
}
