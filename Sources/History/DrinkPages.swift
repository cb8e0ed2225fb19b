// Drinks a page at a time, newest first, for `/api/v1/drinks` (docs/design.md 3.6): a span of
// time, optionally one bottle, at most `limit` rows. Read through the timestamp index by column
// number (no per-row coding keys): 30 days of a four-bottle history is a few thousand rows, and
// the generic record decoding and a per-bottle filter that let SQLite walk the bottle's whole key
// index instead cost most of that endpoint's 70 ms.

import AquavateProtocol
import GRDB

extension DrinkHistory {
    /// Drinks with `from ≤ timestamp < before` (UTC seconds), of `bottle` when given, deleted ones
    /// included, newest first (timestamp, then record id, then bottle, all descending); at most
    /// `limit` when given.
    public func drinksNewestFirst(bottle: String? = nil, from: UInt32, before: UInt32, limit: Int? = nil) throws -> [StoredDrink] {
        guard from < before, limit.map({ $0 > 0 }) ?? true else { return [] }
        return try read("reading a page of drinks") { db in
            // `+bottle`: the bottle is a filter on the rows of the timestamp range, never the index
            // SQLite walks (its key index would visit every drink the bottle ever had).
            let statement = try db.cachedStatement(sql: """
                SELECT bottle, record_id, timestamp, amount_ml, bottle_level_ml, type_raw, flags, deleted, stored_at, deleted_at
                FROM drink
                WHERE timestamp >= ? AND timestamp < ? AND (? IS NULL OR +bottle = ?)
                ORDER BY timestamp DESC, record_id DESC, bottle DESC LIMIT ?
                """)
            let rows = try Row.fetchCursor(statement, arguments: [Int64(from), Int64(before), bottle, bottle, Int64(limit ?? -1)])
            var drinks: [StoredDrink] = []
            while let row = try rows.next() {
                let drink = Drink(bottle: row[0], recordID: UInt32(row[1] as Int64), timestamp: UInt32(row[2] as Int64),
                                  amountML: row[3], bottleLevelML: row[4], typeRaw: UInt8(truncatingIfNeeded: row[5] as Int64),
                                  flagsRaw: UInt8(truncatingIfNeeded: row[6] as Int64), deleted: row[7])
                drinks.append(StoredDrink(drink, storedAt: row[8], deletedAt: row[9]))
            }
            return drinks
        }
    }
}
