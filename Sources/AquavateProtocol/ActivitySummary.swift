// Activity Summary, 12 bytes on Activity Stats (…0007), the reply to 0x30 (docs/protocol.md 3.8.1).
// A 12-byte payload may also be a one-event motion chunk: only the pending request tells (B16).

public struct ActivitySummary: WireValue, Hashable {
    public static let structureName = "Activity Summary"
    public static let byteCount = 12

    /// Stored wake events, 0…100.
    public var motionEventCount: UInt8
    /// Stored backpack sessions, 0…20.
    public var backpackSessionCount: UInt8
    /// 1 if a backpack session is open (raw byte, kept for exact re-encoding).
    public var inBackpackModeRaw: UInt8
    /// Bit 0 = clock valid.
    public var flags: UInt8
    /// Bottle time the open session began, 0 if none.
    public var currentSessionStart: UInt32
    /// Timer wakes in the open session.
    public var currentTimerWakes: UInt16
    public var reserved: UInt16

    public init(motionEventCount: UInt8, backpackSessionCount: UInt8, inBackpackModeRaw: UInt8, flags: UInt8,
                currentSessionStart: UInt32, currentTimerWakes: UInt16, reserved: UInt16 = 0) {
        self.motionEventCount = motionEventCount
        self.backpackSessionCount = backpackSessionCount
        self.inBackpackModeRaw = inBackpackModeRaw
        self.flags = flags
        self.currentSessionStart = currentSessionStart
        self.currentTimerWakes = currentTimerWakes
        self.reserved = reserved
    }

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        try Self.requireLength(bytes, exactly: Self.byteCount)
        motionEventCount = bytes[0]
        backpackSessionCount = bytes[1]
        inBackpackModeRaw = bytes[2]
        flags = bytes[3]
        currentSessionStart = bytes.u32LE(at: 4)
        currentTimerWakes = bytes.u16LE(at: 8)
        reserved = bytes.u16LE(at: 10)
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: Self.byteCount)
        writer.u8(motionEventCount)
        writer.u8(backpackSessionCount)
        writer.u8(inBackpackModeRaw)
        writer.u8(flags)
        writer.u32(currentSessionStart)
        writer.u16(currentTimerWakes)
        writer.u16(reserved)
        return writer.bytes
    }

    public var inBackpackMode: Bool { inBackpackModeRaw != 0 }
    public var clockValid: Bool { flags & 0x01 != 0 }
    /// Whether a backpack session is open.
    public var hasOpenSession: Bool { currentSessionStart != 0 }
    /// Motion chunks to request: ceil(count / 10) (6.6).
    public var motionChunkCount: Int { ChunkSizing.totalChunks(records: Int(motionEventCount), chunkSize: MotionEventChunk.maxEvents) }
    /// Backpack chunks to request: ceil(count / 5) (6.6).
    public var backpackChunkCount: Int { ChunkSizing.totalChunks(records: Int(backpackSessionCount), chunkSize: BackpackSessionChunk.maxSessions) }
}
