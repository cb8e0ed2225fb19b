// What a session did: each sync round (START to last ACK, or to its interruption), and how the
// session as a whole ended. The daemon runs the reminder engine's after-sync rules from these.

import AquavateProtocol
import Timekeeping

/// One START and what followed.
package struct SyncRound: Sendable, Equatable {
    /// `count` and `chunk_size` of the START.
    package var requestedCount: Int
    package var chunkSize: Int
    /// Records and chunks accepted (committed and ACKed, or committed and then interrupted).
    package var records: Int
    package var chunks: Int
    /// Records the history did not have before.
    package var newRecords: Int
    package var outcome: SyncOutcome
    /// When it ended (the session's clock).
    package var endedAt: WallInstant
    /// Why a chunk was refused unacknowledged (its structure cannot be the sync's), when one was.
    package var refusal: String? = nil
}

/// How a session ended.
package enum SessionOutcome: Sendable, Equatable {
    /// Records were synced and nothing more can be synced now.
    case synced
    /// The bottle had nothing unsynced.
    case nothingToSync
    /// `unsynced_count` is above zero but START sends nothing (docs/protocol.md B2); not retried
    /// until the count changes.
    case wedged(unsynced: Int)
    /// What went wrong, in one line.
    case failed(String)

    /// Success for `run --once`: synced, or nothing (that can be) synced.
    package var isSuccess: Bool {
        if case .failed = self { return false }
        return true
    }
}

/// The whole session.
package struct SessionReport: Sendable, Equatable {
    package var bottleID: String
    package var rounds: [SyncRound] = []
    package var outcome: SessionOutcome = .failed("the session did not start")
    /// Sync Control's count at the start and after the last complete round.
    package var unsyncedBefore: Int?
    package var unsyncedAfter: Int?
    package var batteryPercent: Int?
    package var mtu: Int?
    /// The session ended because the link was lost (the bottle slept or went out of range): the
    /// bottle will advertise again, and `run --once` waits for it while its time lasts.
    package var linkLost = false

    /// How every line names the bottle: its advertised name, the same before and after its
    /// serial is read (the key, address then serial, would read as two bottles).
    package var bottleName: String

    package init(bottleID: String, bottleName: String? = nil) {
        self.bottleID = bottleID
        self.bottleName = bottleName ?? bottleID
    }

    package var records: Int { rounds.reduce(0) { $0 + $1.records } }
    package var chunks: Int { rounds.reduce(0) { $0 + $1.chunks } }
    package var newRecords: Int { rounds.reduce(0) { $0 + $1.newRecords } }

    /// One line for the log and for `run --once`.
    package var summary: String {
        let counts = "\(records) record(s) in \(chunks) chunk(s), \(newRecords) new"
        switch outcome {
        case .synced: return "synced \(bottleName): \(counts)"
        case .nothingToSync: return "\(bottleName) had nothing to sync"
        case .wedged(let unsynced):
            return "\(bottleName) reports \(unsynced) unsynced record(s) it never sends (deleted before syncing, docs/protocol.md B2); nothing to sync"
                + (rounds.isEmpty ? "" : " after \(counts)")
        case .failed(let reason): return "sync with \(bottleName) failed: \(reason)" + (rounds.isEmpty ? "" : " (\(counts) stored)")
        }
    }
}
