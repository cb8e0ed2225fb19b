// The bottle's activity as it reports it on demand (docs/protocol.md 3.8, 6.6): its wake-ups and its
// backpack sessions. The bottle keeps them in RTC memory and sends all it has at every fetch,
// so each is stored once, keyed on its start time; an open backpack session is updated as it
// grows.

import AquavateProtocol
import GRDB

extension BottleStore {
    /// Stores what one fetch returned; returns how many wake-ups and sessions were new.
    /// Committed without waiting for the disk (`.normal`): the bottle sends all it has at every
    /// fetch, so what a power cut loses comes again with the next.
    @discardableResult
    package func storeActivity(bottle: String, motion: [MotionEvent], backpack: [BackpackSession]) throws -> (motion: Int, backpack: Int) {
        let bottle = try ArgumentChecks.bottle(bottle)
        return try history.write("storing the activity of \(bottle)", durability: .normal) { db in
            var newMotion = 0, newBackpack = 0
            for event in motion {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO motion_event (bottle, timestamp, duration_sec, wake_reason, sleep_type)
                    VALUES (?, ?, ?, ?, ?)
                    """, arguments: [bottle, event.timestamp, event.durationSec, event.wakeReason.rawValue, event.sleepTypeRaw])
                newMotion += db.changesCount
            }
            for session in backpack {
                let existed = try Bool.fetchOne(db, sql: "SELECT 1 FROM backpack_session WHERE bottle = ? AND start = ?",
                                                arguments: [bottle, session.startTimestamp]) ?? false
                try db.execute(sql: """
                    INSERT INTO backpack_session (bottle, start, duration_sec, timer_wakes, exit_reason) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (bottle, start) DO UPDATE SET duration_sec = excluded.duration_sec,
                        timer_wakes = excluded.timer_wakes, exit_reason = excluded.exit_reason
                    """, arguments: [bottle, session.startTimestamp, session.durationSec, session.timerWakeCount, session.exitReason.rawValue])
                if !existed { newBackpack += 1 }
            }
            return (newMotion, newBackpack)
        }
    }

    /// Stored wake-ups of `bottle` (every bottle when nil), oldest first.
    package func motionEvents(bottle: String? = nil) throws -> [(bottle: String, event: MotionEvent)] {
        try history.read("reading the bottle's wake-ups") { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM motion_event \(bottle == nil ? "" : "WHERE bottle = ?") ORDER BY timestamp, bottle
                """, arguments: bottle.map { [$0] } ?? [])
            return try rows.map { row in
                (try row.decode(String.self, forColumn: "bottle"),
                 MotionEvent(timestamp: try row.decode(UInt32.self, forColumn: "timestamp"),
                             durationSec: try row.decode(UInt16.self, forColumn: "duration_sec"),
                             wakeReason: WakeReason(rawValue: try row.decode(UInt8.self, forColumn: "wake_reason")),
                             sleepTypeRaw: try row.decode(UInt8.self, forColumn: "sleep_type")))
            }
        }
    }

    /// Stored backpack sessions of `bottle` (every bottle when nil), oldest first.
    package func backpackSessions(bottle: String? = nil) throws -> [(bottle: String, session: BackpackSession)] {
        try history.read("reading the bottle's backpack sessions") { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM backpack_session \(bottle == nil ? "" : "WHERE bottle = ?") ORDER BY start, bottle
                """, arguments: bottle.map { [$0] } ?? [])
            return try rows.map { row in
                (try row.decode(String.self, forColumn: "bottle"),
                 BackpackSession(startTimestamp: try row.decode(UInt32.self, forColumn: "start"),
                                 durationSec: try row.decode(UInt32.self, forColumn: "duration_sec"),
                                 timerWakeCount: try row.decode(UInt16.self, forColumn: "timer_wakes"),
                                 exitReason: BackpackExitReason(rawValue: try row.decode(UInt8.self, forColumn: "exit_reason"))))
            }
        }
    }
}
