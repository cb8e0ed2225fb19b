// A drink ledger held in memory, for tests, benchmarks and the replay of a single run. Drinks may
// be added with a stored time in the ledger's future, so a whole timeline can be laid out before
// the engine walks it: each is known only from its `storedAt`.

import Foundation
import Timekeeping

package struct InMemoryDrinkLedger: DrinkLedger, Sendable {
    /// What the engine knows of a drink: an amount at a time, known from when it was stored. Not
    /// the bridge's `Drink` (AquavateProtocol): the rules import nothing of the bottle (the
    /// module map), and the engine's times are its clock's seconds, not the record's stamp.
    package struct Drink: Equatable, Sendable {
        /// Record timestamp, UTC epoch seconds.
        package let timestamp: WallInstant
        package let amountML: Int
        /// When the bridge committed it.
        package let storedAt: WallInstant
    }

    /// Drinks sorted by timestamp (then stored time), for day-range lookups.
    package private(set) var drinks: [Drink] = []
    /// Every stored time, sorted: the number known at an instant is the revision.
    private var storedTimes: [WallInstant] = []

    package init() {}

    /// Stores a drink. Records that are not drinks (amount ≤ 0) are ignored, as docs/reminders.md 0
    /// says; a deleted record is simply not recorded.
    package mutating func record(timestamp: WallInstant, amountML: Int, storedAt: WallInstant) {
        guard amountML > 0 else { return }
        let drink = Drink(timestamp: timestamp, amountML: amountML, storedAt: storedAt)
        let index = InMemoryDrinkLedger.firstIndex(in: drinks) { ($0.timestamp, $0.storedAt) > (timestamp, storedAt) }
        drinks.insert(drink, at: index)
        storedTimes.insert(storedAt, at: InMemoryDrinkLedger.firstIndex(in: storedTimes) { $0 > storedAt })
    }

    package func dayTotal(at instant: WallInstant, timeZone: TimeZone) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        guard let day = calendar.dateInterval(of: .day, for: instant.date) else { return 0 }
        let start = WallInstant(day.start)
        let end = WallInstant(day.end)
        var total = 0
        var index = InMemoryDrinkLedger.firstIndex(in: drinks) { $0.timestamp >= start }
        while index < drinks.count, drinks[index].timestamp < end {
            if drinks[index].storedAt <= instant { total += drinks[index].amountML }
            index += 1
        }
        return total
    }

    package func totalML(drunkIn range: Range<WallInstant>, knownAt instant: WallInstant) -> Int {
        var total = 0
        var index = InMemoryDrinkLedger.firstIndex(in: drinks) { $0.timestamp >= range.lowerBound }
        while index < drinks.count, drinks[index].timestamp < range.upperBound {
            if drinks[index].storedAt <= instant { total += drinks[index].amountML }
            index += 1
        }
        return total
    }

    /// The number of drinks stored at or before `instant`: drinks are only added, so the count
    /// names the set.
    package func revision(at instant: WallInstant) -> Int {
        InMemoryDrinkLedger.firstIndex(in: storedTimes) { $0 > instant }
    }

    /// The first index whose element satisfies `isAfter` (which must be false then true along
    /// the array).
    private static func firstIndex<T>(in array: [T], where isAfter: (T) -> Bool) -> Int {
        var low = 0, high = array.count
        while low < high {
            let middle = (low + high) / 2
            if isAfter(array[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
