// The household's messages and saved state against what the code before Codable wrote
// (WireBeforeCodable, recorded from it): a peer of the previous version reads
// what this one writes, this one reads what it wrote, and a history it saved loads. Hostile
// payloads from the broker are refused as malformed, never half-read.

import Foundation
@testable import Household
@testable import MQTT
import Testing
import Timekeeping

@Suite struct HouseholdWireTests {
    static func before() throws -> [String: String] { WireBeforeCodable.texts }

    @Test("claims, syncers, pongs, deliveries and hellos are the bytes the previous version wrote")
    func theSameBytesAsBefore() throws {
        let before = try Self.before()
        for (phase, rssi) in [(HouseholdLink.Claim.Phase.want, -67), (.hold, 0), (.hold, -127)] {
            #expect(HouseholdClaimMessage(.init(phase: phase, rssi: rssi)).text == before["claim/\(phase.rawValue)\(rssi)"])
        }
        for seconds in [1_764_240_000.0, 1_764_240_000.125, 1.0e-7, 1.0e21] {
            let time = WallInstant(secondsSince1970: seconds)
            #expect(HouseholdSyncerMessage(bridge: "kitchen-pi", time: time).text == before["syncer/\(time)"])
            #expect(HouseholdPongMessage(time: time, instance: "a1b2-'c'", synchronised: seconds > 1).text == before["pong/\(time)"])
            let delivered = HouseholdLink.Delivered(bottle: "F4:12:FA:00:A3:F2", id: "hydration-7", kind: "reminder", time: time, from: "x")
            #expect(HouseholdDeliveredMessage(delivered).text == before["delivered/\(time)"])
        }
        #expect(HouseholdHelloMessage(epoch: "e1a2", have: [:]).text == before["hello/empty"])
        let have: [String: WallInstant] = ["kitchen-pi": 1_764_240_000.5, "study": 1_764_240_001, "attic_2": 3.0e-3].mapValues(WallInstant.init(secondsSince1970:))
        #expect(HouseholdHelloMessage(epoch: "e1a2", have: have).text == before["hello/have"])
    }

    @Test("what the previous version wrote reads back as what it meant")
    func thePreviousVersionIsRead() throws {
        let before = try Self.before()
        func bytes(_ name: String) throws -> [UInt8] { Array(try #require(before[name]).utf8) }
        #expect(HouseholdLink.claim(from: try bytes("claim/want-67")) == .init(phase: .want, rssi: -67))
        #expect(HouseholdLink.syncer(from: try bytes("syncer/1764240000.125"))! == ("kitchen-pi", WallInstant(secondsSince1970: 1_764_240_000.125)))
        #expect(HouseholdDeliveredMessage.read(try bytes("delivered/1764240000.0"), by: "study")
            == .init(bottle: "F4:12:FA:00:A3:F2", id: "hydration-7", kind: "reminder", time: WallInstant(secondsSince1970: 1_764_240_000), from: "study"))
        let hello = HouseholdHelloMessage.read(try bytes("hello/have"))
        #expect(hello.epoch == "e1a2" && hello.have == ["kitchen-pi": WallInstant(secondsSince1970: 1_764_240_000.5), "study": WallInstant(secondsSince1970: 1_764_240_001), "attic_2": WallInstant(secondsSince1970: 3.0e-3)])
        let pong = try WireJSON.decode(HouseholdPongMessage.self, from: try bytes("pong/1764240000.125"))
        #expect(pong.clock == WallInstant(secondsSince1970: 1_764_240_000.125) && pong.instance == "a1b2-'c'" && pong.synchronised)
    }

    @Test("hostile claims, syncers and deliveries are malformed: wrong types, huge numbers, missing keys, extra keys, not UTF-8")
    func hostileMessages() {
        for bad in [#"{"phase":"grab","rssi":-60}"#, #"{"phase":"want","rssi":"-60"}"#, #"{"phase":"want","rssi":1e300}"#,
                    #"{"phase":"want","rssi":99999999999999999999}"#, #"{"phase":"want"}"#, #"{"phase":"want","rssi":-128}"#,
                    "[]", "null", "want"] {
            #expect(HouseholdLink.claim(from: Array(bad.utf8)) == nil, "\(bad)")
        }
        #expect(HouseholdLink.claim(from: Array(#"{"phase":"hold","rssi":-60,"extra":[1]}"#.utf8)) == .init(phase: .hold, rssi: -60),
                "an extra key (a newer bridge's) is ignored")
        #expect(HouseholdLink.claim(from: Array(#"{"phase":"want","rssi":-60}"#.utf8) + [0xFF]) == nil, "not UTF-8")
        for bad in [#"{"bridge":"kitchen","time":1764000200.5}"#, #"{"bridge":"a/b","time":"1"}"#, #"{"bridge":"kitchen","time":"inf"}"#,
                    #"{"bridge":"kitchen","time":"-5"}"#, #"{"bridge":"kitchen"}"#, #"{"time":"5"}"#, "a b"] {
            #expect(HouseholdLink.syncer(from: Array(bad.utf8)) == nil, "\(bad)")
        }
        for bad in [#"{"bottle":"AQV-1","id":"n 1","kind":"reminder","time":"5"}"#, #"{"bottle":"a/b","id":"n","kind":"reminder","time":"5"}"#,
                    #"{"bottle":"AQV-1","id":"n","kind":"reminder","time":5}"#, #"{"bottle":"AQV-1","id":"n","kind":"reminder"}"#,
                    #"{"bottle":"AQV-1","id":"n","kind":"re/minder","time":"5"}"#] {
            #expect(HouseholdDeliveredMessage.read(Array(bad.utf8), by: "study") == nil, "\(bad)")
        }
        // A hello is never dropped: what is odd in it is left out.
        let odd = HouseholdHelloMessage.read(Array(#"{"epoch":"e/1","have":{"study":"12.5","a/b":"1","attic":7,"x":"nan"}}"#.utf8))
        #expect(odd.epoch == nil && odd.have == ["study": WallInstant(secondsSince1970: 12.5)])
        #expect(HouseholdHelloMessage.read([0xFF, 0xFE]).epoch == nil)
    }
}
