// The schema of a new history as one SQL script: the tables and indexes the migration steps of
// `HistoryMigrations` leave behind, written as SQLite keeps them in `sqlite_master`.
//
// Why a second spelling of the schema: built step by step, through GRDB's table builders, a new
// history cost ~12.7 M instructions, most of them not in storing anything: eight ALTER TABLE ADD
// COLUMN, each of which makes SQLite re-read and re-check the whole schema, and GRDB's work
// around each of its ~65 statements (SQL generation, statement splitting, the authorizer). The
// script has no ALTER (a column a later step adds stands where SQLite's ADD COLUMN puts its text:
// after the last column, before the table's constraints) and is handed to GRDB in one call.
//
// The steps stay the schema's definition: an existing file is migrated by them, and
// DatabaseFileTests compares what this script creates, line by line of `sqlite_master`, with what
// GRDB's migrator builds from the steps. A new step is added to both (the test fails until it is).

import GRDB

enum NewHistorySchema {
    /// Creates the schema on `db` (a database without one, inside the caller's transaction)
    /// and records `stepNames` as applied.
    ///
    /// Through GRDB, which splits the script: SQLite's own work is ~5 M instructions of it, and
    /// the same script through `sqlite3_exec` on GRDB's connection measured no cheaper (callgrind,
    /// `run --once` into a new history: 5.0 M through GRDB, 5.5 M through `sqlite3_exec`).
    static func create(in db: Database, stepNames: [String]) throws {
        try db.execute(sql: script(stepNames: stepNames))
    }

    /// GRDB's table of the steps applied, every table and index in the order the steps create
    /// them (so the file's pages are laid out as the migrator lays them out), and the steps'
    /// names, as the migrator records them (names of letters, digits and dashes: no quoting).
    static func script(stepNames: [String]) -> String {
        "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);\n" + tables
            + "INSERT INTO grdb_migrations (identifier) VALUES "
            + stepNames.map { "('\($0)')" }.joined(separator: ", ") + ";\n"
    }

