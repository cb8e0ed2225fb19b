// Chunk arithmetic of a drink sync (docs/protocol.md 4.3, 4.4, Appendix A).
//
// A chunk is 6 + 14·n bytes and must fit one notification (MTU − 3 bytes), or the stack cuts it
// and the receiver has to reject it (B1). Hence the client asks for at most 17 records per chunk.

public enum ChunkSizing {
    /// ATT MTU before any exchange.
    public static let defaultMTU = 23
    /// The bottle's preferred (and maximum) ATT MTU.
    public static let bottleMaxMTU = 247
    /// Largest chunk_size the bottle honours; 0 or more falls back to this.
    public static let maxChunkSize = 20
    /// Records that fit one notification at the bottle's MTU of 247.
    public static let maxRecordsPerNotification = 17
    /// Largest START count a client should send (ring capacity; B15).
    public static let maxSyncCount = 600

    /// Payload bytes one notification carries: MTU − 3 (ATT header).
    public static func maxNotificationPayload(mtu: Int) -> Int { mtu - 3 }

    /// Bytes of a chunk carrying `records` records: 6 + 14 × records.
    public static func chunkByteCount(records: Int) -> Int {
        DrinkDataChunk.headerByteCount + DrinkRecord.byteCount * records
    }

    /// The chunk_size to request: min(17, floor((MTU − 3 − 6) / 14)), at least 1; 1 when the MTU is
    /// unknown (23 → 1, 185 → 12, 247 → 17, 517 → 17).
    public static func recordsPerChunk(mtu: Int?) -> Int {
        guard let mtu else { return 1 }
        let fitting = (maxNotificationPayload(mtu: mtu) - DrinkDataChunk.headerByteCount) / DrinkRecord.byteCount
        return max(1, min(maxRecordsPerNotification, fitting))
    }

    /// The chunk size the bottle uses for a requested one: 1…20 kept, anything else 20 (TV20).
    public static func effectiveChunkSize(requested: UInt16) -> Int {
        (1...UInt16(maxChunkSize)).contains(requested) ? Int(requested) : maxChunkSize
    }

    /// ceil(records / chunkSize): 0 for 0 records (no notification at all). A chunk size outside
    /// 1…20 is taken the way the bottle takes it (20).
    public static func totalChunks(records: Int, chunkSize: Int) -> Int {
        guard records > 0 else { return 0 }
        let size = (1...maxChunkSize).contains(chunkSize) ? chunkSize : maxChunkSize
        return (records + size - 1) / size
    }

    /// Records in chunk `index` of a sync of `records` records: chunkSize for all but the last,
    /// the remainder for the last, 0 past the end. Chunk size as in `totalChunks`.
    public static func recordsInChunk(index: Int, records: Int, chunkSize: Int) -> Int {
        let size = (1...maxChunkSize).contains(chunkSize) ? chunkSize : maxChunkSize
        guard index >= 0, records > 0 else { return 0 }
        return max(0, min(size, records - index * size))
    }
}
