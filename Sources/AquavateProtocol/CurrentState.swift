// Current State (…0001), 14 bytes, read / notify (docs/protocol.md 3.1):
//   u32 timestamp | i16 current_weight_g | u16 bottle_level_ml | u16 daily_total_ml
//   | u8 battery_percent | u8 flags | u16 unsynced_count

/// The bottle's latest snapshot. Right after a wake it is all zero (`isPlaceholder`, TV2, B6).
public struct CurrentState: WireValue, Hashable {
    public static let structureName = "Current State"
    public static let byteCount = 14

    /// Bottle time of the snapshot; 0 = not built since wake.
    public var timestamp: UInt32
    /// Grams above the calibrated empty reading; meaningless while `calibrationADC` is non-nil.
    public var currentWeightG: Int16
    /// 0…830 ml; meaningless while `calibrationADC` is non-nil.
    public var bottleLevelML: UInt16
    public var dailyTotalML: UInt16
    public var batteryPercent: UInt8
    public var flags: CurrentStateFlags
    /// Records not yet synced, soft-deleted ones included (docs/protocol.md 4.1, B2).
    public var unsyncedCount: UInt16

    public init(timestamp: UInt32, currentWeightG: Int16, bottleLevelML: UInt16, dailyTotalML: UInt16,
                batteryPercent: UInt8, flags: CurrentStateFlags, unsyncedCount: UInt16) {
        self.timestamp = timestamp
        self.currentWeightG = currentWeightG
        self.bottleLevelML = bottleLevelML
        self.dailyTotalML = dailyTotalML
        self.batteryPercent = batteryPercent
        self.flags = flags
        self.unsyncedCount = unsyncedCount
    }

    /// The all-zero value the bottle holds after each wake until its first rebuild.
    public static let placeholder = CurrentState(
        timestamp: 0, currentWeightG: 0, bottleLevelML: 0, dailyTotalML: 0,
        batteryPercent: 0, flags: [], unsyncedCount: 0)

    /// Decodes exactly 14 bytes (13 and 15+ are rejected, TV7).
    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        try Self.requireLength(bytes, exactly: Self.byteCount)
        timestamp = bytes.u32LE(at: 0)
        currentWeightG = bytes.i16LE(at: 4)
        bottleLevelML = bytes.u16LE(at: 6)
        dailyTotalML = bytes.u16LE(at: 8)
        batteryPercent = bytes[10]
        flags = CurrentStateFlags(rawValue: bytes[11])
        unsyncedCount = bytes.u16LE(at: 12)
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: Self.byteCount)
        writer.u32(timestamp)
        writer.i16(currentWeightG)
        writer.u16(bottleLevelML)
        writer.u16(dailyTotalML)
        writer.u8(batteryPercent)
        writer.u8(flags.rawValue)
        writer.u16(unsyncedCount)
        return writer.bytes
    }

    /// "No snapshot yet" (TV2): timestamp 0 only occurs before the first rebuild after a wake.
    /// Its `unsyncedCount` of 0 must not be read as "nothing to sync"; read Sync Control instead.
    public var isPlaceholder: Bool { timestamp == 0 }

    /// The raw ADC reading of a CAL_MEASURE_POINT, present only while CAL_RESULT_READY is set
    /// (3.1.3): bytes 4…7 as one little-endian i32, built from the unsigned bit patterns (TV4).
    public var calibrationADC: Int32? {
        guard flags.contains(.calResultReady) else { return nil }
        let low = UInt32(UInt16(bitPattern: currentWeightG))
        return Int32(bitPattern: UInt32(bottleLevelML) << 16 | low)
    }

    /// Builds the overlaid snapshot a bottle sends with a calibration result (for simulators):
    /// sets CAL_RESULT_READY and stores `adc` in bytes 4…7.
    public func withCalibrationADC(_ adc: Int32) -> CurrentState {
        var copy = self
        let bits = UInt32(bitPattern: adc)
        copy.currentWeightG = Int16(bitPattern: UInt16(truncatingIfNeeded: bits))
        copy.bottleLevelML = UInt16(truncatingIfNeeded: bits >> 16)
        copy.flags.insert(.calResultReady)
        return copy
    }
}

/// The Current State `flags` byte (3.1). Reserved bits 6–7 are kept so a value re-encodes exactly.
public struct CurrentStateFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let timeValid = CurrentStateFlags(rawValue: 0x01)
    public static let calibrated = CurrentStateFlags(rawValue: 0x02)
    public static let stable = CurrentStateFlags(rawValue: 0x04)
    public static let calMeasuring = CurrentStateFlags(rawValue: 0x08)
    public static let calResultReady = CurrentStateFlags(rawValue: 0x10)
    public static let lowBattery = CurrentStateFlags(rawValue: 0x20)

    private static let named: [(flag: CurrentStateFlags, name: String)] = [
        (.timeValid, "time_valid"), (.calibrated, "calibrated"), (.stable, "stable"),
        (.calMeasuring, "cal_measuring"), (.calResultReady, "cal_result_ready"), (.lowBattery, "low_battery"),
    ]

    /// snake_case names of the set bits, lowest bit first, e.g. ["time_valid", "calibrated", "stable"].
    /// Reserved bits appear as "reserved_0x40" / "reserved_0x80".
    public var names: [String] {
        var result = Self.named.filter { contains($0.flag) }.map(\.name)
        for bit in [UInt8(0x40), 0x80] where rawValue & bit != 0 {
            result.append("reserved_0x\(String(bit, radix: 16))")
        }
        return result
    }
}
