// The odd records the firmware produces (docs/protocol.md B9, docs/protocol-vectors.md TV11), as
// the simulated bottle holds and sends them: mixed among the ordinary drinks with the ids in
// order, an erased slot counted and sent as all FF and marked synced by the final ACK like any
// other, and the chaos injector's draw the same for the same seed.

import AquavateProtocol
@testable import BottleSimulator
import Testing
import Timekeeping

@Suite struct OddRecordTests {
    @Test("odd records sit among the ordinary ones, ids in order, ordinary values unchanged")
    func mixing() {
        let ordinary = RecordSource.generated(count: 9, endingAt: WallInstant(secondsSince1970: 1_795_248_000))
        let mixed = OddRecord.mix([.stamped1970, .erased], into: ordinary)
        #expect(mixed.count == 11)
        #expect(mixed.filter { !$0.isErasedSlot }.map(\.recordID) == Array(1...10))
        #expect(mixed.filter { $0.timestamp == 259_200 }.count == 1)
        #expect(mixed.first?.timestamp == ordinary.first?.timestamp && mixed.last?.timestamp == ordinary.last?.timestamp)
        let kept = mixed.filter { !$0.isErasedSlot && $0.timestamp != 259_200 }
        #expect(kept.map(\.amountML) == ordinary.map(\.amountML))
        #expect(DrinkRing(records: mixed).nextRecordID == 11, "an erased slot's id is no id the counter gave")
    }

    @Test("an erased slot is counted, sent as all FF, and marked synced by the final ACK")
    func erasedOnTheAir() throws {
        let clock = ManualClock()
        let records = OddRecord.mix([.erased], into: RecordSource.generated(count: 2, endingAt: clock.now))
        var bottle = BottleModel(records: records, clock: clock)
        #expect(bottle.unsyncedCount == 3)
        let chunks = bottle.start(count: 3, chunkSize: 3).chunks
        #expect(chunks.count == 1)
        let sent = try #require(chunks.first?.records)
        #expect(sent.count == 3)
        #expect(sent.contains { $0.encoded() == Array(repeating: 0xFF, count: 14) })
        _ = bottle.ack()
        #expect(bottle.unsyncedCount == 0)
    }

    @Test("the chaos injector draws odd records for some seeds, the same for the same seed")
    func chaosDraw() {
        let draws = (UInt64(0)..<40).map { ChaosPlanner.oddRecords(seed: $0) }
        #expect(draws.contains { !$0.isEmpty } && draws.contains { $0.isEmpty })
        #expect((UInt64(0)..<40).map { ChaosPlanner.oddRecords(seed: $0) } == draws)
        #expect(Set(draws.joined()).count >= 3, "every kind comes up: \(Set(draws.joined()))")
    }
}
