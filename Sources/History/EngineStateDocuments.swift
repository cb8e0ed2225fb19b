// The documents earlier releases kept in `engine_state` (a JSON document under a name), moved
// field by field into the typed tables that replaced it, in the schema step that drops it. What
// each document's fields are is what those releases wrote; it is read here with SQLite's JSON
// functions, once, and never written again.
//
// A document that is not a JSON object, or a field of another type than the release wrote, is
// left out (the engine starts from a fresh value there, as it did when it could not read one).

import GRDB

enum EngineStateDocuments {
    /// Reminder engines: `reminders` (every bottle) and `reminders@<bottle key>`.
    private static let reminders = """
        SELECT CASE WHEN name = 'reminders' THEN '' ELSE substr(name, 11) END AS bottle, json
        FROM engine_state
        WHERE (name = 'reminders' OR (substr(name, 1, 10) = 'reminders@' AND length(name) > 10))
          AND json_valid(json) AND json_type(json) = 'object'
        """

    /// One household document by name.
    private static func household(_ name: String) -> String {
        "SELECT json FROM engine_state WHERE name = '\(name)' AND json_valid(json) AND json_type(json) = 'object'"
    }

    /// A JSON value of `path` in `document` when it has SQL type `type`, else NULL.
    private static func typed(_ document: String, _ path: String, _ types: String) -> String {
        "CASE WHEN json_type(\(document), '\(path)') IN (\(types)) THEN json_extract(\(document), '\(path)') END"
    }

    private static func text(_ document: String, _ path: String) -> String { typed(document, path, "'text'") }
    private static func integer(_ document: String, _ path: String) -> String { typed(document, path, "'integer'") }
    private static func number(_ document: String, _ path: String) -> String { typed(document, path, "'integer', 'real'") }
    /// A local date `YYYY-MM-DD` (LocalDay), else NULL.
    private static func day(_ document: String, _ path: String) -> String {
        "CASE WHEN date(\(text(document, path))) = \(text(document, path)) THEN \(text(document, path)) END"
    }
    private static func flag(_ document: String, _ path: String) -> String {
        "CASE json_type(\(document), '\(path)') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END"
    }

    static func move(_ db: Database) throws {
        try moveReminders(db)
        try moveHousehold(db)
        try db.execute(sql: """
            INSERT OR IGNORE INTO refused_command (reason, count)
            SELECT entry.key, entry.value FROM (\(household("mqtt-refused-commands"))) AS doc, json_each(doc.json, '$.refused') AS entry
            WHERE entry.type = 'integer' AND entry.value >= 0
            """)
    }

    private static func moveReminders(_ db: Database) throws {
        try db.execute(sql: """
            INSERT OR IGNORE INTO reminder_state (bottle, reminder_day, reminders_sent_today, last_notified_urgency,
                reminded_since_on_track, last_urgency, goal_reached_day, last_low_battery, low_battery_alert_day,
                reminder_sequence, back_on_track_sequence, rules_day, ritual_streak)
            SELECT bottle, \(day("json", "$.reminder_day")), ifnull(\(integer("json", "$.reminders_sent_today")), 0),
                \(text("json", "$.last_notified_urgency")), ifnull(\(flag("json", "$.reminded_since_on_track")), 0),
                ifnull(\(text("json", "$.last_urgency")), 'on_track'), \(day("json", "$.goal_reached_day")),
                ifnull(\(flag("json", "$.last_low_battery")), 0), \(day("json", "$.low_battery_alert_day")),
                ifnull(\(integer("json", "$.reminder_sequence")), 0), ifnull(\(integer("json", "$.back_on_track_sequence")), 0),
                \(day("json", "$.rules_day")), ifnull(\(integer("json", "$.ritual_streak")), 0)
            FROM (\(reminders))
            """)
        try db.execute(sql: """
            INSERT OR IGNORE INTO reminder_pending (bottle, position, id, fire_time, kind, title, body, thread)
            SELECT bottle, entry.key, \(text("entry.value", "$.id")), \(number("entry.value", "$.fire_time")),
                \(text("entry.value", "$.kind")), \(text("entry.value", "$.title")), \(text("entry.value", "$.body")),
                \(text("entry.value", "$.thread"))
            FROM (\(reminders)) AS doc, json_each(doc.json, '$.pending') AS entry
            WHERE json_type(doc.json, '$.pending') = 'array' AND entry.type = 'object'
            """)
        try db.execute(sql: """
            INSERT OR IGNORE INTO reminder_pending_action (bottle, notification_id, position, action_id, label)
            SELECT bottle, \(text("entry.value", "$.id")),
                row_number() OVER (PARTITION BY bottle ORDER BY entry.key, action.key) - 1,
                \(text("action.value", "$.id")), \(text("action.value", "$.label"))
            FROM (\(reminders)) AS doc, json_each(doc.json, '$.pending') AS entry, json_each(entry.value, '$.actions') AS action
            WHERE json_type(doc.json, '$.pending') = 'array' AND entry.type = 'object'
              AND json_type(entry.value, '$.actions') = 'array' AND action.type = 'object'
            """)
        try db.execute(sql: """
            INSERT OR IGNORE INTO reminder_intake (bottle, position, type, time)
            SELECT bottle, entry.key, \(text("entry.value", "$.type")), \(number("entry.value", "$.time"))
            FROM (\(reminders)) AS doc, json_each(doc.json, '$.intake_log') AS entry
            WHERE json_type(doc.json, '$.intake_log') = 'array' AND entry.type = 'object'
            """)
        try db.execute(sql: """
            INSERT OR IGNORE INTO reminder_ritual (bottle, position, day, time)
            SELECT bottle, entry.key, \(day("entry.value", "$.day")), \(number("entry.value", "$.time"))
            FROM (\(reminders)) AS doc, json_each(doc.json, '$.ritual_completed_at') AS entry
            WHERE json_type(doc.json, '$.ritual_completed_at') = 'array' AND entry.type = 'object'
            """)
    }

