// What storing one drink record did, in terms of the record's identity on the wire: the key
// (bottle, record_id, timestamp), tombstones, and the bit-identical re-sends of docs/protocol.md
// 4.7. The history answers in these types and the session reads them, so they live with the
// record, below both: the session knows the outcome of a commit without knowing the database.

/// What storing one record did.
public enum StoreOutcome: Sendable, Hashable {
    /// A drink the history did not know, stored live.
    case inserted
    /// A tombstone for a drink the history did not know, stored as deleted.
    case insertedDeleted
    /// A tombstone that deleted a stored live drink.
    case deleted
    /// Already stored with the same content; nothing changed.
    case duplicate
    /// The stored drink is deleted; this copy (live or tombstone) changed nothing.
    case alreadyDeleted
    /// Same (bottle, record_id, timestamp) as a stored drink but different content (the bottle
    /// re-sends bit-identical copies, docs/protocol.md 4.7): the first copy is kept, worth a warning.
    case conflicting
    /// Not a drink (`RecordBounds`): kept aside in the quarantine with its raw bytes, never
    /// counted. `isNew` is false when the quarantine already held it (a re-send).
    case quarantined([RecordProblem], isNew: Bool)
    /// A tombstone whose fields cannot be a drink's (erased flash reads as all FF, TV11) and that
    /// names no stored drink: there is nothing to delete, and nothing is stored (an id of
    /// 4294967295 kept as a drink would make every later sync look like an id restart, B14).
    case strayTombstone

    /// Whether the drink history changed.
    public var changedHistory: Bool {
        switch self {
        case .inserted, .insertedDeleted, .deleted: true
        case .duplicate, .alreadyDeleted, .conflicting, .quarantined, .strayTombstone: false
        }
    }

    /// The record went to the quarantine.
    public var isQuarantined: Bool {
        if case .quarantined = self { return true }
        return false
    }
}

/// One record of a `store` batch and what storing it did.
public struct StoreResult: Sendable, Hashable {
    public var record: DrinkRecord
    public var outcome: StoreOutcome
    /// False when the history already held it (for a tombstone: when it changed nothing).
    public var isNew: Bool { outcome.changedHistory }

    public init(record: DrinkRecord, outcome: StoreOutcome) {
        self.record = record
        self.outcome = outcome
    }
}
