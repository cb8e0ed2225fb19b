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

    /// The chunk that `store` committed, once its ACK is written (or its writing failed): what
    /// the records mean beyond the database (the journal's lines, the reminders, the
    /// publications) waits no ACK. Each chunk `store` committed is reported exactly once.
    func committed(_ results: [StoreResult], bottle: String)
}

extension DrinkStore {
    /// A store with nothing to say after the ACK.
    public func committed(_ results: [StoreResult], bottle: String) {}
}
