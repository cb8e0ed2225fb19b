// What bottle traffic tells the reminder side (docs/reminders.md 2.4, 2.5): the ingest decides WHAT
// to tell; the daemon hands it to its reminder actor, replay to its runner on the capture's clock.

import AquavateProtocol
import Timekeeping

package enum ReminderInput: Sendable, Equatable {
    /// A Current State that is not the wake-up placeholder (2.5: the low-battery alert).
    case currentState(lowBattery: Bool, batteryPercent: Int, at: WallInstant)
    /// The bottle's own goal, when it is one the bottle can hold.
    case bottleGoal(Int, at: WallInstant)
    /// A chunk put new records in the history (the pace changes); its new drinks that are not
    /// deleted, in order (the daemon publishes them).
    case stored(newDrinks: [DrinkRecord])
    /// A sync ended having committed `newRecords` new records (2.4's after-sync rules).
    case syncEnded(at: WallInstant, newRecords: Int)
    /// The bottle's serial was read and its history moved from its address (`previous`) to it:
    /// its reminders move too.
    case identified(previous: String, serial: String, at: WallInstant)
}
