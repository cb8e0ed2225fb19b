// What a drink record can be (docs/design.md 3.4): a chunk is refused whole only when its
// *structure* cannot be the sync's; a record that cannot be a drink is named by `RecordBounds`
// (the store quarantines it) and never refuses its chunk.

import Testing
@testable import AquavateProtocol

struct RecordBoundsTests {
    let now = 1_795_248_000.0

    func record(_ id: UInt32, amount: Int16 = 250, level: Int16 = 400, at timestamp: UInt32 = 1_795_240_000) -> DrinkRecord {
        DrinkRecord(recordID: id, timestamp: timestamp, amountML: amount, bottleLevelML: level, typeRaw: 0, flagsRaw: 0)
    }

    func chunk(_ index: UInt16, of total: UInt16, _ records: [DrinkRecord]) -> [UInt8] {
        DrinkDataChunk(chunkIndex: index, totalChunks: total, records: records).encoded()
    }

    @Test("one START for 6 records does not accept a seventh, nor chunks it did not ask for; the refusal is kept")
    func beyondTheCount() {
        var progress = SyncProgress(start: .start(count: 6, chunkSize: 2))
        guard case .accept = progress.receive(chunk(0, of: 3, [record(1), record(2)]), viaRead: false) else {
            Issue.record("the first chunk is fine"); return
        }
        _ = progress.acknowledged()
        guard case .implausible(let why) = progress.receive(chunk(1, of: 100, [record(3), record(4)]), viaRead: false) else {
            Issue.record("a changed total is refused"); return
        }
        #expect(why.contains("100"))
        #expect(progress.refusal == why)
        #expect(progress.outcome == .rejected)
        var flood = SyncProgress(start: .start(count: 6, chunkSize: 2))
        guard case .implausible = flood.receive(chunk(0, of: 100, [record(1)]), viaRead: false) else {
            Issue.record("100 chunks for 6 records are refused"); return
        }
        #expect(flood.acceptedRecords == 0 && flood.refusedChunks == 1)
    }

    @Test("a chunk with records that cannot be drinks is still accepted whole: the store quarantines them", arguments: [
        (Int16(32767), Int16(400), UInt32(1_795_240_000), [RecordProblem.amount]),
        (Int16(-32767), Int16(400), UInt32(1_795_240_000), [.amount]),
        (Int16(250), Int16(32000), UInt32(1_795_240_000), [.level]),
        (Int16(250), Int16(400), UInt32(259_200), [.time]),           // 1970 (B9: a wrong SET_TIME)
        (Int16(250), Int16(400), UInt32(946_717_200), [.time]),       // 2000 (an RTC reset)
        (Int16(250), Int16(400), UInt32.max, [.time]),                // 2106
        (Int16.max, Int16(-1), UInt32.max, [.time, .amount]),         // erased flash (TV11), flags aside
    ])
    func oddRecords(amount: Int16, level: Int16, timestamp: UInt32, problems: [RecordProblem]) {
        var progress = SyncProgress(start: .start(count: 2, chunkSize: 2))
        let odd = record(2, amount: amount, level: level, at: timestamp)
        let verdict = progress.receive(chunk(0, of: 1, [record(1), odd]), viaRead: false)
        guard case .accept(let accepted, _) = verdict else {
            Issue.record("expected the chunk accepted, got \(verdict)"); return
        }
        #expect(accepted.records == [record(1), odd])
        #expect(progress.refusal == nil)
        let bounds = RecordBounds(now: now)
        #expect(bounds.problems(with: record(1)).isEmpty)
        #expect(bounds.problems(with: odd) == problems)
        #expect(bounds.problem(with: odd)?.hasPrefix("record #2 ") == true)
    }

    @Test("an ordinary drink, a refill and a slightly negative level are drinks")
    func ordinaryRecords() {
        let bounds = RecordBounds(now: now)
        for record in [record(1), record(2, amount: -300), record(3, level: -4)] {
            #expect(bounds.problems(with: record).isEmpty)
        }
    }

    @Test("a chunk that cannot be decoded nor read back refuses the sync, with the reason")
    func unreadable() {
        var progress = SyncProgress(start: .start(count: 2, chunkSize: 2))
        let truncated = Array(chunk(0, of: 1, [record(1), record(2)]).prefix(20))
        guard case .rejected = progress.receive(truncated, viaRead: false) else { Issue.record("truncated"); return }
        #expect(progress.refusal == nil, "a notification cut by the MTU is read back first")
        guard case .rejected = progress.receive(truncated, viaRead: true) else { Issue.record("read back truncated"); return }
        #expect(progress.refusal?.contains("nor read back") == true)
        #expect(progress.outcome == .rejected)
    }

    @Test("the bottle's goal is believed only within 1000-4000 ml")
    func goal() throws {
        #expect(BottleConfig(scaleFactor: 1, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 2500).plausibleGoalML == 2500)
        #expect(BottleConfig(scaleFactor: 1, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 0).plausibleGoalML == nil)
        #expect(BottleConfig(scaleFactor: 1, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 60000).plausibleGoalML == nil)
    }
}
