// Storage for the reminder engine: its saved state and the delivered log (docs/reminders.md 1, 2.6).
//
// The engine's state is kept per bottle in typed rows (SavedReminders); its meaning belongs to
// the Reminders module, which this module does not import. Moving a bottle to its serial moves
// its reminders too (BottleKeys).

import GRDB
import Timekeeping

/// One delivered notification, as the delivered log keeps it.
package struct DeliveredNotification: Sendable, Hashable {
    package var id: String
    package var kind: String
    /// Bridge clock (UTC seconds) when it was delivered.
    package var time: WallInstant
    package var title: String
    package var body: String

    package init(id: String, kind: String, time: WallInstant, title: String, body: String) {
        self.id = id
        self.kind = kind
        self.time = time
        self.title = title
        self.body = body
    }
}

/// The reminder engines' part of the history: their saved state and the delivered log, all that
/// `Reminding` keeps there (`history.reminders`), over the history's one database writer.
package struct ReminderStore: Sendable {
    let history: DrinkHistory
}

extension DrinkHistory {
    /// The reminder engines' state and the delivered log (ReminderStore).
    package var reminders: ReminderStore { ReminderStore(history: self) }
}

extension ReminderStore {
    /// The reminders `bottle`'s engine saved (`SavedReminders.everyBottle`: the one engine of
    /// every bottle), nil when it never saved.
    package func saved(bottle: String) throws -> SavedReminders? {
        try history.read("reading the reminder state of \(bottle.isEmpty ? "every bottle" : bottle)") { db in
            try SavedReminders.fetch(bottle: bottle, in: db)
        }
    }

    /// Saves `bottle`'s reminder state, and the notifications it delivered since the last save,
    /// in one transaction: a crash never records one without the other.
    /// `replacing`: the key of an older engine whose state this one took over (the one engine of
    /// a single-bottle history), removed in the same transaction, so the state is never held twice.
    /// `durability`: the history's own unless the caller says the state can be derived again
    /// (`.normal`); a save that records deliveries always takes the history's own.
    package func save(_ saved: SavedReminders, bottle: String, at time: WallInstant,
                              delivered: [DeliveredNotification] = [], replacing older: String? = nil,
                              durability requested: Durability? = nil) throws {
        let durability = delivered.isEmpty ? requested ?? history.durability : history.durability
        try history.write("saving the reminder state of \(bottle.isEmpty ? "every bottle" : bottle)", durability: durability) { db in
            if let older, older != bottle {
                try SavedReminders.delete(bottle: older, in: db)
            }
            try saved.save(bottle: bottle, in: db)
            for item in delivered {
                try db.execute(sql: "INSERT INTO delivered_notification (id, kind, time, title, body) VALUES (?, ?, ?, ?, ?)",
                               arguments: [item.id, item.kind, item.time, item.title, item.body])
            }
        }
    }

    /// The delivered log from `since` on (all when nil), oldest first.
    package func delivered(since: WallInstant? = nil) throws -> [DeliveredNotification] {
        try history.read("reading delivered notifications") { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, kind, time, title, body FROM delivered_notification
                WHERE time >= ? ORDER BY time, seq
                """, arguments: [since ?? WallInstant(secondsSince1970: -.greatestFiniteMagnitude)])
            return rows.map {
                DeliveredNotification(id: $0["id"], kind: $0["kind"], time: $0["time"], title: $0["title"], body: $0["body"])
            }
        }
    }
}
