// What the person did: manual intakes and notification actions (docs/reminders.md 3, 6). Only the
// reminder engines record and read them, so they are part of their store (`history.reminders`).

import GRDB
import Timekeeping

package struct PersonEvent: Sendable, Hashable {
    package enum Kind: String, Sendable { case intake, action }
    package var time: WallInstant
    package var kind: Kind
    /// The intake type (`vitamin-d`) or the action id (`did-this`).
    package var name: String
    /// For an action: the notification it was invoked on.
    package var notificationID: String?

    package init(time: WallInstant, kind: Kind, name: String, notificationID: String? = nil) {
        self.time = time
        self.kind = kind
        self.name = name
        self.notificationID = notificationID
    }
}

extension ReminderStore {
    package func recordPersonEvent(_ event: PersonEvent) throws {
        try history.write("recording \(event.kind.rawValue) \(event.name)") { db in
            try db.execute(sql: "INSERT INTO person_event (time, kind, name, notification_id) VALUES (?, ?, ?, ?)",
                           arguments: [event.time, event.kind.rawValue, event.name, event.notificationID])
        }
    }

    /// Every recorded event from `since` on (all when nil), oldest first.
    package func personEvents(since: WallInstant? = nil) throws -> [PersonEvent] {
        try history.read("reading person events") { db in
            try Row.fetchAll(db, sql: "SELECT time, kind, name, notification_id FROM person_event WHERE time >= ? ORDER BY time, seq",
                             arguments: [since ?? WallInstant(secondsSince1970: -.greatestFiniteMagnitude)]).map {
                PersonEvent(time: $0["time"], kind: PersonEvent.Kind(rawValue: $0["kind"]) ?? .intake, name: $0["name"],
                            notificationID: $0["notification_id"])
            }
        }
    }
}
