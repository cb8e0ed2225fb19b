// The bottle side of a drink sync (docs/protocol.md 4.3), bugs included.
//
// START loads up to `count` records of the sync set into RAM and sends chunk 0 at once (inside the
// write handler, so before the write response). Every ACK advances exactly one chunk, whichever
// chunk the client meant (B3); the ACK after the last chunk marks the first R unsynced records
// synced (deleted ones included, B2) and ends the sync. QUERY aborts. A disconnect changes
// nothing (B4); only a sleep resets the state. With R = 0 the bottle says IN_PROGRESS and stays
// silent: the wedge of B2.
import AquavateProtocol

package struct SyncEngine: Sendable, Hashable {
    package enum Status: String, Sendable, Hashable, Codable {
        case idle
        case inProgress = "in_progress"

        var wire: SyncStatus { self == .idle ? .idle : .inProgress }
    }

    /// What one Sync Control write asks of the store and the radio.
    package enum Step: Sendable, Hashable {
        /// Notify this chunk on Drink Data.
        case sendChunk(DrinkDataChunk)
        /// The final ACK: mark the first `count` unsynced records synced, then send a forced
        /// Current State notification.
        case complete(markCount: Int)
    }

    package private(set) var status: Status = .idle
    /// The RAM copy START loaded (R records), oldest first.
    package private(set) var loaded: [DrinkRecord] = []
    /// C': the chunk size in use; 20 after boot (3.3).
    package private(set) var chunkSize: Int = ChunkSizing.maxChunkSize
    /// k: the chunk the bottle sent last.
    package private(set) var chunkIndex: Int = 0

    package init() {}

    /// T = ceil(R / C').
    package var totalChunks: Int { ChunkSizing.totalChunks(records: loaded.count, chunkSize: chunkSize) }

    /// The Sync Control value a read returns: start 0, command 0, the current unsynced count.
    package func readValue(unsyncedCount: Int) -> SyncControl {
        .readValue(unsyncedCount: UInt16(clamping: unsyncedCount), status: status.wire, chunkSize: UInt16(chunkSize))
    }

    /// Applies a write to Sync Control. Anything but 8 bytes, and unknown commands, are ignored.
    /// `syncSet` is the ring's current sync set (read only by START).
    package mutating func write(_ bytes: [UInt8], syncSet: @autoclosure () -> [DrinkRecord]) -> Step? {
        guard let control = try? SyncControl(decoding: bytes) else { return nil }
        switch control.command {
        case .query:
            // Aborts; the RAM buffer leaks until the next START, as in the firmware (B4).
            status = .idle
            return nil
        case .start:
            loaded = Array(syncSet().prefix(Int(control.count)))
            chunkSize = ChunkSizing.effectiveChunkSize(requested: control.chunkSize)
            chunkIndex = 0
            status = .inProgress
            return loaded.isEmpty ? nil : .sendChunk(chunk(0))
        case .ack:
            guard status == .inProgress else { return nil }
            chunkIndex += 1
            if chunkIndex < totalChunks { return .sendChunk(chunk(chunkIndex)) }
            status = .idle
            return .complete(markCount: loaded.count)
        case .unknown:
            return nil
        }
    }

    /// Chunk `index` of the loaded records.
    package func chunk(_ index: Int) -> DrinkDataChunk {
        let start = index * chunkSize
        let count = ChunkSizing.recordsInChunk(index: index, records: loaded.count, chunkSize: chunkSize)
        return DrinkDataChunk(chunkIndex: UInt16(clamping: index), totalChunks: UInt16(clamping: totalChunks),
                              records: loaded[start..<(start + count)].map(\.onAir))
    }

    /// Deep sleep: RAM is gone (4.3, "bottle sleeps – everything reset").
    package mutating func reset() {
        self = SyncEngine()
    }
}
