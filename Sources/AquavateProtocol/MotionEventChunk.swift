// Motion-event chunk on Activity Stats (…0007), the reply to 0x31: 4 + 8·n bytes, n ≤ 10
// (docs/protocol.md 3.8.2). Event: u32 timestamp | u16 duration_sec | u8 wake_reason | u8 sleep_type.

public struct MotionEventChunk: WireValue, Hashable {
    public static let structureName = "Motion-event chunk"
    public static let eventByteCount = 8
    public static let maxEvents = 10

    public var chunkIndex: UInt8
    /// max(1, ceil(count / 10)).
    public var totalChunks: UInt8
    public var reserved: UInt8
    /// Oldest first.
    public var events: [MotionEvent]

    public init(chunkIndex: UInt8, totalChunks: UInt8, events: [MotionEvent], reserved: UInt8 = 0) {
        self.chunkIndex = chunkIndex
        self.totalChunks = totalChunks
        self.events = events
        self.reserved = reserved
    }

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        let count = try ActivityChunkLayout.validate(bytes, structure: Self.structureName,
                                                     entrySize: Self.eventByteCount, maxEntries: Self.maxEvents)
        chunkIndex = bytes[0]
        totalChunks = bytes[1]
        reserved = bytes[3]
        events = (0..<count).map { index in
            let offset = ActivityChunkLayout.headerByteCount + index * Self.eventByteCount
            return MotionEvent(timestamp: bytes.u32LE(at: offset), durationSec: bytes.u16LE(at: offset + 4),
                               wakeReason: WakeReason(rawValue: bytes[offset + 6]), sleepTypeRaw: bytes[offset + 7])
        }
    }

    public func encoded() -> [UInt8] {
        precondition(events.count <= 255, "a motion-event chunk carries at most 255 events")
        var writer = WireWriter(capacity: ActivityChunkLayout.headerByteCount + events.count * Self.eventByteCount)
        writer.u8(chunkIndex)
        writer.u8(totalChunks)
        writer.u8(UInt8(events.count))
        writer.u8(reserved)
        for event in events {
            writer.u32(event.timestamp)
            writer.u16(event.durationSec)
            writer.u8(event.wakeReason.rawValue)
            writer.u8(event.sleepTypeRaw)
        }
        return writer.bytes
    }

    /// Stop requesting after this chunk (6.6).
    public var isLast: Bool { Int(chunkIndex) + 1 >= Int(totalChunks) }
}

/// One wake of the bottle.
public struct MotionEvent: Sendable, Hashable {
    /// Bottle time of the wake.
    public var timestamp: UInt32
    /// Seconds awake.
    public var durationSec: UInt16
    public var wakeReason: WakeReason
    /// Bits 0–6: the sleep that followed; bit 7: a drink was recorded during this wake.
    public var sleepTypeRaw: UInt8

    public init(timestamp: UInt32, durationSec: UInt16, wakeReason: WakeReason, sleepTypeRaw: UInt8) {
        self.timestamp = timestamp
        self.durationSec = durationSec
        self.wakeReason = wakeReason
        self.sleepTypeRaw = sleepTypeRaw
    }

    public var sleepType: SleepType { SleepType(rawValue: sleepTypeRaw & 0x7F) }
    public var drinkTaken: Bool { sleepTypeRaw & 0x80 != 0 }
}

public enum WakeReason: RawRepresentable, Sendable, Hashable {
    case motion
    case timer
    case powerOn
    case other
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .motion
        case 1: self = .timer
        case 2: self = .powerOn
        case 3: self = .other
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .motion: return 0
        case .timer: return 1
        case .powerOn: return 2
        case .other: return 3
        case .unknown(let raw): return raw
        }
    }
}

/// Bits 0–6 of `sleep_type`.
public enum SleepType: RawRepresentable, Sendable, Hashable {
    case normal
    /// Backpack-mode sleep, woken by double-tap.
    case extended
    /// 0x7F: the bottle is still awake (the current wake).
    case stillAwake
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .normal
        case 1: self = .extended
        case 0x7F: self = .stillAwake
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .normal: return 0
        case .extended: return 1
        case .stillAwake: return 0x7F
        case .unknown(let raw): return raw
        }
    }
}