    private static func moveHousehold(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO household_sender (boot)
            SELECT \(integer("json", "$.boot")) FROM (\(household("household-sender"))) WHERE json_type(json, '$.boot') = 'integer' AND json_extract(json, '$.boot') >= 0
            """)
        try db.execute(sql: """
            INSERT OR IGNORE INTO household_drop (reason, count)
            SELECT entry.key, entry.value FROM (\(household("household-dropped"))) AS doc, json_each(doc.json, '$.dropped') AS entry
            WHERE json_type(doc.json, '$.dropped') = 'object' AND entry.type = 'integer' AND entry.value >= 0
            """)
        // A mark is "sender topic": the sender has no space (a bridge.id), the topic may.
        try db.execute(sql: """
            INSERT OR IGNORE INTO household_replay_mark (sender, topic, boot, sequence, time)
            SELECT substr(entry.key, 1, instr(entry.key, ' ') - 1), substr(entry.key, instr(entry.key, ' ') + 1),
                \(integer("entry.value", "$.boot")), \(integer("entry.value", "$.sequence")), \(number("entry.value", "$.time"))
            FROM (\(household("household-replay"))) AS doc, json_each(doc.json, '$.marks') AS entry
            WHERE json_type(doc.json, '$.marks') = 'object' AND entry.type = 'object' AND instr(entry.key, ' ') > 1
              AND json_extract(entry.value, '$.boot') >= 0 AND json_extract(entry.value, '$.sequence') >= 0
            """)
        try db.execute(sql: """
            INSERT OR IGNORE INTO household_replay_judged (position, digest)
            SELECT entry.key, entry.value FROM (\(household("household-replay"))) AS doc, json_each(doc.json, '$.judged') AS entry
            WHERE json_type(doc.json, '$.judged') = 'array' AND entry.type = 'text'
            """)
        try db.execute(sql: """
            INSERT INTO household_replication (published_up_to, epoch)
            SELECT \(number("json", "$.published_up_to")), \(text("json", "$.epoch")) FROM (\(household("household-outbox")))
            """)
        try db.execute(sql: """
            WITH doc AS (\(household("household-outbox"))),
                 answered AS (SELECT entry.key AS member, entry.value AS epoch FROM doc, json_each(doc.json, '$.answered') AS entry
                              WHERE json_type(doc.json, '$.answered') = 'object' AND entry.type = 'text'),
                 heard AS (SELECT entry.key AS member, entry.value AS up_to FROM doc, json_each(doc.json, '$.heard_up_to') AS entry
                           WHERE json_type(doc.json, '$.heard_up_to') = 'object' AND entry.type IN ('integer', 'real')),
                 members AS (SELECT member FROM answered UNION SELECT member FROM heard)
            INSERT OR IGNORE INTO household_peer (member, answered_epoch, heard_up_to)
            SELECT members.member, answered.epoch, heard.up_to
            FROM members LEFT JOIN answered ON answered.member = members.member LEFT JOIN heard ON heard.member = members.member
            """)
    }
}
