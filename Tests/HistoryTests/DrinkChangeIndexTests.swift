// The household asks every 10 s for the drinks changed and the deletions to tell since its marks:
// SQLite's plan for those two queries must go through the index of deleted drinks, in a new
// history and in one a released bridge wrote (upgraded on opening), and never read the whole
// drink table, which grows by every drink of every bottle for years.

import Foundation
import GRDB
@testable import History
import Testing
import Timekeeping

@Suite("the household's queries since a mark read an index, not the drink table")
struct DrinkChangeIndexTests {
    /// The lines of SQLite's plan for `sql` with `arguments`, explained after running it once on
    /// the same connection: EXPLAIN runs nothing, so it never checks the schema's version, and a
    /// reader opened before the upgrade would explain against the schema it read then; the query
    /// itself does check, and reads the schema again.
    func plan(of sql: String, arguments: StatementArguments, in history: DrinkHistory) throws -> [String] {
        try history.read("explaining a query") { db in
            _ = try Row.fetchAll(db, sql: sql, arguments: arguments)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    func checkPlans(in history: DrinkHistory) throws {
        let since = WallInstant(secondsSince1970: 1_800_000_000)
        let deletions = try plan(of: DrinkStore.foreignDeletionsSinceSQL, arguments: [since, 500], in: history)
        #expect(deletions.contains { $0.contains("USING INDEX drink_on_deleted_at") }, "\(deletions)")
        #expect(!deletions.contains { $0.hasPrefix("SCAN drink") }, "\(deletions)")
        let changes = try plan(of: DrinkStore.localDrinksChangedSQL, arguments: [since, since, 500], in: history)
        #expect(changes.contains { $0.contains("USING INDEX drink_on_deleted_at") }, "\(changes)")
        #expect(changes.contains { $0.contains("USING INDEX drink_on_stored_at") }, "\(changes)")
        #expect(!changes.contains { $0.hasPrefix("SCAN drink") }, "\(changes)")
    }

    @Test("in a new history")
    func newHistory() throws {
        try checkPlans(in: try DrinkHistory(path: nil))
    }

    @Test("in a history the released bridge wrote, upgraded")
    func upgradedHistory() throws {
        let (history, folder) = try ReleaseHistory().open()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try checkPlans(in: history)
        // The index holds the deleted drinks only: what the deletions to tell read from it.
        let indexed = try history.read("counting the index") { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM drink INDEXED BY drink_on_deleted_at WHERE deleted_at > -1e300")
        }
        let deleted = try history.drinks.storedDrinks().filter(\.deleted).count
        #expect(deleted > 0)
        #expect(indexed == deleted)
    }
}
