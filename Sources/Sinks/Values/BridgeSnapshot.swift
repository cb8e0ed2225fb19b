// The bridge's state as published for dashboards (MQTT retained state, Home Assistant sensors).
// Plain values filled by the daemon from the history and the reminder engine; nil = not known
// yet (e.g. no Current State read since start), which sinks publish as JSON null.

import Timekeeping

package struct BridgeSnapshot: Sendable, Equatable {
    /// When this snapshot was taken, UTC seconds since 1970.
    package var time: WallInstant
    /// Today's local day total (docs/reminders.md 0), ml.
    package var dayTotalML: Int
    package var goalML: Int
    /// The bottle's last reported level, ml (signed on the wire; may be negative while calibrating).
    package var bottleLevelML: Int?
    package var batteryPercent: Int?
    /// docs/reminders.md 2.2.
    package var urgency: HydrationUrgency
    /// The displayed deficit, `max(0, deficit)`, ml.
    package var deficitML: Int
    package var remindersToday: Int
    /// `reminders.daily_limit` (12 reminders per reminder day).
    package var dailyLimit: Bool
    /// The last completed sync, UTC seconds; nil before the first.
    package var lastSync: WallInstant?
    /// Records the bottle still holds unsynced, as of its last Current State.
    package var unsynced: Int?
    package var bottleConnected: Bool
    /// Device Settings' shake-to-empty switch, when read.
    package var shakeToEmpty: Bool?
    /// The goal the bottle itself holds (Bottle Config), when read.
    package var bottleGoalML: Int?
    /// The bottle it is about (its serial or address), where a bridge has several; nil: the
    /// bridge's bottle.
    package var bottle: String?
    /// When the day `dayTotalML` counts began (local midnight, UTC seconds): Home Assistant's
    /// `last_reset` of the day total, so that a deleted drink lowers the day's statistics
    /// instead of reading as a new meter.
    package var dayStart: WallInstant?
    /// The bottle's last connection, UTC seconds (a sync with nothing new moves only this).
    package var lastSeen: WallInstant?
    /// The newest drink of the day that still counts: its amount (ml) and time (UTC seconds).
    package var lastDrinkML: Int?
    package var lastDrinkTime: WallInstant?
    /// `reminders.enabled`: reminders as a whole.
    package var remindersEnabled: Bool = true
    /// Controls waiting for the bottle's next connection (docs/design.md 3.5): the goal and the
    /// shake-to-empty switch as they will be, and how many commands wait in all.
    package var pendingGoalML: Int?
    package var pendingShakeToEmpty: Bool?
    package var pendingCommands: Int = 0
    /// Records the bottle sent that cannot be drinks, kept aside and not counted (docs/design.md 3.4).
    package var quarantined: Int = 0
    /// Stuck: the same chunk refused at several connections in a row, every later drink waiting
    /// behind it until a person acts (docs/design.md 3.4); since when.
    package var stuck: Bool = false
    package var stuckSince: WallInstant?

    package init(time: WallInstant, dayTotalML: Int, goalML: Int, bottleLevelML: Int? = nil,
                batteryPercent: Int? = nil, urgency: HydrationUrgency, deficitML: Int, remindersToday: Int,
                dailyLimit: Bool, lastSync: WallInstant? = nil, unsynced: Int? = nil,
                bottleConnected: Bool, shakeToEmpty: Bool? = nil, bottleGoalML: Int? = nil, bottle: String? = nil) {
        self.bottle = bottle
        self.time = time
        self.dayTotalML = dayTotalML
        self.goalML = goalML
        self.bottleLevelML = bottleLevelML
        self.batteryPercent = batteryPercent
        self.urgency = urgency
        self.deficitML = deficitML
        self.remindersToday = remindersToday
        self.dailyLimit = dailyLimit
        self.lastSync = lastSync
        self.unsynced = unsynced
        self.bottleConnected = bottleConnected
        self.shakeToEmpty = shakeToEmpty
        self.bottleGoalML = bottleGoalML
    }
}
