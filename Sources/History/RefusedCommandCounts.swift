// The commands the broker's command topic brought that the daemon refused, counted by reason
// (`not_permitted`, `setting`, `rate_limit`, …), as the daemon saves them: kept here so that the
// other processes (`serve`'s `/metrics`, `doctor`) read what the daemon counted. The reasons are
// the sinks' (this module does not import them); a count is cumulative over the history's life.

import GRDB
import Timekeeping

extension CommandStore {
    /// The refused commands so far, by reason; empty when none was ever saved.
    package func refused() -> [String: Int] {
        let counts = try? history.read("reading the refused commands") { db in
            try Row.fetchAll(db, sql: "SELECT reason, count FROM refused_command WHERE count >= 0")
                .reduce(into: [String: Int]()) { $0[$1["reason"]] = $1["count"] }
        }
        return counts ?? [:]
    }

    /// Saves the counts by reason (the whole tally, not an increment); they can be counted again.
    package func saveRefused(_ counts: [String: Int]) throws {
        try history.write("saving the refused commands", durability: .normal) { db in
            try DrinkHistory.replaceCounts(counts, table: "refused_command", in: db)
        }
    }
}
