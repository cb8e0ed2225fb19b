// Sync Control (…0003), 8 bytes, read / write (docs/protocol.md 3.3, 4.3):
//   u16 start_index | u16 count | u8 command | u8 status | u16 chunk_size

public struct SyncControl: WireValue, Hashable {
    public static let structureName = "Sync Control"
    public static let byteCount = 8

    /// Ignored by the bottle in writes (send 0), always 0 in reads.
    public var startIndex: UInt16
    /// START: maximum records to send. Read: current unsynced count (deleted records included).
    public var count: UInt16
    public var command: SyncCommand
    public var status: SyncStatus
    /// START: records per chunk (1…20, else 20). Read: effective chunk size of the last sync.
    public var chunkSize: UInt16

    public init(startIndex: UInt16 = 0, count: UInt16, command: SyncCommand, status: SyncStatus = .idle,
                chunkSize: UInt16) {
        self.startIndex = startIndex
        self.count = count
        self.command = command
        self.status = status
        self.chunkSize = chunkSize
    }

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        try Self.requireLength(bytes, exactly: Self.byteCount)
        startIndex = bytes.u16LE(at: 0)
        count = bytes.u16LE(at: 2)
        command = SyncCommand(rawValue: bytes[4])
        status = SyncStatus(rawValue: bytes[5])
        chunkSize = bytes.u16LE(at: 6)
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: Self.byteCount)
        writer.u16(startIndex)
        writer.u16(count)
        writer.u8(command.rawValue)
        writer.u8(status.rawValue)
        writer.u16(chunkSize)
        return writer.bytes
    }

    /// START as a client should send it. `count` is clamped to 0…600 (a larger count makes the bottle
    /// allocate without bound, B15) and `chunkSize` to 1…20 (use `ChunkSizing.recordsPerChunk(mtu:)`).
    public static func start(count: Int, chunkSize: Int) -> SyncControl {
        SyncControl(count: UInt16(min(max(count, 0), ChunkSizing.maxSyncCount)), command: .start,
                    chunkSize: UInt16(min(max(chunkSize, 1), ChunkSizing.maxChunkSize)))
    }

    /// ACK of one chunk: `00 00 00 00 02 00 00 00`. It carries no chunk number (B3).
    public static let ack = SyncControl(count: 0, command: .ack, chunkSize: 0)

    /// QUERY: `00 00 00 00 00 00 00 00`; aborts a sync in progress.
    public static let query = SyncControl(count: 0, command: .query, chunkSize: 0)

    /// The value a bottle returns on read (for simulators): start 0, command 0.
    public static func readValue(unsyncedCount: UInt16, status: SyncStatus, chunkSize: UInt16) -> SyncControl {
        SyncControl(count: unsyncedCount, command: .query, status: status, chunkSize: chunkSize)
    }

    /// The chunk size the bottle actually uses for this START (TV20).
    public var effectiveChunkSize: Int { ChunkSizing.effectiveChunkSize(requested: chunkSize) }
}

/// The `command` byte. Unknown values are kept so a value re-encodes exactly; the bottle ignores them.
public enum SyncCommand: RawRepresentable, Sendable, Hashable {
    case query
    case start
    case ack
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .query
        case 1: self = .start
        case 2: self = .ack
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .query: return 0
        case .start: return 1
        case .ack: return 2
        case .unknown(let raw): return raw
        }
    }
}

/// The `status` byte. COMPLETE (2) exists in the firmware but is never observable in a read (4.3).
public enum SyncStatus: RawRepresentable, Sendable, Hashable {
    case idle
    case inProgress
    case complete
    case unknown(UInt8)

    public init(rawValue: UInt8) {
        switch rawValue {
        case 0: self = .idle
        case 1: self = .inProgress
        case 2: self = .complete
        default: self = .unknown(rawValue)
        }
    }

    public var rawValue: UInt8 {
        switch self {
        case .idle: return 0
        case .inProgress: return 1
        case .complete: return 2
        case .unknown(let raw): return raw
        }
    }
}
