// The client's view of one drink-record sync (docs/protocol.md 4.2–4.6), as a pure value.
//
// Both the live bottle session and replay feed it what happens on the wire: the START that
// opened the sync, every Drink Data value (notified or read back), and every ACK written. It
// answers the one question that matters for durability: "is this chunk new data that must be
// committed before the next ACK?" It never performs I/O; the caller commits, then ACKs.
//
// Rules it encodes:
// * Chunks arrive in order, one per ACK (4.3). The bottle's ACK carries no chunk number (B3),
//   so the tracker expects exactly the chunk after the last one it accepted.
// * A chunk whose index is lower than expected is an echo (BlueZ turns every read into a
//   `Value` change, docs/bluez.md 7.2) or a duplicate: ignore it.
// * A truncated notification (MTU, B1) is rejected; only then may a *read* of Drink Data stand
//   in for it (4.4 rule 3). Any other read of Drink Data is stale (B5) and is ignored.
// * The sync is complete when the chunk `total_chunks - 1` has been accepted and ACKed.

public struct SyncProgress: Sendable, Equatable {
    /// Records per chunk the bottle will use (START's chunk_size clamped as the bottle does).
    public let chunkSize: Int
    /// `count` the START asked for.
    public let requestedCount: Int
    /// Index of the chunk expected next.
    public private(set) var expectedIndex: Int = 0
    /// `total_chunks` announced by the first accepted chunk.
    public private(set) var totalChunks: Int?
    /// The expected chunk has been accepted and is waiting for its ACK.
    public private(set) var awaitingAck = false
    /// A notification for the expected chunk was rejected; a read-back may recover it.
    public private(set) var awaitingReadBack = false
    public private(set) var acceptedChunks = 0
    public private(set) var acceptedRecords = 0
    public private(set) var rejectedChunks = 0
    /// Chunks refused as structurally wrong (`ChunkVerdict.implausible`).
    public private(set) var refusedChunks = 0
    /// Why the sync was refused: a chunk `ChunkVerdict.implausible`, or one that could not be
    /// decoded, nor read back; nil when none was.
    public private(set) var refusal: String?
    /// ACKs written when no accepted chunk was waiting for one (the bottle ran ahead, B3).
    public private(set) var surplusAcks = 0
    public private(set) var isComplete = false
    public init(start: SyncControl) {
        self.chunkSize = ChunkSizing.effectiveChunkSize(requested: start.chunkSize)
        self.requestedCount = Int(start.count)
    }

    /// Whether any chunk has arrived for this sync.
    public var hasData: Bool { acceptedChunks > 0 }

    /// How a Drink Data value fits into the sync.
    public enum ChunkVerdict: Sendable, Equatable {
        /// New data: commit these records, then ACK. `skippedChunks` > 0 means chunks were lost
        /// in between (the bottle ran ahead); the records are still real and must be kept.
        case accept(DrinkDataChunk, skippedChunks: Int)
        /// A chunk already accepted (read echo, duplicate notification): ignore.
        case duplicate(index: Int)
        /// The all-zero boot placeholder (TV16): no chunk.
        case placeholder
        /// A read of Drink Data while no read-back was due: the stale last chunk (B5). Ignore.
        case staleRead
        /// The sync already completed: ignore.
        case afterCompletion
        /// The payload failed to decode (truncated, short): do not ACK.
        case rejected(ProtocolError)
        /// The chunk decodes but its structure cannot be what the START asked for (more chunks
        /// or records than its count, a total that changes, an index past the last): refuse it
        /// whole, do not ACK, end the sync. The text says why. A *record* that cannot be a drink
        /// does not refuse its chunk: the store quarantines it (`RecordBounds`).
        case implausible(String)
    }

    /// Feeds a Drink Data value. `viaRead` is true for a ReadValue result, false for a notification.
    public mutating func receive(_ bytes: [UInt8], viaRead: Bool) -> ChunkVerdict {
        if isComplete { return .afterCompletion }
        if viaRead && !awaitingReadBack { return .staleRead }
        let chunk: DrinkDataChunk
        do {
            chunk = try DrinkDataChunk(decoding: bytes)
        } catch {
            rejectedChunks += 1
            // The read-back was the last chance (4.4 rule 3): the sync is refused.
            if viaRead { refusal = "chunk \(expectedIndex) could not be decoded, nor read back: \(error)" }
            awaitingReadBack = true
            return .rejected(error)
        }
        if chunk.isPlaceholder { return .placeholder }
        let index = Int(chunk.chunkIndex)
        if index < expectedIndex || (index == expectedIndex && awaitingAck) {
            return .duplicate(index: index)
        }
        if let problem = implausibility(of: chunk) {
            refusedChunks += 1
            refusal = problem
            return .implausible(problem)
        }
        let skipped = index - expectedIndex - (awaitingAck ? 1 : 0)
        expectedIndex = index
        totalChunks = Int(chunk.totalChunks)
        awaitingAck = true
        awaitingReadBack = false
        acceptedChunks += 1
        acceptedRecords += chunk.records.count
        return .accept(chunk, skippedChunks: max(0, skipped))
    }

    /// Why a decoded, new chunk cannot belong to this sync (4.2–4.5), or nil.
    private func implausibility(of chunk: DrinkDataChunk) -> String? {
        let total = Int(chunk.totalChunks), index = Int(chunk.chunkIndex)
        if total > requestedCount {
            return "chunk \(index) announces \(total) chunks for a START of \(requestedCount) record(s)"
        }
        if let known = totalChunks, known != total {
            return "chunk \(index) announces \(total) chunks where the sync began with \(known)"
        }
        if index >= total {
            return "chunk \(index) is past the last of \(total)"
        }
        if acceptedRecords + chunk.records.count > requestedCount {
            return "chunk \(index) brings the sync to \(acceptedRecords + chunk.records.count) records; the START asked for \(requestedCount)"
        }
        return nil
    }

    /// What an ACK written to Sync Control did.
    public enum AckVerdict: Sendable, Equatable {
        /// Asked for the next chunk.
        case next(index: Int)
        /// Acknowledged the last chunk: the bottle marks the batch synced.
        case complete
        /// No accepted chunk was waiting: the bottle still advances (B3).
        case surplus
    }

    /// Records an ACK written to Sync Control.
    public mutating func acknowledged() -> AckVerdict {
        guard awaitingAck, !isComplete else {
            surplusAcks += 1
            expectedIndex += 1
            return .surplus
        }
        awaitingAck = false
        if let total = totalChunks, expectedIndex + 1 >= total {
            isComplete = true
            return .complete
        }
        expectedIndex += 1
        return .next(index: expectedIndex)
    }
}

/// How one sync ended (docs/design.md 3.4 `outcome`): one rule for the live session and for replay.
public enum SyncOutcome: String, Sendable, Equatable {
    /// The last chunk was ACKed: the bottle marked the batch synced.
    case complete
    /// No chunk after START (nothing to send, or the B2 wedge).
    case empty
    /// Chunks came, then stopped: time-out, link lost, or a chunk that could not be stored.
    case interrupted
    /// A chunk failed to decode and could not be read back, or was refused as implausible.
    case rejected
}

extension SyncProgress {
    /// How the sync ended, whatever ended it (the last ACK, a time-out, a lost link, a new
    /// START, the end of a capture): the one rule both the live session and replay report.
    public var outcome: SyncOutcome {
        if isComplete { return .complete }
        if refusedChunks > 0 { return .rejected }
        if rejectedChunks > 0 && (awaitingReadBack || !hasData) { return .rejected }
        return hasData ? .interrupted : .empty
    }
}
