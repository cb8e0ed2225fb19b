// What a household member keeps between starts (docs/design.md 6), in tables of its own: the count
// of its starts (its messages' `boot`), the messages it did not believe by reason, its replay
// guard (per sender and topic the newest stamp accepted, and the digests of messages judged), and
// its replication marks (what it published, each member's epoch it answered and changes it holds).
// The meaning of each belongs to the Household module, which this module does not import; the
// guard bounds what it saves (members × topics, and the judged digests).

import GRDB
import Timekeeping

/// Per sender and topic, the newest stamp the replay guard accepted.
package struct HouseholdReplayMark: Codable, Sendable, Equatable, Hashable, FetchableRecord, PersistableRecord {
    package static let databaseTableName = "household_replay_mark"

    package var sender: String
    package var topic: String
    package var boot: UInt64
    package var sequence: UInt64
    /// The sender's clock in the stamp.
    package var time: WallInstant

    package init(sender: String, topic: String, boot: UInt64, sequence: UInt64, time: WallInstant) {
        self.sender = sender
        self.topic = topic
        self.boot = boot
        self.sequence = sequence
        self.time = time
    }
}

/// The replay guard's saved state: its marks, and the digests of the messages judged, oldest first.
package struct HouseholdReplayRecords: Sendable, Equatable {
    package var marks: [HouseholdReplayMark]
    package var judged: [String]

    package init(marks: [HouseholdReplayMark] = [], judged: [String] = []) {
        self.marks = marks
        self.judged = judged
    }
}

/// Per member, the hello epoch this bridge answered and the latest change of its drinks held.
package struct HouseholdPeerMark: Codable, Sendable, Equatable, SnakeCaseRecord {
    package static let databaseTableName = "household_peer"

    /// The member's `bridge.id`.
    package var member: String
    package var answeredEpoch: String?
    package var heardUpTo: WallInstant?

    package init(member: String, answeredEpoch: String?, heardUpTo: WallInstant?) {
        self.member = member
        self.answeredEpoch = answeredEpoch
        self.heardUpTo = heardUpTo
    }
}

/// The replication's own marks: the latest change of this bridge's drinks it published, its hello
/// epoch, and its peers'.
package struct HouseholdReplicationRecords: Sendable, Equatable {
    package var publishedUpTo: WallInstant?
    package var epoch: String?
    /// The latest deletion of another member's hand-added drink made here and told the household.
    package var deletionsToldUpTo: WallInstant?
    package var peers: [HouseholdPeerMark]

    package init(publishedUpTo: WallInstant? = nil, epoch: String? = nil, deletionsToldUpTo: WallInstant? = nil,
                peers: [HouseholdPeerMark] = []) {
        self.publishedUpTo = publishedUpTo
        self.epoch = epoch
        self.deletionsToldUpTo = deletionsToldUpTo
        self.peers = peers
    }
}

/// The household's part of the history: what `Household` keeps between starts and all it
/// reaches there (`history.household`), over the history's one database writer.
package struct HouseholdStore: Sendable {
    let history: DrinkHistory
}

extension DrinkHistory {
    /// The household's state (HouseholdStore).
    package var household: HouseholdStore { HouseholdStore(history: self) }
}

extension HouseholdStore {
    /// The count of this bridge's starts as a member; 0 before the first.
    package func boot() throws -> UInt64 {
        try history.read("reading the household's start count") { db in
            try UInt64.fetchOne(db, sql: "SELECT boot FROM household_sender") ?? 0
        }
    }

    /// Saves the count of this bridge's starts.
    package func saveBoot(_ boot: UInt64) throws {
        try history.write("saving the household's start count") { db in
            try db.execute(sql: "DELETE FROM household_sender")
            try db.execute(sql: "INSERT INTO household_sender (boot) VALUES (?)", arguments: [boot])
        }
    }

    /// The messages not believed so far, by reason (the Household's raw values).
    package func drops() throws -> [String: Int] {
        try history.read("reading the household's dropped messages") { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT reason, count FROM household_drop") { counts[row["reason"]] = row["count"] }
            return counts
        }
    }

    /// Saves the counts by reason (the whole tally, not an increment); they can be counted again.
    package func saveDrops(_ counts: [String: Int]) throws {
        try history.write("saving the household's dropped messages", durability: .normal) { db in
            try DrinkHistory.replaceCounts(counts, table: "household_drop", in: db)
        }
    }

    /// The replay guard's saved marks and judged digests.
    package func replay() throws -> HouseholdReplayRecords {
        try history.read("reading the household's replay marks") { db in
            HouseholdReplayRecords(
                marks: try HouseholdReplayMark.fetchAll(db),
                judged: try String.fetchAll(db, sql: "SELECT digest FROM household_replay_judged ORDER BY position"))
        }
    }

    /// Replaces the replay guard's saved state (at the commit level the guard's floors allow).
    package func saveReplay(_ saved: HouseholdReplayRecords) throws {
        try history.write("saving the household's replay marks", durability: .normal) { db in
            try HouseholdReplayMark.deleteAll(db)
            for mark in saved.marks { try mark.insert(db) }
            try db.execute(sql: "DELETE FROM household_replay_judged")
            for (position, digest) in saved.judged.enumerated() {
                try db.execute(sql: "INSERT OR IGNORE INTO household_replay_judged (position, digest) VALUES (?, ?)",
                               arguments: [position, digest])
            }
        }
    }

    /// The replication's saved marks.
    package func replication() throws -> HouseholdReplicationRecords {
        try history.read("reading the household's replication marks") { db in
            let row = try Row.fetchOne(db, sql: "SELECT published_up_to, epoch, deletions_told_up_to FROM household_replication")
            return HouseholdReplicationRecords(publishedUpTo: row?["published_up_to"], epoch: row?["epoch"],
                                               deletionsToldUpTo: row?["deletions_told_up_to"],
                                               peers: try HouseholdPeerMark.order(Column("member")).fetchAll(db))
        }
    }

    /// Replaces the replication's saved marks.
    package func saveReplication(_ saved: HouseholdReplicationRecords) throws {
        try history.write("saving the household's replication marks") { db in
            try db.execute(sql: "DELETE FROM household_replication")
            try db.execute(sql: "INSERT INTO household_replication (published_up_to, epoch, deletions_told_up_to) VALUES (?, ?, ?)",
                           arguments: [saved.publishedUpTo, saved.epoch, saved.deletionsToldUpTo])
            try HouseholdPeerMark.deleteAll(db)
            for peer in saved.peers { try peer.insert(db) }
        }
    }

}

extension DrinkHistory {
    /// Replaces the counts of a (reason, count) table.
    static func replaceCounts(_ counts: [String: Int], table: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM \(table)")
        for (reason, count) in counts.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT INTO \(table) (reason, count) VALUES (?, ?)", arguments: [reason, count])
        }
    }
}
