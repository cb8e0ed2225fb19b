// `aquavate_drinks_total` without counting five years of drinks at every scrape: the counts are
// kept with the highest drink row they include, and a scrape adds only the rows stored since
// (drinks are only ever added, with rising row ids). A change in the set of bottles (a bottle
// keyed anew by its serial moves its rows) counts everything again.

import History
import Locking

final class DrinkCounts: Sendable {
    private struct Known {
        var bottles: Set<String> = []
        var highRowID: Int64 = -1
        var counts: [String: Int] = [:]
    }

    private let known = Locked(Known())

    /// Drinks stored per bottle now, deleted ones included.
    func counts(drinks: DrinkStore, bottles: Set<String>) throws -> [String: Int] {
        let high = try drinks.drinkRowIDHigh()
        let before = known.withLock { $0 }
        var now = before
        if before.bottles != bottles || high < before.highRowID {
            now = Known(bottles: bottles, highRowID: high, counts: try drinks.drinkCountsByBottle())
        } else if high > before.highRowID {
            for (bottle, added) in try drinks.drinkCountsByBottle(afterRowID: before.highRowID) {
                now.counts[bottle, default: 0] += added
            }
            now.highRowID = high
        } else {
            return before.counts
        }
        // Two scrapes may both have counted; either result is whole and correct for its row.
        known.withLock { if now.highRowID >= $0.highRowID || $0.bottles != bottles { $0 = now } }
        return now.counts
    }
}
