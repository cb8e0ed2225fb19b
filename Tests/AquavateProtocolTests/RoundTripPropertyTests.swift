// Property tests over random values from a seeded generator (reproducible, no flakiness):
// bytes → value → bytes is the identity for every valid length, and value → bytes → value too.

import BusTestSupport
import AquavateProtocol
import Testing

@Suite("Round-trip properties")
struct RoundTripPropertyTests {
    static let iterations = 2000

    /// Random bytes of the exact length decode and re-encode bit for bit (NaN floats included).
    static func checkBytesRoundTrip<Value: WireValue>(_ type: Value.Type, length: Int, seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<iterations {
            let bytes = generator.bytes(length)
            #expect(try Value(decoding: bytes).encoded() == bytes)
        }
    }

    @Test("Fixed-size structures: bytes → value → bytes")
    func fixedSizeBytes() throws {
        try Self.checkBytesRoundTrip(CurrentState.self, length: 14, seed: 1)
        try Self.checkBytesRoundTrip(DrinkRecord.self, length: 14, seed: 2)
        try Self.checkBytesRoundTrip(BottleConfig.self, length: 12, seed: 3)
        try Self.checkBytesRoundTrip(SyncControl.self, length: 8, seed: 4)
        try Self.checkBytesRoundTrip(DeviceSettings.self, length: 4, seed: 5)
        try Self.checkBytesRoundTrip(ActivitySummary.self, length: 12, seed: 6)
        try Self.checkBytesRoundTrip(CalibrationState.self, length: 12, seed: 7)
    }

    @Test("Drink records: value → bytes → value")
    func recordValues() throws {
        var generator = SeededGenerator(seed: 10)
        for _ in 0..<Self.iterations {
            let record = generator.record()
            #expect(try DrinkRecord(decoding: record.encoded()) == record)
        }
    }

