// Drinks a page at a time, newest first, for `/api/v1/drinks` (docs/design.md 3.6): a span of
// time, optionally one bottle, at most `limit` rows. Read through the timestamp index by column
// number (no per-row coding keys): 30 days of a four-bottle history is a few thousand rows, and
// the generic record decoding and a per-bottle filter that let SQLite walk the bottle's whole key
// index instead cost most of that endpoint's 70 ms.

import AquavateProtocol
import Timekeeping
import GRDB

extension DrinkStore {
    /// Drinks with `from ≤ timestamp < before` (UTC seconds), of `bottle` when given, deleted ones
    /// included, newest first (timestamp, then record id, then bottle, all descending); at most
    /// `limit` when given.
    package func drinksNewestFirst(bottle: String? = nil, from: UInt32, before: UInt32, limit: Int? = nil) throws -> [StoredDrink] {
        guard from < before, limit.map({ $0 > 0 }) ?? true else { return [] }
        return try history.read("reading a page of drinks") { db in
            // `+bottle`: the bottle is a filter on the rows of the timestamp range, never the index
            // SQLite walks (its key index would visit every drink the bottle ever had).
            let statement = try db.cachedStatement(sql: """
                SELECT bottle, record_id, timestamp, amount_ml, bottle_level_ml, type_raw, flags, deleted, stored_at, deleted_at, manual
                FROM drink
                WHERE timestamp >= ? AND timestamp < ? AND (? IS NULL OR +bottle = ?)
                ORDER BY timestamp DESC, record_id DESC, bottle DESC LIMIT ?
                """)
            let rows = try Row.fetchCursor(statement, arguments: [Int64(from), Int64(before), bottle, bottle, Int64(limit ?? -1)])
            var drinks: [StoredDrink] = []
            while let row = try rows.next() {
                // By position (this is the API's fast path), with the column types StoredDrink's
                // own decoding uses: a value outside them is a decoding error, never a trap.
                let drink = Drink(bottle: try row.decode(String.self, atIndex: 0),
                                  recordID: try row.decode(UInt32.self, atIndex: 1),
                                  timestamp: try row.decode(UInt32.self, atIndex: 2),
                                  amountML: Int(try row.decode(Int16.self, atIndex: 3)),
                                  bottleLevelML: Int(try row.decode(Int16.self, atIndex: 4)),
                                  typeRaw: try row.decode(UInt8.self, atIndex: 5),
                                  flagsRaw: try row.decode(UInt8.self, atIndex: 6),
                                  deleted: try row.decode(Bool.self, atIndex: 7),
                                  manual: try row.decode(Bool.self, atIndex: 10))
                drinks.append(StoredDrink(drink, storedAt: try row.decode(WallInstant.self, atIndex: 8),
                                          deletedAt: try row.decode(WallInstant?.self, atIndex: 9)))
            }
            return drinks
        }
    }
}
