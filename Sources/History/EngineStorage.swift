// Storage for the reminder engine: its state document and the delivered log (docs/reminders.md 1, 2.6).
//
// The engine's state is an opaque JSON document here: its meaning belongs to the Reminders
// module, which this module does not import. An engine that serves one bottle of several is
// named `<engine>@<bottle key>` (`reminders@AQ123`): moving a bottle to its serial moves it too.

import GRDB
import Timekeeping

/// One delivered notification, as the delivered log keeps it.
public struct DeliveredNotification: Sendable, Hashable {
    public var id: String
    public var kind: String
    /// Bridge clock (UTC seconds) when it was delivered.
    public var time: WallInstant
    public var title: String
    public var body: String

    public init(id: String, kind: String, time: WallInstant, title: String, body: String) {
        self.id = id
        self.kind = kind
        self.time = time
        self.title = title
        self.body = body
    }
}

extension DrinkHistory {
    /// The saved state document of engine `name`, nil on a fresh database.
    public func engineState(named name: String) throws -> String? {
        try read("reading the \(name) engine state") { db in
            try String.fetchOne(db, sql: "SELECT json FROM engine_state WHERE name = ?", arguments: [name])
        }
    }

    /// Saves engine `name`'s state document, and the notifications it delivered since the last
    /// save, in one transaction: a crash never records one without the other.
    /// `replacing`: an older name of the same state (the one engine of a single-bottle history),
    /// removed in the same transaction, so the state is never held twice.
    /// `durability`: the history's own unless the caller says the state can be derived again
    /// (`.normal`); a save that records deliveries always takes the history's own.
    public func saveEngineState(named name: String, json: String, at time: WallInstant,
                                delivered: [DeliveredNotification] = [], replacing older: String? = nil,
                                durability requested: Durability? = nil) throws {
        let durability = delivered.isEmpty ? requested ?? self.durability : self.durability
        try write("saving the \(name) engine state", durability: durability) { db in
            if let older, older != name {
                try db.execute(sql: "DELETE FROM engine_state WHERE name = ?", arguments: [older])
            }
            try db.execute(sql: """
                INSERT INTO engine_state (name, json, saved_at) VALUES (?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET json = excluded.json, saved_at = excluded.saved_at
                """, arguments: [name, json, time])
            for item in delivered {
                try db.execute(sql: "INSERT INTO delivered_notification (id, kind, time, title, body) VALUES (?, ?, ?, ?, ?)",
                               arguments: [item.id, item.kind, item.time, item.title, item.body])
            }
        }
    }

    /// The delivered log from `since` on (all when nil), oldest first.
    public func deliveredNotifications(since: WallInstant? = nil) throws -> [DeliveredNotification] {
        try read("reading delivered notifications") { db in
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
