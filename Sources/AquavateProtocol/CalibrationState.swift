// Calibration State (…0008), 12 bytes, notify / read (docs/protocol.md 3.9):
//   u8 state | u8 flags (bit 0 = error) | i32 empty_adc | i32 full_adc | u16 reserved

public struct CalibrationState: WireValue, Hashable {
    public static let structureName = "Calibration State"
    public static let byteCount = 12

    public var phase: CalibrationPhase
    /// Bit 0 = error (set exactly when the phase is ERROR).
    public var flags: UInt8
    /// Filled only in the COMPLETE notification, 0 otherwise (B12).
    public var emptyADC: Int32
    /// Filled only in the COMPLETE notification, 0 otherwise.
    public var fullADC: Int32
    public var reserved: UInt16

    public init(phase: CalibrationPhase, flags: UInt8 = 0, emptyADC: Int32 = 0, fullADC: Int32 = 0,
                reserved: UInt16 = 0) {
        self.phase = phase
        self.flags = flags
        self.emptyADC = emptyADC
        self.fullADC = fullADC
        self.reserved = reserved
    }

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        try Self.requireLength(bytes, exactly: Self.byteCount)
        phase = CalibrationPhase(rawValue: bytes[0])
        flags = bytes[1]
        emptyADC = bytes.i32LE(at: 2)
        fullADC = bytes.i32LE(at: 6)
        reserved = bytes.u16LE(at: 10)
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: Self.byteCount)
        writer.u8(phase.rawValue)
        writer.u8(flags)
        writer.i32(emptyADC)
        writer.i32(fullADC)
        writer.u16(reserved)
        return writer.bytes
    }

    public var hasError: Bool { flags & 0x01 != 0 }

    /// The saved calibration, only in a COMPLETE notification.
    public var completedPoints: CalibrationPoints? {
        phase == .complete ? CalibrationPoints(emptyADC: emptyADC, fullADC: fullADC) : nil
    }
}

/// The `state` byte (3.9). Unknown values are kept.
public enum CalibrationPhase: RawRepresentable, Sendable, Hashable {
    case idle
    case triggered
    case started
    case waitEmpty
    case measureEmpty
    /// Obsolete, never reached.
    case confirmEmpty
    case waitFull
    case measureFull
    /// Obsolete, never reached.
    case confirmFull
    case complete
    case error
    case unknown(UInt8)

    private static let known: [CalibrationPhase] = [
        .idle, .triggered, .started, .waitEmpty, .measureEmpty, .confirmEmpty,
        .waitFull, .measureFull, .confirmFull, .complete, .error,
    ]

    public init(rawValue: UInt8) {
        self = rawValue < Self.known.count ? Self.known[Int(rawValue)] : .unknown(rawValue)
    }

    public var rawValue: UInt8 {
        switch self {
        case .idle: return 0
        case .triggered: return 1
        case .started: return 2
        case .waitEmpty: return 3
        case .measureEmpty: return 4
        case .confirmEmpty: return 5
        case .waitFull: return 6
        case .measureFull: return 7
        case .confirmFull: return 8
        case .complete: return 9
        case .error: return 10
        case .unknown(let raw): return raw
        }
    }

    /// COMPLETE or ERROR: the bottle returns to idle 3 s later without notifying it.
    public var isFinal: Bool { self == .complete || self == .error }
}