    @Test("Current State: value → bytes → value, and the overlay matches bytes 4…7")
    func currentStateValues() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<Self.iterations {
            let state = CurrentState(
                timestamp: .random(in: .min ... .max, using: &generator),
                currentWeightG: .random(in: .min ... .max, using: &generator),
                bottleLevelML: .random(in: .min ... .max, using: &generator),
                dailyTotalML: .random(in: .min ... .max, using: &generator),
                batteryPercent: .random(in: 0...100, using: &generator),
                flags: CurrentStateFlags(rawValue: .random(in: .min ... .max, using: &generator)),
                unsyncedCount: .random(in: .min ... .max, using: &generator))
            let bytes = state.encoded()
            #expect(try CurrentState(decoding: bytes) == state)
            let adc = Int32.random(in: .min ... .max, using: &generator)
            let overlaid = state.withCalibrationADC(adc)
            #expect(overlaid.calibrationADC == adc)
            let raw = overlaid.encoded()
            #expect(Int32(bitPattern: UInt32(raw[4]) | UInt32(raw[5]) << 8 | UInt32(raw[6]) << 16 | UInt32(raw[7]) << 24) == adc)
        }
    }

    @Test("Drink Data chunks: random chunks round-trip, truncations are always rejected")
    func chunks() throws {
        var generator = SeededGenerator(seed: 12)
        for _ in 0..<500 {
            let count = Int.random(in: 0...20, using: &generator)
            let chunk = DrinkDataChunk(chunkIndex: .random(in: .min ... .max, using: &generator),
                                       totalChunks: .random(in: .min ... .max, using: &generator),
                                       records: (0..<count).map { _ in generator.record() },
                                       reserved: .random(in: .min ... .max, using: &generator))
            let bytes = chunk.encoded()
            #expect(bytes.count == 6 + 14 * count)
            #expect(try DrinkDataChunk(decoding: bytes) == chunk)
            let trailing = generator.bytes(Int.random(in: 1...30, using: &generator))
            let withTrailing = try DrinkDataChunk(decoding: bytes + trailing)
            #expect(withTrailing.records == chunk.records)
            #expect(withTrailing.trailingByteCount == trailing.count)
            if count > 0 {
                let cut = Int.random(in: 6..<bytes.count, using: &generator)
                #expect(throws: ProtocolError.truncatedChunk(declaredRecords: count, neededBytes: bytes.count,
                                                             actualBytes: cut)) {
                    try DrinkDataChunk(decoding: Array(bytes.prefix(cut)))
                }
            }
        }
    }

    @Test("Activity chunks: random chunks round-trip")
    func activityChunks() throws {
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<500 {
            let motion = MotionEventChunk(
                chunkIndex: .random(in: 0...9, using: &generator), totalChunks: .random(in: 1...10, using: &generator),
                events: (0..<Int.random(in: 0...10, using: &generator)).map { _ in
                    MotionEvent(timestamp: .random(in: .min ... .max, using: &generator),
                                durationSec: .random(in: .min ... .max, using: &generator),
                                wakeReason: WakeReason(rawValue: .random(in: .min ... .max, using: &generator)),
                                sleepTypeRaw: .random(in: .min ... .max, using: &generator))
                })
            #expect(try MotionEventChunk(decoding: motion.encoded()) == motion)
            let backpack = BackpackSessionChunk(
                chunkIndex: .random(in: 0...3, using: &generator), totalChunks: .random(in: 1...4, using: &generator),
                sessions: (0..<Int.random(in: 0...5, using: &generator)).map { _ in
                    BackpackSession(startTimestamp: .random(in: .min ... .max, using: &generator),
                                    durationSec: .random(in: .min ... .max, using: &generator),
                                    timerWakeCount: .random(in: .min ... .max, using: &generator),
                                    exitReason: BackpackExitReason(rawValue: .random(in: .min ... .max, using: &generator)),
                                    flags: .random(in: .min ... .max, using: &generator))
                })
            #expect(try BackpackSessionChunk(decoding: backpack.encoded()) == backpack)
        }
    }

    @Test("Commands: random values encode and parse back (floats compared by bit pattern)")
    func commands() throws {
        var generator = SeededGenerator(seed: 14)
        for _ in 0..<Self.iterations {
            let param = UInt8.random(in: .min ... .max, using: &generator)
            let candidates: [Command] = [
                .setTime(.random(in: .min ... .max, using: &generator)),
                .setDailyTotal(.random(in: .min ... .max, using: &generator)),
                .calSetData(emptyADC: .random(in: .min ... .max, using: &generator),
                            fullADC: .random(in: .min ... .max, using: &generator),
                            scale: Float(bitPattern: .random(in: .min ... .max, using: &generator))),
                .deleteDrinkRecord(.random(in: .min ... .max, using: &generator)),
                .calMeasurePoint(param), .getMotionChunk(param), .getBackpackChunk(param),
                .tareNow, .ping, .resetDaily, .clearHistory, .startCalibration, .cancelCalibration, .getActivitySummary,
            ]
            for command in candidates {
                let bytes = command.encoded()
                #expect([3, 4, 5, 13].contains(bytes.count))
                #expect(try Command(decoding: bytes).encoded() == bytes)
            }
        }
    }

    @Test("Random writes of any length: parse never crashes and re-encodes what it dispatched")
    func randomCommandWrites() {
        var generator = SeededGenerator(seed: 15)
        for _ in 0..<Self.iterations {
            let bytes = generator.bytes(Int.random(in: 0...16, using: &generator))
            guard let command = Command.parse(bytes) else { continue }
            let encoded = command.encoded()
            #expect(encoded.count == bytes.count)
            #expect(encoded.first == bytes.first)
            if bytes.count != 4 { #expect(encoded == bytes) }
        }
    }

    @Test("Bottle Config: goal writes are always in range and keep writable scales")
    func goalWrites() {
        var generator = SeededGenerator(seed: 16)
        for _ in 0..<Self.iterations {
            let config = BottleConfig(scaleFactor: Float.random(in: -10...1000, using: &generator),
                                      tareWeightGrams: .random(in: -1000...1000, using: &generator),
                                      bottleCapacityML: .random(in: .min ... .max, using: &generator),
                                      dailyGoalML: .random(in: .min ... .max, using: &generator))
            let write = config.goalChangeWrite(goalML: Int.random(in: -10_000...10_000, using: &generator))
            #expect(BottleGoal.holds(Int(write.dailyGoalML)))
            #expect(write.isWritableScale)
            #expect(write.bottleCapacityML == 830)
            if config.isWritableScale {
                #expect(write.scaleFactor == config.scaleFactor && write.tareWeightGrams == config.tareWeightGrams)
            }
        }
    }
}
