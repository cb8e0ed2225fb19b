// Where a session commits a chunk's records before it ACKs the chunk (docs/design.md 1). The
// session knows only this protocol, never the database: in the bridge the ingest path
// (`BottleIngest`) implements it over the history; tests put a recorder in between to check the
// order of commits and ACKs.

import AquavateProtocol

/// Where the session commits each accepted chunk before it writes the chunk's one ACK.
public protocol DrinkStore: Sendable {
    /// Stores one chunk's records in one transaction, committed when this returns.
    /// Idempotent on (bottle, record_id, timestamp); results in the order of `records`.
    func store(_ records: [DrinkRecord], bottle: String, at storedAt: Double) throws -> [StoreResult]
}
