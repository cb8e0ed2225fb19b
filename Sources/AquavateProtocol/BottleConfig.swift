// Bottle Config (…0002), 12 bytes, read / write (docs/protocol.md 3.2, B8):
//   f32 scale_factor | i32 tare_weight_grams | u16 bottle_capacity_ml | u16 daily_goal_ml

public struct BottleConfig: WireValue, Hashable {
    public static let structureName = "Bottle Config"
    public static let byteCount = 12

    /// The only capacity the firmware knows; written values are ignored.
    public static let fixedCapacityML: UInt16 = 830
    /// Scale factors a write must carry to be accepted at all (whole write rejected otherwise).
    public static let writableScaleRange: ClosedRange<Float> = 100...800
    public static let defaultGoalML = UInt16(BottleGoal.defaultML)
    /// An in-range scale to send when the bottle is uncalibrated (its read shows 1.0, which
    /// would be rejected). Harmless there: no calibration exists to be rewritten (3.2).
    public static let placeholderWritableScale: Float = 400

    /// ADC counts per gram.
    public var scaleFactor: Float
    /// Empty-bottle ADC ÷ scale, truncated: an offset in "grams", not a real tare mass.
    public var tareWeightGrams: Int32
    public var bottleCapacityML: UInt16
    public var dailyGoalML: UInt16

    public init(scaleFactor: Float, tareWeightGrams: Int32, bottleCapacityML: UInt16, dailyGoalML: UInt16) {
        self.scaleFactor = scaleFactor
        self.tareWeightGrams = tareWeightGrams
        self.bottleCapacityML = bottleCapacityML
        self.dailyGoalML = dailyGoalML
    }

    /// What an uncalibrated bottle reads back until the first write: `00 00 80 3F 00 00 00 00 3E 03 C4 09`.
    public static let uncalibratedBootValue = BottleConfig(
        scaleFactor: 1.0, tareWeightGrams: 0, bottleCapacityML: fixedCapacityML, dailyGoalML: defaultGoalML)

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        try Self.requireLength(bytes, exactly: Self.byteCount)
        scaleFactor = bytes.f32LE(at: 0)
        tareWeightGrams = bytes.i32LE(at: 4)
        bottleCapacityML = bytes.u16LE(at: 8)
        dailyGoalML = bytes.u16LE(at: 10)
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: Self.byteCount)
        writer.f32(scaleFactor)
        writer.i32(tareWeightGrams)
        writer.u16(bottleCapacityML)
        writer.u16(dailyGoalML)
        return writer.bytes
    }

    /// Whether the bottle would accept this value as a write (scale in [100, 800]; NaN is not).
    public var isWritableScale: Bool { Self.writableScaleRange.contains(scaleFactor) }

    /// The same config with a new goal, clamped as the bottle would store it (`BottleGoal`), and the
    /// fixed capacity. Scale and tare are echoed, as a goal-only change requires (6.7).
    public func withGoal(_ goalML: Int) -> BottleConfig {
        var copy = self
        copy.dailyGoalML = UInt16(BottleGoal.clamped(goalML))
        copy.bottleCapacityML = Self.fixedCapacityML
        return copy
    }

    /// The write that changes only the goal, given the value just read: `withGoal`, except that an
    /// unwritable scale (an uncalibrated bottle reads 1.0) is replaced by `placeholderWritableScale`
    /// and tare 0, so the write is not rejected. Only a bottle without calibration reads an
    /// out-of-range scale (a calibration outside 100–800 is never accepted, B7), so nothing is lost.
    public func goalChangeWrite(goalML: Int) -> BottleConfig {
        var write = withGoal(goalML)
        if !write.isWritableScale {
            write.scaleFactor = Self.placeholderWritableScale
            write.tareWeightGrams = 0
        }
        return write
    }

    /// The calibration a calibrated bottle stores when this value is written (3.2 step 3), computed
    /// in f32 and truncated like the firmware: empty = trunc(tare × scale),
    /// full = empty + trunc(830 × scale). Nil when the write would be rejected.
    public var calibrationAfterWrite: CalibrationPoints? {
        guard isWritableScale else { return nil }
        let empty = Int32(firmwareTruncating: Float(tareWeightGrams) * scaleFactor)
        let span = Int32(firmwareTruncating: Float(Self.fixedCapacityML) * scaleFactor)
        return CalibrationPoints(emptyADC: empty, fullADC: empty.addingReportingOverflow(span).partialValue)
    }
}

/// The two raw load-cell readings a calibration consists of.
public struct CalibrationPoints: Sendable, Hashable {
    public var emptyADC: Int32
    public var fullADC: Int32

    public init(emptyADC: Int32, fullADC: Int32) {
        self.emptyADC = emptyADC
        self.fullADC = fullADC
    }

    /// ADC counts per gram: (full − empty) / 830 (3.9, 6.5).
    public var scale: Float {
        Float(Int64(fullADC) - Int64(emptyADC)) / Float(BottleConfig.fixedCapacityML)
    }
}

extension Int32 {
    /// Truncates toward zero like a C cast, but saturates instead of trapping (NaN gives 0),
    /// since a firmware overflow is undefined behaviour we must not turn into a crash. The
    /// simulated bottle's firmware arithmetic uses it too.
    package init(firmwareTruncating value: Float) {
        if value.isNaN {
            self = 0
        } else if value >= 2_147_483_648 {
            self = .max
        } else if value < -2_147_483_648 {
            self = .min
        } else {
            self = Int32(value) // Float → Int truncates toward zero
        }
    }
}
