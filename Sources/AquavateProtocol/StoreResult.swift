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

    /// Whether the history changed.
    public var changedHistory: Bool {
        switch self {
        case .inserted, .insertedDeleted, .deleted: true
        case .duplicate, .alreadyDeleted, .conflicting: false
        }
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
