// Backpack-session chunk on Activity Stats (…0007), the reply to 0x32: 4 + 12·n bytes, n ≤ 5
// (docs/protocol.md 3.8.3). Session: u32 start | u32 duration_sec | u16 timer_wake_count
// | u8 exit_reason | u8 flags. With no sessions, index 0 returns the bare header `00 01 00 00`.

public struct BackpackSessionChunk: WireValue, Hashable {
    public static let structureName = "Backpack-session chunk"
    public static let sessionByteCount = 12
    public static let maxSessions = 5

    public var chunkIndex: UInt8
    /// max(1, ceil(count / 5)).
    public var totalChunks: UInt8
    public var reserved: UInt8
    /// Oldest first.
    public var sessions: [BackpackSession]

    public init(chunkIndex: UInt8, totalChunks: UInt8, sessions: [BackpackSession], reserved: UInt8 = 0) {
        self.chunkIndex = chunkIndex
        self.totalChunks = totalChunks
        self.sessions = sessions
        self.reserved = reserved
    }

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        let count = try ActivityChunkLayout.validate(bytes, structure: Self.structureName,
                                                     entrySize: Self.sessionByteCount, maxEntries: Self.maxSessions)
        chunkIndex = bytes[0]
        totalChunks = bytes[1]
        reserved = bytes[3]
        sessions = (0..<count).map { index in
            let offset = ActivityChunkLayout.headerByteCount + index * Self.sessionByteCount
            return BackpackSession(startTimestamp: bytes.u32LE(at: offset), durationSec: bytes.u32LE(at: offset + 4),
                                   timerWakeCount: bytes.u16LE(at: offset + 8),
                                   exitReason: BackpackExitReason(rawValue: bytes[offset + 10]),
                                   flags: bytes[offset + 11])
        }
    }

    public func encoded() -> [UInt8] {
        precondition(sessions.count <= 255, "a backpack-session chunk carries at most 255 sessions")
        var writer = WireWriter(capacity: ActivityChunkLayout.headerByteCount + sessions.count * Self.sessionByteCount)
        writer.u8(chunkIndex)
        writer.u8(totalChunks)
        writer.u8(UInt8(sessions.count))
        writer.u8(reserved)
        for session in sessions {
            writer.u32(session.startTimestamp)
            writer.u32(session.durationSec)
            writer.u16(session.timerWakeCount)
            writer.u8(session.exitReason.rawValue)
            writer.u8(session.flags)
        }
        return writer.bytes
    }

    /// Stop requesting after this chunk (6.6).
    public var isLast: Bool { Int(chunkIndex) + 1 >= Int(totalChunks) }
}

/// One stretch of backpack mode (extended sleep, double-tap wake).
public struct BackpackSession: Sendable, Hashable {
    public var startTimestamp: UInt32
    public var durationSec: UInt32
    public var timerWakeCount: UInt16
    public var exitReason: BackpackExitReason
    /// Reserved, 0.
    public var flags: UInt8

    public init(startTimestamp: UInt32, durationSec: UInt32, timerWakeCount: UInt16,
                exitReason: BackpackExitReason, flags: UInt8 = 0) {
        self.startTimestamp = startTimestamp
        self.durationSec = durationSec
        self.timerWakeCount = timerWakeCount
        self.exitReason = exitReason
        self.flags = flags
    }
}

public enum BackpackExitReason: RawRepresentable, Sendable, Hashable {
    /// Ended by motion / double-tap.
    case motion
    case stillActive
    /// Lost to a power cycle.
    case powerCycle
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .motion
        case 1: self = .stillActive
        case 2: self = .powerCycle
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .motion: return 0
        case .stillActive: return 1
        case .powerCycle: return 2
        case .unknown(let raw): return raw
        }
    }
}
