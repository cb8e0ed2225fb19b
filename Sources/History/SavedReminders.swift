// The reminder engine's saved state (docs/reminders.md 2.6), a bottle's reminders in rows with
// typed columns: its counters and days, its pending notifications with their actions, its recent
// manual intakes and its recent Did This taps. The meaning of each field belongs to the Reminders
// module, which this module does not import (Reminding maps the engine's state to these records
// and back); the names are docs/reminders.md's.
//
// Each record carries the bottle whose reminders it keeps; `SavedReminders.everyBottle` (the empty
// key) is the one engine of every bottle (replay, and a history from before several bottles).

import GRDB
import Timekeeping

/// A bottle's reminder counters and days, one row per engine.
package struct ReminderCounters: Codable, Sendable, Equatable, SnakeCaseRecord {
    package static let databaseTableName = "reminder_state"

    package var bottle: String
    package var reminderDay: LocalDay?
    package var remindersSentToday: Int
    /// An `Urgency` raw value.
    package var lastNotifiedUrgency: String?
    package var remindedSinceOnTrack: Bool
    /// An `Urgency` raw value.
    package var lastUrgency: String
    package var goalReachedDay: LocalDay?
    package var lastLowBattery: Bool
    package var lowBatteryAlertDay: LocalDay?
    package var reminderSequence: Int
    package var backOnTrackSequence: Int
    package var rulesDay: LocalDay?
    package var ritualStreak: Int

    package init(bottle: String = "", reminderDay: LocalDay?, remindersSentToday: Int, lastNotifiedUrgency: String?,
                remindedSinceOnTrack: Bool, lastUrgency: String, goalReachedDay: LocalDay?, lastLowBattery: Bool,
                lowBatteryAlertDay: LocalDay?, reminderSequence: Int, backOnTrackSequence: Int, rulesDay: LocalDay?,
                ritualStreak: Int) {
        self.bottle = bottle
        self.reminderDay = reminderDay
        self.remindersSentToday = remindersSentToday
        self.lastNotifiedUrgency = lastNotifiedUrgency
        self.remindedSinceOnTrack = remindedSinceOnTrack
        self.lastUrgency = lastUrgency
        self.goalReachedDay = goalReachedDay
        self.lastLowBattery = lastLowBattery
        self.lowBatteryAlertDay = lowBatteryAlertDay
        self.reminderSequence = reminderSequence
        self.backOnTrackSequence = backOnTrackSequence
        self.rulesDay = rulesDay
        self.ritualStreak = ritualStreak
    }
}

/// A pending notification, in the order the engine added it (`position`).
package struct SavedPendingNotification: Codable, Sendable, Equatable, SnakeCaseRecord {
    package static let databaseTableName = "reminder_pending"

    package var bottle: String = ""
    package var position: Int = 0
    package var id: String
    package var fireTime: WallInstant
    /// A `NotificationKind` raw value.
    package var kind: String
    package var title: String
    package var body: String
    package var thread: String?

    package init(id: String, fireTime: WallInstant, kind: String, title: String, body: String, thread: String?) {
        self.id = id
        self.fireTime = fireTime
        self.kind = kind
        self.title = title
        self.body = body
        self.thread = thread
    }
}

/// An action a pending notification offers, in its order (`position`).
package struct SavedNotificationAction: Codable, Sendable, Equatable, SnakeCaseRecord {
    package static let databaseTableName = "reminder_pending_action"

    package var bottle: String = ""
    package var notificationId: String
    package var position: Int = 0
    /// The action's id (`did-this`).
    package var actionId: String
    package var label: String

    package init(notificationId: String, actionId: String, label: String) {
        self.notificationId = notificationId
        self.actionId = actionId
        self.label = label
    }
}

/// A manual intake the engine remembers (section 3's suppression windows), oldest first.
package struct SavedIntake: Codable, Sendable, Equatable, SnakeCaseRecord {
    package static let databaseTableName = "reminder_intake"

    package var bottle: String = ""
    package var position: Int = 0
    package var type: String
    package var time: WallInstant

    package init(type: String, time: WallInstant) {
        self.type = type
        self.time = time
    }
}

