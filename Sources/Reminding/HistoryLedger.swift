// The reminder engine's view of the drink history (docs/reminders.md 0): day totals of the drinks
// known at an instant, answered from SQLite.

import Foundation
import Timekeeping
import History
import Locking
import Reminders

/// A `DrinkLedger` backed by the history's drink store (all it reads of the history). `revision` is bumped by the bridge at every
/// commit that changed the history (new drinks, tombstones), so the engine re-asks for the day
/// total only then or when the local day changes. With a `bottle`, only that bottle's drinks
/// count (a household: each bottle is one person's, docs/design.md 6).
package final class HistoryLedger: DrinkLedger, Sendable {
    private let drinks: DrinkStore
    private let bottleKey = Locked<String?>(nil)
    /// Commits that changed the history, since start.
    private let changes = Locked(0)

    package init(drinks: DrinkStore, bottle: String? = nil) {
        self.drinks = drinks
        bottleKey.withLock { $0 = bottle }
    }

    /// The bottle whose drinks count (nil: all); it changes when the bottle's serial is read.
    package var bottle: String? {
        get { bottleKey.withLock { $0 } }
        set {
            bottleKey.withLock { $0 = newValue }
            historyChanged()
        }
    }

    /// Call after a commit that changed what is stored.
    package func historyChanged() {
        changes.withLock { $0 += 1 }
    }

    package func dayTotal(at instant: WallInstant, timeZone: TimeZone) -> Int {
        // A database that cannot be read counts as no drinks: the engine then errs on the side
        // of reminding, and the failure itself is reported where the history is written.
        (try? drinks.dayTotal(containing: instant, timeZone: timeZone, knownAt: instant, bottle: bottle).totalML) ?? 0
    }

    package func totalML(drunkIn range: Range<WallInstant>, knownAt instant: WallInstant) -> Int {
        (try? drinks.intakeTotal(from: range.lowerBound, to: range.upperBound, knownAt: instant, bottle: bottle)) ?? 0
    }

    package func revision(at instant: WallInstant) -> Int {
        changes.withLock { $0 }
    }
}
