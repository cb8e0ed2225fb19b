// Bottle Config, docs/protocol.md 3.2 and B8, vector TV26.

import AquavateProtocol
import Testing

@Suite("Bottle Config (TV26)")
struct BottleConfigTests {
    @Test("TV26: calibrated value and what a write does to the calibration")
    func calibratedValue() throws {
        let bytes = try hex("00 00 C8 43 FA 00 00 00 3E 03 C4 09")
        let config = try BottleConfig(decoding: bytes)
        #expect(config.scaleFactor == 400.0)
        #expect(config.tareWeightGrams == 250)
        #expect(config.bottleCapacityML == 830)
        #expect(config.dailyGoalML == 2500)
        #expect(config.isWritableScale)
        #expect(config.calibrationAfterWrite == CalibrationPoints(emptyADC: 100_000, fullADC: 432_000))
        #expect(config.encoded() == bytes)
    }

    @Test("TV26: the uncalibrated boot value")
    func bootValue() throws {
        let bytes = try hex("00 00 80 3F 00 00 00 00 3E 03 C4 09")
        #expect(BottleConfig.uncalibratedBootValue.encoded() == bytes)
        let config = try BottleConfig(decoding: bytes)
        #expect(config == .uncalibratedBootValue)
        #expect(config.scaleFactor == 1.0)
        #expect(!config.isWritableScale)
    }

    @Test("TV26: scale 50.0 rejects the whole write, goal included")
    func rejectedScale() throws {
        let config = try BottleConfig(decoding: hex("00 00 48 42 FA 00 00 00 3E 03 B8 0B"))
        #expect(config.scaleFactor == 50.0)
        #expect(config.dailyGoalML == 3000)
        #expect(!config.isWritableScale)
        #expect(config.calibrationAfterWrite == nil)
    }

    @Test("TV26: scale boundaries", arguments: [("00 00 C8 42", Float(100.0), true), ("00 00 48 44", Float(800.0), true),
                                                 ("00 20 48 44", Float(800.5), false)])
    func scaleBoundaries(scaleHex: String, scale: Float, writable: Bool) throws {
        let config = try BottleConfig(decoding: hex(scaleHex + " FA 00 00 00 3E 03 C4 09"))
        #expect(config.scaleFactor == scale)
        #expect(config.isWritableScale == writable)
    }

    @Test("NaN and infinite scales are not writable")
    func nonFiniteScales() {
        for scale in [Float.nan, .infinity, -.infinity, -400] {
            var config = BottleConfig.uncalibratedBootValue
            config.scaleFactor = scale
            #expect(!config.isWritableScale)
        }
    }

    @Test("withGoal clamps to 1000…4000 and echoes scale and tare")
    func withGoal() throws {
        let config = try BottleConfig(decoding: hex("00 00 C8 43 FA 00 00 00 10 00 C4 09"))
        #expect(config.withGoal(3000) == BottleConfig(scaleFactor: 400, tareWeightGrams: 250, bottleCapacityML: 830,
                                                      dailyGoalML: 3000))
        #expect(config.withGoal(500).dailyGoalML == 1000)
        #expect(config.withGoal(-1).dailyGoalML == 1000)
        #expect(config.withGoal(4001).dailyGoalML == 4000)
        #expect(config.withGoal(.max).dailyGoalML == 4000)
        #expect(config.withGoal(3000).encoded() == (try hex("00 00 C8 43 FA 00 00 00 3E 03 B8 0B")))
    }

    @Test("goalChangeWrite substitutes a writable scale only for an uncalibrated read")
    func goalChangeWrite() throws {
        let uncalibrated = BottleConfig.uncalibratedBootValue.goalChangeWrite(goalML: 3000)
        #expect(uncalibrated == BottleConfig(scaleFactor: 400, tareWeightGrams: 0, bottleCapacityML: 830, dailyGoalML: 3000))
        #expect(uncalibrated.isWritableScale)
        let calibrated = try BottleConfig(decoding: hex("00 00 C8 43 FA 00 00 00 3E 03 C4 09"))
        #expect(calibrated.goalChangeWrite(goalML: 3000) == calibrated.withGoal(3000))
    }

    @Test("Wrong lengths are rejected", arguments: [0, 11, 13])
    func wrongLength(length: Int) {
        #expect(throws: ProtocolError.wrongLength(structure: "Bottle Config", expected: "exactly 12", actual: length)) {
            try BottleConfig(decoding: Array(repeating: 0, count: length))
        }
    }

    @Test("A calibration rewrite saturates instead of trapping on overflow")
    func rewriteOverflow() {
        let config = BottleConfig(scaleFactor: 800, tareWeightGrams: .max, bottleCapacityML: 830, dailyGoalML: 2500)
        let points = config.calibrationAfterWrite
        #expect(points?.emptyADC == .max)
    }
}
