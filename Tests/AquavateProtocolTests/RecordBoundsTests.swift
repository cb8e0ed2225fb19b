// A buggy firmware or a device spoofing the bottle is not believed too far (issue 11, the air):
// chunks beyond the START's count and records that cannot be drinks are refused whole.

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

    @Test("one START for 6 records does not accept a seventh, nor chunks it did not ask for")
    func beyondTheCount() {
        var progress = SyncProgress(start: .start(count: 6, chunkSize: 2), bounds: RecordBounds(now: now))
        guard case .accept = progress.receive(chunk(0, of: 3, [record(1), record(2)]), viaRead: false) else {
            Issue.record("the first chunk is fine"); return
        }
        _ = progress.acknowledged()
        guard case .implausible(let why) = progress.receive(chunk(1, of: 100, [record(3), record(4)]), viaRead: false) else {
            Issue.record("a changed total is refused"); return
        }
        #expect(why.contains("100"))
        var flood = SyncProgress(start: .start(count: 6, chunkSize: 2), bounds: RecordBounds(now: now))
        guard case .implausible = flood.receive(chunk(0, of: 100, [record(1)]), viaRead: false) else {
            Issue.record("100 chunks for 6 records are refused"); return
        }
        #expect(flood.acceptedRecords == 0 && flood.refusedChunks == 1)
    }

    @Test("amounts, levels and timestamps that cannot be drinks refuse the chunk whole", arguments: [
        (Int16(32767), Int16(400), UInt32(1_795_240_000)),
        (Int16(-32767), Int16(400), UInt32(1_795_240_000)),
        (Int16(250), Int16(32000), UInt32(1_795_240_000)),
        (Int16(250), Int16(400), UInt32(1000)),                // 1970
        (Int16(250), Int16(400), UInt32.max),                  // 2106
    ])
    func impossibleRecords(amount: Int16, level: Int16, timestamp: UInt32) {
        var progress = SyncProgress(start: .start(count: 2, chunkSize: 2), bounds: RecordBounds(now: now))
        let verdict = progress.receive(chunk(0, of: 1, [record(1), record(2, amount: amount, level: level, at: timestamp)]), viaRead: false)
        guard case .implausible(let why) = verdict else {
            Issue.record("expected a refusal, got \(verdict)"); return
        }
        #expect(why.contains("record #2"))
        #expect(progress.acceptedRecords == 0, "nothing of the chunk is taken")
    }

    @Test("an ordinary drink, a refill and a slightly negative level are accepted")
    func ordinaryRecords() {
        var progress = SyncProgress(start: .start(count: 3, chunkSize: 3), bounds: RecordBounds(now: now))
        let verdict = progress.receive(chunk(0, of: 1, [record(1), record(2, amount: -300), record(3, level: -4)]), viaRead: false)
        guard case .accept(let accepted, _) = verdict else { Issue.record("\(verdict)"); return }
        #expect(accepted.records.count == 3)
    }

    @Test("the bottle's goal is believed only within 1000-4000 ml")
    func goal() throws {
        #expect(BottleConfig(scaleFactor: 1, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 2500).plausibleGoalML == 2500)
        #expect(BottleConfig(scaleFactor: 1, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 0).plausibleGoalML == nil)
        #expect(BottleConfig(scaleFactor: 1, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 60000).plausibleGoalML == nil)
    }
}
