// The schema of the history database, as an append-only list of named migration steps.

import GRDB

/// The steps that build the schema, in order.
///
/// A step, once released, never changes: a new table (reminder state, pending and delivered
/// notifications, manual intake logs, …) comes as a new named step appended at the end of
/// `migrator`, never as an edit of an earlier one. GRDB records the applied step names in
/// `grdb_migrations`, so each runs exactly once per database file.
enum HistoryMigrations {
    /// The steps, in order, with their names.
    private static let steps: [(name: String, migrate: @Sendable (Database) throws -> Void)] = [
        ("v1-drinks", createDrinks),
        ("v1-settings", createSettings),
        ("v1-bottles", createBottles),
        ("v2-engine-state", createEngineState),
        ("v2-delivered", createDelivered),
        ("v3-person-events", createPersonEvents),
        ("v4-bottle-control", createBottleControl),
        ("v5-household", addDrinkOrigin),
        ("v6-household-delivered", createHouseholdDelivered),
        ("v7-quarantine", createQuarantine),
        ("v8-manual-drinks", addManualDrinks),
        ("v9-typed-engine-state", typeEngineState),
        ("v10-schedule-table", createSchedules),
        ("v11-drink-change-index", indexDrinkDeletions),
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps { migrator.registerMigration(step.name, migrate: step.migrate) }
        return migrator
    }

    /// A database without a schema gets every step in ONE transaction, recorded in
    /// `grdb_migrations` as GRDB's migrator records them, so that it finds nothing to do
    /// afterwards; false (nothing done) when the database has a schema already (the migrator's
    /// work: it runs each step in a transaction of its own, with its foreign-key checks).
    /// One commit instead of eight, without the migrator's per-step pragmas and checks, and
    /// from one SQL script (NewHistorySchema: why, and how it is held to the steps) rather than
    /// the steps' table builders: the schema is the migrator's (DatabaseFileTests compares the two).
    static func createSchemaIfNew(_ writer: any DatabaseWriter) throws -> Bool {
        try writer.writeWithoutTransaction { db in
            var created = false
            // IMMEDIATE: another process creating the same file waits, then sees the schema.
            try db.inTransaction(.immediate) {
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else { return .commit }
                try NewHistorySchema.create(in: db, stepNames: steps.map(\.name))
                created = true
                return .commit
            }
            return created
        }
    }

