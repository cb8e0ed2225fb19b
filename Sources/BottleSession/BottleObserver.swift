// The one way from a session into the bridge (docs/design.md 1): everything the bottle says on a
// connection — each chunk to commit, Current States, its configuration, battery, identity,
// settings, clock, activity, the end of each sync and of the connection — is told to a
// `BottleObserver`. The live session calls it as it hears the bottle; the replayer (Ingest)
// calls the same methods from a capture; the bridge's ingest (`BottleIngest`) implements it over
// the history, so live and replayed traffic take one path. The session knows only this
// protocol, never the database.
//
// The order that keeps a drink safe is the session's: `store` commits a chunk's records and
// returns; only then is the chunk's one ACK written; then `committed` says what they mean.

import AquavateProtocol
import Timekeeping

/// What a connection to a bottle tells the bridge, in the order it happens.
package protocol BottleObserver: Sendable {
    /// Stores one chunk's records in one transaction, committed when this returns (the session
    /// writes the chunk's ACK only then; a throw writes none). Idempotent on (bottle, record_id,
    /// timestamp); results in the order of `records`. A record that cannot be a drink is
    /// quarantined here, not thrown: the chunk is still stored and acknowledged (design 3.4).
    func store(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant) throws -> [StoreResult]

    /// The chunk that `store` committed, once its ACK is written (or its writing failed): what
    /// the records mean beyond the database (the journal's lines, the reminders, the
    /// publications) waits no ACK. Each chunk `store` committed is told exactly once.
    func committed(_ results: [StoreResult], bottle: String)

    /// A Current State, read or notified.
    func heard(_ current: CurrentState, at time: WallInstant)

    /// The bottle's configuration (its goal). False when nothing was taken from it (a goal the
    /// bottle cannot hold).
    @discardableResult
    func heard(_ config: BottleConfig, at time: WallInstant) -> Bool

    /// The battery percentage (Battery1 or the GATT Battery Level).
    func heardBattery(_ percent: Int, at time: WallInstant)

    /// Device Information, read at connection: the serial becomes the bottle's key.
    func heard(_ identity: BottleIdentity, at time: WallInstant)

    /// Device Settings, read at connection and after a change.
    func heard(_ settings: DeviceSettings, at time: WallInstant)

    /// The bottle's clock against the bridge's, before SET_TIME.
    func heard(_ offset: BottleClockOffset, at time: WallInstant)

    /// What an activity fetch returned after the sync (docs/protocol.md 6.6).
    func heardActivity(motion: [MotionEvent], backpack: [BackpackSession], at time: WallInstant)

    /// A sync round ended, its outcome from `SyncProgress.outcome` (the one rule). `refusal`: why
    /// a chunk was refused unacknowledged (its structure cannot be the sync's), when one was.
    func syncEnded(_ outcome: SyncOutcome, records: Int, chunks: Int, refusal: String?, at time: WallInstant)

    /// The connection ended (or the capture did).
    func disconnected(at time: WallInstant)
}

extension BottleObserver {
    /// Stores and says a chunk at once (replay: there is no ACK to wait for).
    @discardableResult
    package func storeAndSay(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant) throws -> [StoreResult] {
        let results = try store(records, bottle: bottle, at: storedAt)
        committed(results, bottle: bottle)
        return results
    }
}

/// An observer that only keeps the drinks (tests, benchmarks): it takes `store` from the type and
/// hears nothing else. The bridge's ingest implements every method itself.
package protocol DrinkKeeper: BottleObserver {}

extension DrinkKeeper {
    package func committed(_ results: [StoreResult], bottle: String) {}
    package func heard(_ current: CurrentState, at time: WallInstant) {}
    @discardableResult
    package func heard(_ config: BottleConfig, at time: WallInstant) -> Bool { true }
    package func heardBattery(_ percent: Int, at time: WallInstant) {}
    package func heard(_ identity: BottleIdentity, at time: WallInstant) {}
    package func heard(_ settings: DeviceSettings, at time: WallInstant) {}
    package func heard(_ offset: BottleClockOffset, at time: WallInstant) {}
    package func heardActivity(motion: [MotionEvent], backpack: [BackpackSession], at time: WallInstant) {}
    package func syncEnded(_ outcome: SyncOutcome, records: Int, chunks: Int, refusal: String?, at time: WallInstant) {}
    package func disconnected(at time: WallInstant) {}
}
