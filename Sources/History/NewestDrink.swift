// The newest stored drink, as a bound on the present: a clock that shows an earlier time than
// a drink already stored is wrong, and SET_TIME is withheld from it.

import GRDB
import Timekeeping

/// The latest times among a bottle's stored drinks.
package struct NewestDrinkTimes: Sendable, Equatable {
    /// The largest record timestamp (the bottle's clock, UTC seconds).
    package var recordTime: WallInstant
    /// The latest time a drink was stored (this machine's clock when it stored it).
    package var storedAt: WallInstant
}

extension DrinkStore {
    /// The newest record time and latest storage time of `bottle`'s drinks (every bottle's when
    /// nil); nil when none is stored.
    package func newestDrinkTimes(bottle: String? = nil) throws -> NewestDrinkTimes? {
        try history.read("reading the newest drink") { db in
            let row: Row?
            if let bottle {
                row = try Row.fetchOne(db, sql: "SELECT MAX(timestamp) AS t, MAX(stored_at) AS s FROM drink WHERE bottle = ?",
                                       arguments: [bottle])
            } else {
                row = try Row.fetchOne(db, sql: "SELECT MAX(timestamp) AS t, MAX(stored_at) AS s FROM drink")
            }
            guard let row, let time = row["t"] as WallInstant?, let storedAt = row["s"] as WallInstant? else { return nil }
            return NewestDrinkTimes(recordTime: time, storedAt: storedAt)
        }
    }
}