    /// The schema, a line per table, index or trigger (tests compare the two ways of building it).
    static func schemaLines(_ db: Database) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map { "\($0)" }
    }

    /// The schema GRDB's migrator builds step by step, in memory (tests).
    static func stepwiseSchema() throws -> [String] {
        let queue = try DatabaseQueue()
        try migrator.migrate(queue)
        return try queue.read(schemaLines)
    }

    /// Every step name, in order (what `appliedMigrations()` returns on an up-to-date database).
    static var names: [String] { migrator.migrations }

    /// Drinks as the bottles sent them, keyed on (bottle, record_id, timestamp) (docs/protocol.md 4.7).
    private static func createDrinks(_ db: Database) throws {
        try db.create(table: "drink") { t in
            t.column("bottle", .text).notNull()
            t.column("record_id", .integer).notNull()
            // Record timestamp, UTC epoch seconds (bottle time, docs/protocol.md 5.2).
            t.column("timestamp", .integer).notNull()
            t.column("amount_ml", .integer).notNull()
            t.column("bottle_level_ml", .integer).notNull()
            // The interpreted kind, for people and SQL; `type_raw` keeps the byte as sent.
            t.column("type", .text).notNull().check { ["gulp", "pour"].contains($0) }
            t.column("type_raw", .integer).notNull()
            // Flags of the first copy stored, as sent.
            t.column("flags", .integer).notNull()
            t.column("deleted", .boolean).notNull().defaults(to: false)
            // Bridge clock (UTC seconds) when the write that stored it committed: "known drinks at t".
            t.column("stored_at", .double).notNull()
            t.column("deleted_at", .double)
            t.uniqueKey(["bottle", "record_id", "timestamp"])
            // A drink is deleted exactly when it has a deletion time.
            t.check(sql: "(deleted = 0) = (deleted_at IS NULL)")
        }
        try db.create(index: "drink_on_timestamp", on: "drink", columns: ["timestamp"])
    }

    /// Persisted settings (`config set`), as text; their meaning belongs to the Bridge.
    private static func createSettings(_ db: Database) throws {
        try db.create(table: "setting") { t in
            t.primaryKey("key", .text)
            t.column("value", .text).notNull()
        }
    }

    /// What the bridge knows about each bottle: identity, contact times, last Current State.
    private static func createBottles(_ db: Database) throws {
        try db.create(table: "bottle") { t in
            // The address or serial number: the same string drinks use in `drink.bottle`.
            t.primaryKey("id", .text)
            t.column("name", .text)
            t.column("serial", .text)
            t.column("address", .text)
            t.column("goal_ml", .integer)
            t.column("last_seen", .double)
            t.column("last_sync", .double)
            // When the bridge last saw the bottle restart its record ids (B14).
            t.column("id_reset_at", .double)
            // The last Current State (docs/protocol.md 3.1); all NULL until one was received.
            t.column("state_at", .double)
            t.column("state_timestamp", .integer)
            t.column("daily_total_ml", .integer)
            t.column("bottle_level_ml", .integer)
            t.column("battery", .integer)
            t.column("unsynced", .integer)
            t.column("state_flags", .integer)
        }
    }

    /// The reminder engine's persisted state (counters, flags, pending notifications), one JSON
    /// document per named engine, so a restart restores it unchanged (docs/reminders.md 2.6).
    private static func createEngineState(_ db: Database) throws {
        try db.create(table: "engine_state") { t in
            t.primaryKey("name", .text)
            t.column("json", .text).notNull()
            t.column("saved_at", .double).notNull()
        }
    }

    /// The delivered log of docs/reminders.md 1: every notification that fired, once.
    private static func createDelivered(_ db: Database) throws {
        try db.create(table: "delivered_notification") { t in
            t.autoIncrementedPrimaryKey("seq")
            t.column("id", .text).notNull()
            t.column("kind", .text).notNull()
            t.column("time", .double).notNull()
            t.column("title", .text).notNull()
            t.column("body", .text).notNull()
        }
        try db.create(index: "delivered_on_time", on: "delivered_notification", columns: ["time"])
    }

    /// What the person did (docs/reminders.md 3 and 6): manual intakes (`log TYPE`, Done) and actions
    /// on notifications (Did This, Start Ritual), kept for good.
    private static func createPersonEvents(_ db: Database) throws {
        try db.create(table: "person_event") { t in
            t.autoIncrementedPrimaryKey("seq")
            t.column("time", .double).notNull()
            // `intake` or `action`.
            t.column("kind", .text).notNull()
            // intake: the type (`vitamin-d`); action: the action id (`did-this`).
            t.column("name", .text).notNull()
            // action: the notification id.
            t.column("notification_id", .text)
        }
        try db.create(index: "person_event_on_time", on: "person_event", columns: ["time"])
    }

    /// What the bridge reads from the bottle at each connection (Device Information, Device
    /// Settings, Bottle Config, the clock's offset), the durable queue of commands for it
    /// (docs/design.md 3.5), and the activity it reports (docs/protocol.md 3.8).
    private static func createBottleControl(_ db: Database) throws {
        try db.alter(table: "bottle") { t in
            t.add(column: "firmware", .text)
            t.add(column: "model", .text)
            t.add(column: "shake_to_empty", .boolean)
            t.add(column: "calibrated", .boolean)
            t.add(column: "scale", .double)
            // Bottle clock minus bridge clock (seconds) at the last connection, before SET_TIME.
            t.add(column: "clock_offset", .integer)
            // The last battery figure that was not the 0 % a bottle reports right after waking
            // (docs/protocol.md 2.1), from the battery service or a Current State.
            t.add(column: "battery_level", .integer)
        }
        try db.create(table: "bottle_command") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("bottle", .text).notNull()
            // `goal`, `delete`, `tare`, `shake-to-empty` (BottleAction's kind).
            t.column("command", .text).notNull()
            t.column("argument", .text)
            // `sending` is a command that must not be repeated (tare) between its write and its end.
            t.column("status", .text).notNull().check { ["pending", "sending", "applied", "failed"].contains($0) }
            t.column("message", .text)
            t.column("attempts", .integer).notNull().defaults(to: 0)
            t.column("created_at", .double).notNull()
            t.column("updated_at", .double).notNull()
        }
        try db.create(index: "bottle_command_on_bottle", on: "bottle_command", columns: ["bottle", "status"])
        try db.create(table: "motion_event") { t in
            t.column("bottle", .text).notNull()
            // Bottle time (docs/protocol.md 5.2).
            t.column("timestamp", .integer).notNull()
            t.column("duration_sec", .integer).notNull()
            t.column("wake_reason", .integer).notNull()
            t.column("sleep_type", .integer).notNull()
            t.uniqueKey(["bottle", "timestamp"])
        }
        try db.create(table: "backpack_session") { t in
            t.column("bottle", .text).notNull()
            t.column("start", .integer).notNull()
            t.column("duration_sec", .integer).notNull()
            t.column("timer_wakes", .integer).notNull()
            t.column("exit_reason", .integer).notNull()
            t.uniqueKey(["bottle", "start"])
        }
    }

    /// Where a drink came from (docs/design.md 6): NULL for a drink this bridge synced from the
    /// bottle (it publishes those), else the `bridge.id` of the bridge that did (received
    /// through the broker; never published again).
    private static func addDrinkOrigin(_ db: Database) throws {
        try db.alter(table: "drink") { t in
            t.add(column: "origin", .text)
        }
        try db.create(index: "drink_on_stored_at", on: "drink", columns: ["stored_at"])
    }

    /// The reminders other bridges of the household delivered (docs/design.md 6), as heard
    /// through the broker: a restarted bridge still never repeats one. Kept apart from the
    /// delivered log, which is what this bridge's own engine fired.
    private static func createHouseholdDelivered(_ db: Database) throws {
        try db.create(table: "household_delivered") { t in
            // The bottle's key as the delivering bridge told it (its serial once read).
            t.column("bottle", .text).notNull()
            // The engine's notification id (`hydration-7`, `reminder-VITD-9-0`).
            t.column("id", .text).notNull()
            t.column("kind", .text).notNull()
            // The notification's time (the delivering bridge's clock, UTC seconds).
            t.column("time", .double).notNull()
            // The `bridge.id` that delivered it.
            t.column("origin", .text).notNull()
            // This bridge's clock when it heard the delivery.
            t.column("heard_at", .double).notNull()
            t.uniqueKey(["bottle", "id", "origin"])
        }
        try db.create(index: "household_delivered_on_heard_at", on: "household_delivered", columns: ["heard_at"])
    }

    /// Records a bottle sent that cannot be drinks (docs/design.md 3.4 `quarantined`), kept aside
    /// with their raw bytes so that the chunk carrying them is still stored and acknowledged; a
    /// person restores one at a time they give, or discards it. The drink's own stamp when the
    /// stored time was corrected (a whole-hour zone offset set over USB, docs/protocol.md 5.2, or a
    /// restore); and a bottle's structural refusals in a row, which make it "stuck".
    private static func createQuarantine(_ db: Database) throws {
        try db.alter(table: "drink") { t in
            // The bottle's own stamp when `timestamp` is a corrected one; NULL when they agree.
            t.add(column: "raw_timestamp", .integer)
        }
        try db.create(table: "quarantined_record") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("bottle", .text).notNull()
            t.column("record_id", .integer).notNull()
            // The stamp as sent (bottle time), part of the record's identity as for a drink.
            t.column("timestamp", .integer).notNull()
            // The 14 bytes as sent, lower-case hex.
            t.column("raw", .text).notNull()
            // RecordProblem raw values, comma-separated (`time`, `amount`, `level`).
            t.column("problems", .text).notNull()
            // One line for a person.
            t.column("reason", .text).notNull()
            // Bridge clock when it first arrived.
            t.column("received_at", .double).notNull()
            // NULL while it waits; `restored` (a drink now) or `discarded`.
            t.column("resolution", .text).check { ["restored", "discarded"].contains($0) }
            t.column("resolved_at", .double)
            t.uniqueKey(["bottle", "record_id", "timestamp"])
        }
        try db.alter(table: "bottle") { t in
            // The last structural refusal of a sync (docs/design.md 3.4), since when the same one
            // repeats, and at how many connections in a row; NULL after a complete sync.
            t.add(column: "refusal", .text)
            t.add(column: "refusal_since", .double)
            t.add(column: "refusal_count", .integer)
        }
    }

    /// Drinks a person added by hand (`log drink`, the page, the API): never the bottle's, so
    /// they have record ids of their own (`ManualDrinks.firstRecordID` up) and take no part in
    /// the bottle's highest id or its id resets; never sent to the bottle.
    private static func addManualDrinks(_ db: Database) throws {
        try db.alter(table: "drink") { t in
            t.add(column: "manual", .boolean).notNull().defaults(to: false)
        }
    }

    /// The engines' state in tables of their own, typed (SavedReminders, HouseholdStorage,
    /// RefusedCommandCounts), instead of JSON documents under names in `engine_state`: the
    /// documents the previous releases wrote move into them, field by field, and `engine_state`
    /// goes. A document no release of this version reads (an unknown name, or not JSON) goes
    /// with it; a field missing from a document takes the value a fresh history has, as the
    /// engines read it before.
    private static func typeEngineState(_ db: Database) throws {
        try db.create(table: "reminder_state") { t in
            // The bottle's key (as `drink.bottle`); '' for the one engine of every bottle.
            t.primaryKey("bottle", .text)
            // Local dates, YYYY-MM-DD; urgencies as docs/reminders.md names them.
            t.column("reminder_day", .text)
            t.column("reminders_sent_today", .integer).notNull()
            t.column("last_notified_urgency", .text)
            t.column("reminded_since_on_track", .boolean).notNull()
            t.column("last_urgency", .text).notNull()
            t.column("goal_reached_day", .text)
            t.column("last_low_battery", .boolean).notNull()
            t.column("low_battery_alert_day", .text)
            t.column("reminder_sequence", .integer).notNull()
            t.column("back_on_track_sequence", .integer).notNull()
            t.column("rules_day", .text)
            t.column("ritual_streak", .integer).notNull()
        }
        try db.create(table: "reminder_pending") { t in
            t.column("bottle", .text).notNull()
            // The order the engine added it in.
            t.column("position", .integer).notNull()
            t.column("id", .text).notNull()
            t.column("fire_time", .double).notNull()
            t.column("kind", .text).notNull()
            t.column("title", .text).notNull()
            t.column("body", .text).notNull()
            t.column("thread", .text)
            t.primaryKey(["bottle", "id"])
        }
        try db.create(table: "reminder_pending_action") { t in
            t.column("bottle", .text).notNull()
            t.column("notification_id", .text).notNull()
            // The order of the engine's actions over all of the bottle's pending notifications.
            t.column("position", .integer).notNull()
            t.column("action_id", .text).notNull()
            t.column("label", .text).notNull()
            t.primaryKey(["bottle", "position"])
        }
        try db.create(table: "reminder_intake") { t in
            t.column("bottle", .text).notNull()
            t.column("position", .integer).notNull()
            t.column("type", .text).notNull()
            t.column("time", .double).notNull()
            t.primaryKey(["bottle", "position"])
        }
        try db.create(table: "reminder_ritual") { t in
            t.column("bottle", .text).notNull()
            t.column("position", .integer).notNull()
            t.column("day", .text).notNull()
            t.column("time", .double).notNull()
            t.primaryKey(["bottle", "position"])
        }
        try db.create(table: "household_sender") { t in
            t.column("boot", .integer).notNull()
        }
        try db.create(table: "household_drop") { t in
            // A HouseholdDropReason raw value.
            t.primaryKey("reason", .text)
            t.column("count", .integer).notNull()
        }
        try db.create(table: "household_replay_mark") { t in
            t.column("sender", .text).notNull()
            t.column("topic", .text).notNull()
            t.column("boot", .integer).notNull()
            t.column("sequence", .integer).notNull()
            t.column("time", .double).notNull()
            t.primaryKey(["sender", "topic"])
        }
        try db.create(table: "household_replay_judged") { t in
            t.primaryKey("position", .integer)
            t.column("digest", .text).notNull().unique()
        }
        try db.create(table: "household_replication") { t in
            t.column("published_up_to", .double)
            t.column("epoch", .text)
            t.column("deletions_told_up_to", .double)
        }
        try db.create(table: "household_peer") { t in
            t.primaryKey("member", .text)
            t.column("answered_epoch", .text)
            t.column("heard_up_to", .double)
        }
        try db.create(table: "refused_command") { t in
            // The sinks' reason (`not_permitted`, `setting`, `rate_limit`, …).
            t.primaryKey("reason", .text)
            t.column("count", .integer).notNull()
        }
        try EngineStateDocuments.move(db)
        try db.drop(table: "engine_state")
    }

    /// The schedules `schedule add` stores, a typed column per field of a `[[schedule]]` table,
    /// instead of a JSON document under the setting `schedule.<id>`: each document moves
    /// (ScheduleDocuments; one that does not read stays a setting) and its setting goes.
    static func createSchedules(_ db: Database) throws {
        try db.create(table: "schedule") { t in
            t.primaryKey("id", .text)
            t.column("name", .text)
            // `water` or a manual intake type, and the frequency, as the Reminders module names them.
            t.column("intake", .text).notNull()
            t.column("frequency", .text).notNull()
            // A local date-time, YYYY-MM-DDTHH:MM.
            t.column("first", .text).notNull()
            t.column("enabled", .boolean).notNull()
            t.column("body", .text)
            t.column("min_ml", .integer)
        }
        try ScheduleDocuments.move(db)
    }

    /// The drinks deleted, by when: a household member asks every 10 s for its own drinks
    /// changed since its mark (`stored_at > ? OR deleted_at > ?`) and for other members'
    /// hand-added drinks deleted since its mark (`deleted_at > ?`), and without this index both
    /// read the whole drink table (about 15 ms of CPU each over 200,000 drinks; 0.1 ms with it). Partial: only
    /// deleted drinks are in it (a few), so a sync's INSERT of a drink never writes to it, and
    /// SQLite uses it for any `deleted_at >` comparison, which implies `deleted_at IS NOT NULL`.
    private static func indexDrinkDeletions(_ db: Database) throws {
        try db.execute(sql: #"CREATE INDEX "drink_on_deleted_at" ON "drink"("deleted_at") WHERE "deleted_at" IS NOT NULL"#)
    }
}