    /// What the steps v1-drinks … v11-drink-change-index leave, as `sqlite_master` has it.
    private static let tables = """
        CREATE TABLE "drink" ("bottle" TEXT NOT NULL, "record_id" INTEGER NOT NULL, "timestamp" INTEGER NOT NULL, \
        "amount_ml" INTEGER NOT NULL, "bottle_level_ml" INTEGER NOT NULL, "type" TEXT NOT NULL CHECK ("type" IN ('gulp', 'pour')), \
        "type_raw" INTEGER NOT NULL, "flags" INTEGER NOT NULL, "deleted" BOOLEAN NOT NULL DEFAULT 0, "stored_at" DOUBLE NOT NULL, \
        "deleted_at" DOUBLE, "origin" TEXT, "raw_timestamp" INTEGER, "manual" BOOLEAN NOT NULL DEFAULT 0, UNIQUE ("bottle", "record_id", "timestamp"), CHECK ((deleted = 0) = (deleted_at IS NULL)));
        CREATE INDEX "drink_on_timestamp" ON "drink"("timestamp");
        CREATE TABLE "setting" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
        CREATE TABLE "bottle" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT, "serial" TEXT, "address" TEXT, "goal_ml" INTEGER, \
        "last_seen" DOUBLE, "last_sync" DOUBLE, "id_reset_at" DOUBLE, "state_at" DOUBLE, "state_timestamp" INTEGER, \
        "daily_total_ml" INTEGER, "bottle_level_ml" INTEGER, "battery" INTEGER, "unsynced" INTEGER, "state_flags" INTEGER, \
        "firmware" TEXT, "model" TEXT, "shake_to_empty" BOOLEAN, "calibrated" BOOLEAN, "scale" DOUBLE, "clock_offset" INTEGER, \
        "battery_level" INTEGER, "refusal" TEXT, "refusal_since" DOUBLE, "refusal_count" INTEGER);
        CREATE TABLE "delivered_notification" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "id" TEXT NOT NULL, "kind" TEXT NOT NULL, \
        "time" DOUBLE NOT NULL, "title" TEXT NOT NULL, "body" TEXT NOT NULL);
        CREATE INDEX "delivered_on_time" ON "delivered_notification"("time");
        CREATE TABLE "person_event" ("seq" INTEGER PRIMARY KEY AUTOINCREMENT, "time" DOUBLE NOT NULL, "kind" TEXT NOT NULL, \
        "name" TEXT NOT NULL, "notification_id" TEXT);
        CREATE INDEX "person_event_on_time" ON "person_event"("time");
        CREATE TABLE "bottle_command" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "bottle" TEXT NOT NULL, "command" TEXT NOT NULL, \
        "argument" TEXT, "status" TEXT NOT NULL CHECK ("status" IN ('pending', 'sending', 'applied', 'failed')), "message" TEXT, \
        "attempts" INTEGER NOT NULL DEFAULT 0, "created_at" DOUBLE NOT NULL, "updated_at" DOUBLE NOT NULL);
        CREATE INDEX "bottle_command_on_bottle" ON "bottle_command"("bottle", "status");
        CREATE TABLE "motion_event" ("bottle" TEXT NOT NULL, "timestamp" INTEGER NOT NULL, "duration_sec" INTEGER NOT NULL, \
        "wake_reason" INTEGER NOT NULL, "sleep_type" INTEGER NOT NULL, UNIQUE ("bottle", "timestamp"));
        CREATE TABLE "backpack_session" ("bottle" TEXT NOT NULL, "start" INTEGER NOT NULL, "duration_sec" INTEGER NOT NULL, \
        "timer_wakes" INTEGER NOT NULL, "exit_reason" INTEGER NOT NULL, UNIQUE ("bottle", "start"));
        CREATE INDEX "drink_on_stored_at" ON "drink"("stored_at");
        CREATE TABLE "household_delivered" ("bottle" TEXT NOT NULL, "id" TEXT NOT NULL, "kind" TEXT NOT NULL, \
        "time" DOUBLE NOT NULL, "origin" TEXT NOT NULL, "heard_at" DOUBLE NOT NULL, UNIQUE ("bottle", "id", "origin"));
        CREATE INDEX "household_delivered_on_heard_at" ON "household_delivered"("heard_at");
        CREATE TABLE "quarantined_record" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "bottle" TEXT NOT NULL, \
        "record_id" INTEGER NOT NULL, "timestamp" INTEGER NOT NULL, "raw" TEXT NOT NULL, "problems" TEXT NOT NULL, \
        "reason" TEXT NOT NULL, "received_at" DOUBLE NOT NULL, "resolution" TEXT CHECK ("resolution" IN ('restored', 'discarded')), \
        "resolved_at" DOUBLE, UNIQUE ("bottle", "record_id", "timestamp"));
        CREATE TABLE "reminder_state" ("bottle" TEXT PRIMARY KEY NOT NULL, "reminder_day" TEXT, \
        "reminders_sent_today" INTEGER NOT NULL, "last_notified_urgency" TEXT, "reminded_since_on_track" BOOLEAN NOT NULL, \
        "last_urgency" TEXT NOT NULL, "goal_reached_day" TEXT, "last_low_battery" BOOLEAN NOT NULL, "low_battery_alert_day" TEXT, \
        "reminder_sequence" INTEGER NOT NULL, "back_on_track_sequence" INTEGER NOT NULL, "rules_day" TEXT, \
        "ritual_streak" INTEGER NOT NULL);
        CREATE TABLE "reminder_pending" ("bottle" TEXT NOT NULL, "position" INTEGER NOT NULL, "id" TEXT NOT NULL, \
        "fire_time" DOUBLE NOT NULL, "kind" TEXT NOT NULL, "title" TEXT NOT NULL, "body" TEXT NOT NULL, "thread" TEXT, \
        PRIMARY KEY ("bottle", "id"));
        CREATE TABLE "reminder_pending_action" ("bottle" TEXT NOT NULL, "notification_id" TEXT NOT NULL, \
        "position" INTEGER NOT NULL, "action_id" TEXT NOT NULL, "label" TEXT NOT NULL, PRIMARY KEY ("bottle", "position"));
        CREATE TABLE "reminder_intake" ("bottle" TEXT NOT NULL, "position" INTEGER NOT NULL, "type" TEXT NOT NULL, \
        "time" DOUBLE NOT NULL, PRIMARY KEY ("bottle", "position"));
        CREATE TABLE "reminder_ritual" ("bottle" TEXT NOT NULL, "position" INTEGER NOT NULL, "day" TEXT NOT NULL, \
        "time" DOUBLE NOT NULL, PRIMARY KEY ("bottle", "position"));
        CREATE TABLE "household_sender" ("boot" INTEGER NOT NULL);
        CREATE TABLE "household_drop" ("reason" TEXT PRIMARY KEY NOT NULL, "count" INTEGER NOT NULL);
        CREATE TABLE "household_replay_mark" ("sender" TEXT NOT NULL, "topic" TEXT NOT NULL, "boot" INTEGER NOT NULL, \
        "sequence" INTEGER NOT NULL, "time" DOUBLE NOT NULL, PRIMARY KEY ("sender", "topic"));
        CREATE TABLE "household_replay_judged" ("position" INTEGER PRIMARY KEY, "digest" TEXT NOT NULL UNIQUE);
        CREATE TABLE "household_replication" ("published_up_to" DOUBLE, "epoch" TEXT, "deletions_told_up_to" DOUBLE);
        CREATE TABLE "household_peer" ("member" TEXT PRIMARY KEY NOT NULL, "answered_epoch" TEXT, "heard_up_to" DOUBLE);
        CREATE TABLE "refused_command" ("reason" TEXT PRIMARY KEY NOT NULL, "count" INTEGER NOT NULL);
        CREATE TABLE "schedule" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT, "intake" TEXT NOT NULL, "frequency" TEXT NOT NULL, \
        "first" TEXT NOT NULL, "enabled" BOOLEAN NOT NULL, "body" TEXT, "min_ml" INTEGER);
        CREATE INDEX "drink_on_deleted_at" ON "drink"("deleted_at") WHERE "deleted_at" IS NOT NULL;

        """
}