/// A Did This the engine remembers (section 6's streak), one per local day.
package struct SavedRitualCompletion: Codable, Sendable, Equatable, SnakeCaseRecord {
    package static let databaseTableName = "reminder_ritual"

    package var bottle: String = ""
    package var position: Int = 0
    package var day: LocalDay
    package var time: WallInstant

    package init(day: LocalDay, time: WallInstant) {
        self.day = day
        self.time = time
    }
}

/// Everything one engine saved, read and written together.
package struct SavedReminders: Sendable, Equatable {
    /// The key of the one engine of every bottle.
    package static let everyBottle = ""

    package var counters: ReminderCounters
    package var pending: [SavedPendingNotification]
    package var actions: [SavedNotificationAction]
    package var intakes: [SavedIntake]
    package var rituals: [SavedRitualCompletion]

    package init(counters: ReminderCounters, pending: [SavedPendingNotification], actions: [SavedNotificationAction],
                intakes: [SavedIntake], rituals: [SavedRitualCompletion]) {
        self.counters = counters
        self.pending = pending
        self.actions = actions
        self.intakes = intakes
        self.rituals = rituals
    }

    /// The rows of the tables, keyed on `bottle` and numbered in their order.
    func rows(bottle: String) -> SavedReminders {
        var copy = self
        copy.counters.bottle = bottle
        for index in copy.pending.indices { copy.pending[index].bottle = bottle; copy.pending[index].position = index }
        for index in copy.actions.indices { copy.actions[index].bottle = bottle; copy.actions[index].position = index }
        for index in copy.intakes.indices { copy.intakes[index].bottle = bottle; copy.intakes[index].position = index }
        for index in copy.rituals.indices { copy.rituals[index].bottle = bottle; copy.rituals[index].position = index }
        return copy
    }

    /// The tables that hold an engine's state, each with a `bottle` column.
    static let tables = [ReminderCounters.databaseTableName, SavedPendingNotification.databaseTableName,
                         SavedNotificationAction.databaseTableName, SavedIntake.databaseTableName,
                         SavedRitualCompletion.databaseTableName]

    /// Engine `bottle`'s saved state, nil when it never saved one.
    static func fetch(bottle: String, in db: Database) throws -> SavedReminders? {
        guard let counters = try ReminderCounters.fetchOne(db, key: bottle) else { return nil }
        let mine = Column("bottle") == bottle
        return SavedReminders(
            counters: counters,
            pending: try SavedPendingNotification.filter(mine).order(Column("position")).fetchAll(db),
            actions: try SavedNotificationAction.filter(mine).order(Column("position")).fetchAll(db),
            intakes: try SavedIntake.filter(mine).order(Column("position")).fetchAll(db),
            rituals: try SavedRitualCompletion.filter(mine).order(Column("position")).fetchAll(db))
    }

    /// Removes engine `bottle`'s state.
    static func delete(bottle: String, in db: Database) throws {
        for table in tables {
            try db.execute(sql: "DELETE FROM \(table) WHERE bottle = ?", arguments: [bottle])
        }
    }

    /// Replaces engine `bottle`'s state with this one.
    func save(bottle: String, in db: Database) throws {
        try Self.delete(bottle: bottle, in: db)
        let rows = rows(bottle: bottle)
        try rows.counters.insert(db)
        for row in rows.pending { try row.insert(db) }
        for row in rows.actions { try row.insert(db) }
        for row in rows.intakes { try row.insert(db) }
        for row in rows.rituals { try row.insert(db) }
    }
}

extension LocalDay: DatabaseValueConvertible {
    /// Stored as its date, `YYYY-MM-DD`.
    package var databaseValue: DatabaseValue { description.databaseValue }

    package static func fromDatabaseValue(_ dbValue: DatabaseValue) -> LocalDay? {
        String.fromDatabaseValue(dbValue).flatMap(LocalDay.init)
    }
}
