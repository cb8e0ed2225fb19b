// The reminders other bridges of the household delivered (docs/design.md 6), kept so that a
// bridge restarted within a day still never repeats one (HouseholdClaims asks before delivering).

import GRDB
import Timekeeping

/// A reminder another bridge delivered, as this bridge heard it.
package struct HouseholdDelivery: Sendable, Hashable {
    /// The bottle's key as the delivering bridge told it.
    package var bottle: String
    package var id: String
    package var kind: String
    /// The notification's time (UTC seconds).
    package var time: WallInstant
    /// The `bridge.id` that delivered it.
    package var origin: String
    /// When this bridge heard it (its clock, UTC seconds).
    package var heardAt: WallInstant

    package init(bottle: String, id: String, kind: String, time: WallInstant, origin: String, heardAt: WallInstant) {
        self.bottle = bottle
        self.id = id
        self.kind = kind
        self.time = time
        self.origin = origin
        self.heardAt = heardAt
    }
}

extension HouseholdStore {
    /// Records a delivery another bridge made (the same id from the same bridge again replaces
    /// it: ids repeat from one day to the next), and forgets those heard before `forgetBefore`.
    package func recordDelivery(_ delivery: HouseholdDelivery, forgetBefore: WallInstant) throws {
        try history.write("recording \(delivery.id) delivered by \(delivery.origin)") { db in
            try db.execute(sql: """
                INSERT INTO household_delivered (bottle, id, kind, time, origin, heard_at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT(bottle, id, origin) DO UPDATE SET kind = excluded.kind, time = excluded.time, heard_at = excluded.heard_at
                """, arguments: [delivery.bottle, delivery.id, delivery.kind, delivery.time, delivery.origin, delivery.heardAt])
            try db.execute(sql: "DELETE FROM household_delivered WHERE heard_at < ?", arguments: [forgetBefore])
        }
    }

    /// The deliveries of other bridges heard at or after `since`, oldest first.
    package func deliveries(since: WallInstant) throws -> [HouseholdDelivery] {
        try history.read("reading the household's deliveries") { db in
            try Row.fetchAll(db, sql: """
                SELECT bottle, id, kind, time, origin, heard_at FROM household_delivered WHERE heard_at >= ? ORDER BY heard_at
                """, arguments: [since]).map {
                HouseholdDelivery(bottle: $0["bottle"], id: $0["id"], kind: $0["kind"], time: $0["time"], origin: $0["origin"],
                                  heardAt: $0["heard_at"])
            }
        }
    }
}
