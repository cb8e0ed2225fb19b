// The JSON events of docs/design.md 3.4 on the wire: each event's line, field for field, as the
// contract names it (a renamed key fails here), and the lines written by hand (`day` and `drink`,
// for the web's year of days and its pages of drinks) equal, byte for byte, to the Codable
// encoding of the same event.

import AquavateProtocol
import BusTestSupport
import Foundation
import Reports
import Testing
import Timekeeping

@Suite struct BridgeEventJSONTests {
    @Test("every event's line has the contract's keys and values")
    func eventLines() {
        let drink = BridgeEvent.drink(.init(Drink(bottle: "AQV-1", recordID: 7, timestamp: 1_763_712_000, amountML: 250,
                                                  bottleLevelML: -3, typeRaw: 1, flagsRaw: 0x01, deleted: false), isNew: true))
        #expect(drink.jsonLine() == #"{"amount_ml":250,"bottle":"AQV-1","bottle_level_ml":-3,"deleted":false,"event":"drink","manual":false,"new":true,"record_id":7,"time":"2025-11-21T08:00:00Z","type":"pour"}"#)
        let sync = BridgeEvent.sync(.init(time: WallInstant(secondsSince1970: 1_763_712_000.5), records: 40, chunks: 3, outcome: .complete, quarantined: 1))
        #expect(sync.jsonLine() == #"{"chunks":3,"event":"sync","outcome":"complete","quarantined":1,"records":40,"time":"2025-11-21T08:00:00.500Z"}"#)
        let state = BridgeEvent.state(.init(time: WallInstant(secondsSince1970: 1_763_712_000), dailyTotalML: 900, bottleLevelML: 400, battery: 80, unsynced: 2,
                                            flags: ["time_valid", "low_battery"]))
        #expect(state.jsonLine() == #"{"battery":80,"bottle_level_ml":400,"daily_total_ml":900,"event":"state","flags":["time_valid","low_battery"],"time":"2025-11-21T08:00:00Z","unsynced":2}"#)
        let note = BridgeEvent.notification(.init(time: WallInstant(secondsSince1970: 1_763_712_000), id: "r-1", kind: "reminder", title: "Drink", body: "a/b \"now\""))
        #expect(note.jsonLine() == #"{"body":"a/b \"now\"","event":"notification","id":"r-1","kind":"reminder","time":"2025-11-21T08:00:00Z","title":"Drink"}"#)
        let withActions = BridgeEvent.notification(.init(time: WallInstant(secondsSince1970: 0), id: "r", kind: "ritual", title: "t", body: "b", actions: ["did-this"]))
        #expect(withActions.jsonLine().contains(#""actions":["did-this"]"#))
        #expect(BridgeEvent.error(.init(message: "bad")).jsonLine() == #"{"event":"error","message":"bad"}"#)
        #expect(BridgeEvent.error(.init(message: "bad", file: "a.aqcap", line: 3)).jsonLine()
            == #"{"event":"error","file":"a.aqcap","line":3,"message":"bad"}"#)
        let command = BridgeEvent.CommandEvent(id: 5, bottle: "AQV-1", command: "tare", status: "pending", time: WallInstant(secondsSince1970: 1_763_712_000))
        #expect(BridgeEvent.command(command).jsonLine()
            == #"{"bottle":"AQV-1","command":"tare","event":"command","id":5,"message":null,"status":"pending","time":"2025-11-21T08:00:00Z"}"#)
        let goal = BridgeEvent.CommandEvent(id: 6, bottle: "AQV-1", command: "goal", argument: "2200", status: "pending", time: WallInstant(secondsSince1970: 1_763_712_000))
        #expect(BridgeEvent.command(goal).jsonLine()
            == #"{"bottle":"AQV-1","bottle_goal_ml":2200,"command":"goal","event":"command","goal_ml":2200,"id":6,"message":null,"status":"pending","time":"2025-11-21T08:00:00Z"}"#)
        let bottle = BridgeEvent.bottle(.init(address: "F4:12:FA:00:A3:F4", goalML: 2500, pending: [command]))
        #expect(bottle.jsonLine()
            == #"{"address":"F4:12:FA:00:A3:F4","battery":null,"bottle_goal_ml":2500,"calibrated":null,"clock_offset_s":null,"event":"bottle","firmware":null,"goal_ml":2500,"last_seen":null,"last_sync":null,"model":null,"name":null,"pending":[{"bottle":"AQV-1","command":"tare","event":"command","id":5,"message":null,"status":"pending","time":"2025-11-21T08:00:00Z"}],"serial":null,"shake_to_empty":null,"unsynced":null}"#)
        let quarantined = BridgeEvent.quarantined(.init(bottle: "AQV-1", recordID: 9, time: WallInstant(secondsSince1970: 1_763_712_000), reason: "1970",
                                                        problems: [.time], raw: [0x01, 0xab]))
        #expect(quarantined.jsonLine()
            == #"{"bottle":"AQV-1","event":"quarantined","id":null,"problems":["time"],"raw":"01ab","reason":"1970","record_id":9,"resolution":null,"restorable":true,"time":"2025-11-21T08:00:00Z"}"#)
    }

