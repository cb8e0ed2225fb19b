// Command (…0005), write only (docs/protocol.md 3.6, section 6).
//
// The bottle dispatches on the write's LENGTH first, then on byte 0:
//   5 bytes:  0x10 SET_TIME u32 | 0x12 DELETE_DRINK_RECORD u32
//   3 bytes:  0x11 SET_DAILY_TOTAL u16 (deprecated, no effect)
//   13 bytes: 0x04 CAL_SET_DATA i32 empty, i32 full, f32 scale
//   4 bytes:  [cmd, param1, param2_lo, param2_hi], cmd from the table below; param2 is never used
// Everything else, including 0x10/0x12/0x04/0x11 in 4-byte form, is silently ignored.

public enum Command: WireValue, Hashable {
    /// 5 bytes `10 t0 t1 t2 t3`: UTC seconds since 1970.
    case setTime(UInt32)
    /// 3 bytes `11 lo hi`: accepted and ignored by current firmware.
    case setDailyTotal(UInt16)
    /// 13 bytes: legacy client-driven calibration. Dispatched whatever the values; the bottle then
    /// acts on it only if `isAcceptedByBottle` (scale > 0 and full > empty, TV24).
    case calSetData(emptyADC: Int32, fullADC: Int32, scale: Float)
    /// 5 bytes `12 i0 i1 i2 i3`.
    case deleteDrinkRecord(UInt32)
    case tareNow
    case ping
    /// param1: 0 empty, 1 full (informational only).
    case calMeasurePoint(UInt8)
    case resetDaily
    case clearHistory
    case startCalibration
    case cancelCalibration
    case getActivitySummary
    /// param1: chunk index.
    case getMotionChunk(UInt8)
    /// param1: chunk index.
    case getBackpackChunk(UInt8)

    public static let structureName = "Command"

    /// Command codes (byte 0).
    public enum Code {
        public static let tareNow: UInt8 = 0x01
        public static let ping: UInt8 = 0x02
        public static let calMeasurePoint: UInt8 = 0x03
        public static let calSetData: UInt8 = 0x04
        public static let resetDaily: UInt8 = 0x05
        public static let clearHistory: UInt8 = 0x06
        public static let setTime: UInt8 = 0x10
        public static let setDailyTotal: UInt8 = 0x11
        public static let deleteDrinkRecord: UInt8 = 0x12
        public static let startCalibration: UInt8 = 0x20
        public static let cancelCalibration: UInt8 = 0x21
        public static let getActivitySummary: UInt8 = 0x30
        public static let getMotionChunk: UInt8 = 0x31
        public static let getBackpackChunk: UInt8 = 0x32
    }

    /// Decodes a write the way the bottle dispatches it; nil for anything the bottle ignores.
    /// For 4-byte commands the unused parameters are not checked (the bottle does not look at them),
    /// so `encoded()` may differ from the input in bytes 1–3 (2–3 for commands that take param1).
    public static func parse(_ bytes: [UInt8]) -> Command? {
        guard let code = bytes.first else { return nil }
        switch (bytes.count, code) {
        case (5, Code.setTime): return .setTime(bytes.u32LE(at: 1))
        case (5, Code.deleteDrinkRecord): return .deleteDrinkRecord(bytes.u32LE(at: 1))
        case (3, Code.setDailyTotal): return .setDailyTotal(bytes.u16LE(at: 1))
        case (13, Code.calSetData):
            return .calSetData(emptyADC: bytes.i32LE(at: 1), fullADC: bytes.i32LE(at: 5), scale: bytes.f32LE(at: 9))
        case (4, _): return standard(code: code, param1: bytes[1])
        default: return nil
        }
    }

    private static func standard(code: UInt8, param1: UInt8) -> Command? {
        switch code {
        case Code.tareNow: return .tareNow
        case Code.ping: return .ping
        case Code.calMeasurePoint: return .calMeasurePoint(param1)
        case Code.resetDaily: return .resetDaily
        case Code.clearHistory: return .clearHistory
        case Code.startCalibration: return .startCalibration
        case Code.cancelCalibration: return .cancelCalibration
        case Code.getActivitySummary: return .getActivitySummary
        case Code.getMotionChunk: return .getMotionChunk(param1)
        case Code.getBackpackChunk: return .getBackpackChunk(param1)
        default: return nil
        }
    }

    /// `parse`, throwing `.ignoredCommand` instead of returning nil.
    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        guard let command = Self.parse(bytes) else { throw .ignoredCommand(bytes: bytes) }
        self = command
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: 13)
        switch self {
        case .setTime(let seconds):
            writer.u8(Code.setTime)
            writer.u32(seconds)
        case .setDailyTotal(let millilitres):
            writer.u8(Code.setDailyTotal)
            writer.u16(millilitres)
        case let .calSetData(emptyADC, fullADC, scale):
            writer.u8(Code.calSetData)
            writer.i32(emptyADC)
            writer.i32(fullADC)
            writer.f32(scale)
        case .deleteDrinkRecord(let recordID):
            writer.u8(Code.deleteDrinkRecord)
            writer.u32(recordID)
        default:
            let (code, param1) = standardForm
            writer.u8(code)
            writer.u8(param1)
            writer.u16(0)
        }
        return writer.bytes
    }

    /// `(cmd, param1)` of the 4-byte form; only meaningful for 4-byte commands.
    private var standardForm: (UInt8, UInt8) {
        switch self {
        case .tareNow: return (Code.tareNow, 0)
        case .ping: return (Code.ping, 0)
        case .calMeasurePoint(let point): return (Code.calMeasurePoint, point)
        case .resetDaily: return (Code.resetDaily, 0)
        case .clearHistory: return (Code.clearHistory, 0)
        case .startCalibration: return (Code.startCalibration, 0)
        case .cancelCalibration: return (Code.cancelCalibration, 0)
        case .getActivitySummary: return (Code.getActivitySummary, 0)
        case .getMotionChunk(let index): return (Code.getMotionChunk, index)
        case .getBackpackChunk(let index): return (Code.getBackpackChunk, index)
        case .setTime, .setDailyTotal, .calSetData, .deleteDrinkRecord: return (0, 0)
        }
    }

    /// Byte 0 of the encoded command.
    public var code: UInt8 { encoded()[0] }

    /// Whether the bottle acts on the command once dispatched. Only CAL_SET_DATA can be dispatched
    /// and still dropped: it needs scale > 0 and full > empty (6.5 B.4, TV24).
    public var isAcceptedByBottle: Bool {
        if case let .calSetData(emptyADC, fullADC, scale) = self {
            return scale > 0 && fullADC > emptyADC
        }
        return true
    }

    /// Whether the write counts as BLE "data activity" that restarts the sleep timers (1.4):
    /// every write to Command except a valid SET_TIME. Use `Command.countsAsActivity(_:)` for raw
    /// writes, since malformed and unknown commands count too.
    public var countsAsActivity: Bool {
        if case .setTime = self { return false }
        return true
    }

    /// Activity rule for any raw write to the Command characteristic (1.4).
    public static func countsAsActivity(_ bytes: [UInt8]) -> Bool {
        parse(bytes)?.countsAsActivity ?? true
    }

    /// The CAL_SET_DATA for two measured points, with the bottle's formula scale = (full − empty) / 830.
    public static func calSetData(_ points: CalibrationPoints) -> Command {
        .calSetData(emptyADC: points.emptyADC, fullADC: points.fullADC, scale: points.scale)
    }
}
