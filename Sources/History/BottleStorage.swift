// The bottles' part of the history (`history.bottles`): each bottle's row (what the bridge
// remembers between connections), its key (address, then serial: BottleKeys) and its activity
// (BottleActivity).

import GRDB
import Timekeeping

/// Every bottle's row, key and activity, over the history's one database writer.
package struct BottleStore: Sendable {
    let history: DrinkHistory
}

extension DrinkHistory {
    /// The bottles' rows, keys and activity (BottleStore).
    package var bottles: BottleStore { BottleStore(history: self) }
}

extension BottleStore {
    /// Saves everything in `bottle`, replacing what was stored for its id.
    package func save(_ bottle: BottleRecord) throws {
        _ = try ArgumentChecks.bottle(bottle.id)
        try history.write("saving bottle \(bottle.id)") { db in try bottle.upsert(db) }
    }

    /// Changes some fields of a bottle in one transaction, starting from `BottleRecord(id:)`
    /// when it is unknown; returns what was saved. E.g. `update(id: a) { $0.lastSeen = now }`.
    ///
    /// `durability: .normal` for what the bottle states again at every connection (state,
    /// battery, settings, last sighting): committed without waiting for the disk, which saves an
    /// fsync per fact on every connection (about ten; an SD card takes milliseconds each). Nil:
    /// the history's own level.
    @discardableResult
    package func update(id: String, durability: Durability? = nil,
                             _ change: (inout BottleRecord) throws -> Void) throws -> BottleRecord {
        _ = try ArgumentChecks.bottle(id)
        return try history.write("saving bottle \(id)", durability: durability ?? history.durability) { db in
            var bottle = try BottleRecord.fetch(id: id, in: db) ?? BottleRecord(id: id)
            try change(&bottle)
            bottle.id = id
            try bottle.save(db)
            return bottle
        }
    }

    /// What is stored about bottle `id`, nil when it was never recorded.
    package func bottle(id: String) throws -> BottleRecord? {
        try history.read("reading bottle \(id)") { db in try BottleRecord.fetch(id: id, in: db) }
    }

    /// Every known bottle, most recently seen first (never seen last).
    package func all() throws -> [BottleRecord] {
        try history.read("reading bottles") { db in try BottleRecord.fetchAllByLastSeen(db) }
    }

    /// Records that `bottle` restarted its record ids at `at` (B14): `highestRecordID` then
    /// considers only drinks stored from `at` on.
    package func recordIDReset(bottle: String, at: WallInstant) throws {
        let at = try ArgumentChecks.instant(at, "id reset time")
        try update(id: bottle) { $0.idResetAt = at }
    }
}