    @Test("the hand-written day line equals the Codable encoding of the same day, for many days")
    func dayLineIsTheCodableOne() {
        var generator = SeededGenerator(seed: 27)
        let odd = ["", "AQV-0042", "F4:12:FA:00:A3:F2", "quote \" back \\ slash / tab \t nl \n", "\u{1}\u{8}\u{c}\u{1f}\u{7f}", "día 😀 \u{2028}"]
        for _ in 0..<2_000 {
            let bottle: String? = Bool.random(using: &generator) ? nil : odd.randomElement(using: &generator)!
                + String(Int.random(in: 0...999, using: &generator))
            let day = BridgeEvent.DayEvent(date: String(format: "%04d-%02d-%02d", Int.random(in: 1970...2106, using: &generator),
                                                        Int.random(in: 1...12, using: &generator), Int.random(in: 1...31, using: &generator)),
                                           totalML: Int.random(in: -5_000...Int(Int32.max), using: &generator),
                                           drinks: Int.random(in: 0...10_000, using: &generator),
                                           goalML: Int.random(in: 0...4_000, using: &generator), bottle: bottle)
            #expect(BridgeEvent.handWrittenDayLine(day) == BridgeEvent.codableDayLine(day), "\(day)")
        }
        #expect(BridgeEvent.day(.init(date: "2026-11-21", totalML: 1800, drinks: 7, goalML: 2500)).jsonLine()
            == #"{"daily_goal_ml":2500,"date":"2026-11-21","drinks":7,"event":"day","goal_ml":2500,"total_ml":1800}"#)
    }
}

extension BridgeEventJSONTests {
    @Test("the hand-written drink line equals the Codable encoding of the same drink, for many drinks")
    func drinkLineIsTheCodableOne() {
        var generator = SeededGenerator(seed: 28)
        let odd = ["", "AQV-0042", "F4:12:FA:00:A3:F2", "quote \" back \\ slash / tab \t nl \n", "\u{1}\u{8}\u{c}\u{1f}\u{7f}", "día 😀 \u{2028}"]
        for _ in 0..<2_000 {
            let drink = Drink(bottle: odd.randomElement(using: &generator)! + String(Int.random(in: 0...999, using: &generator)),
                              recordID: UInt32.random(in: 0...UInt32.max, using: &generator),
                              timestamp: UInt32.random(in: 0...UInt32.max, using: &generator),
                              amountML: Int.random(in: -32_768...32_767, using: &generator),
                              bottleLevelML: Int.random(in: -32_768...32_767, using: &generator),
                              typeRaw: UInt8.random(in: 0...1, using: &generator), flagsRaw: UInt8.random(in: 0...255, using: &generator),
                              deleted: Bool.random(using: &generator))
            let event = BridgeEvent.DrinkEvent(drink, isNew: Bool.random(using: &generator))
            #expect(BridgeEvent.handWrittenDrinkLine(event) == BridgeEvent.codableDrinkLine(event), "\(event)")
        }
    }
}
