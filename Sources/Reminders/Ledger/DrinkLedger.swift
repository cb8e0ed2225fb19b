// What the engine needs to know about drinks (REMINDERS.md 0), and nothing more: the day total of
// the drinks known at an instant. The bridge answers it from its SQLite history; tests and
// benchmarks use `InMemoryDrinkLedger`.

import Foundation

public protocol DrinkLedger {
    /// The sum of `amount_ml` of the drinks (amount > 0, not deleted) whose record timestamp falls
    /// in the local calendar day `[00:00, 24:00)` of `timeZone` containing `instant`, counting
    /// only drinks stored (known) at or before `instant`.
    func dayTotal(at instant: Double, timeZone: TimeZone) -> Int

    /// A number that changes whenever the set of drinks known at `instant` changes. The engine
    /// asks for it at every tick and asks `dayTotal` again only when it or the local day changed,
    /// so it must be cheap. A store-backed ledger whose drinks are all known already can answer a
    /// change counter bumped at every commit (a stored, deleted or undeleted drink), ignoring
    /// `instant`.
    func revision(at instant: Double) -> Int
}
