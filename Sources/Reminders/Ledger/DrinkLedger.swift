// What the engine needs to know about drinks (docs/reminders.md 0), and nothing more: the day total of
// the drinks known at an instant, and the total over any other window of time. The bridge answers it from its SQLite history; tests and
// benchmarks use `InMemoryDrinkLedger`.

import Foundation
import Timekeeping

package protocol DrinkLedger {
    /// The sum of `amount_ml` of the drinks (amount > 0, not deleted) whose record timestamp falls
    /// in the local calendar day `[00:00, 24:00)` of `timeZone` containing `instant`, counting
    /// only drinks stored (known) at or before `instant`.
    func dayTotal(at instant: WallInstant, timeZone: TimeZone) -> Int

    /// A number that changes whenever the set of drinks known at `instant` changes. The engine
    /// asks for it at every tick and asks `dayTotal` again only when it or the local day changed,
    /// so it must be cheap. A store-backed ledger whose drinks are all known already can answer a
    /// change counter bumped at every commit (a stored, deleted or undeleted drink), ignoring
    /// `instant`.
    func revision(at instant: WallInstant) -> Int

    /// The sum of `amount_ml` of the drinks (amount > 0, not deleted) whose record timestamp lies
    /// in `range` (UTC epoch seconds, upper bound excluded), counting only drinks stored at or
    /// before `instant`. Sections 3, 5 and 6 need windows other than one local day: a schedule's
    /// suppression window, the Monday-to-Sunday week, the past days of a streak.
    func totalML(drunkIn range: Range<WallInstant>, knownAt instant: WallInstant) -> Int
}
