// The schema step that moves the engines' JSON documents (`engine_state`, as the releases before
// it wrote them) into typed tables: each field lands in its column, an odd field costs only
// itself, a document that is not JSON is no state, and the table goes.

import Foundation
import GRDB
@testable import History
import Testing
import Timekeeping

@Suite("the engines' saved documents move into typed tables")
struct EngineStateMigrationTests {
    /// A history at the last schema with `engine_state`, holding `documents`, then opened (upgraded).
    func upgraded(_ documents: [String: String]) throws -> (DrinkHistory, String) {
        let folder = NSTemporaryDirectory() + "engine-migration-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/h.sqlite"
        let queue = try DatabaseQueue(path: path)
        try HistoryMigrations.migrator.migrate(queue, upTo: "v8-manual-drinks")
        try queue.write { db in
            for (name, json) in documents {
                try db.execute(sql: "INSERT INTO engine_state (name, json, saved_at) VALUES (?, ?, 1)", arguments: [name, json])
            }
        }
        try queue.close()
        return (try DrinkHistory(path: path), folder)
    }

    @Test("the household's documents as the previous versions wrote them: every field in its column")
    func household() throws {
        let (history, folder) = try upgraded([
            "household-outbox": #"{"answered":{"attic_2":"ff00","study":"e9"},"epoch":"e1a2","heard_up_to":{"attic_2":12,"study":1764240000.75},"published_up_to":1764240002.5}"#,
            "household-dropped": #"{"dropped":{"forged":3,"malformed":0,"replayed":12}}"#,
            "household-sender": #"{"boot":1764240000}"#,
            "household-replay": #"{"judged":["ab","cd"],"marks":{"kitchen aquavate/household/claim/X":{"boot":7,"sequence":3,"time":1764240000.5}}}"#,
            "mqtt-refused-commands": #"{"refused":{"rate_limit":2,"setting":1}}"#,
            "household-calendar": #"{"anything":1}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try history.household.replication() == HouseholdReplicationRecords(
            publishedUpTo: WallInstant(secondsSince1970: 1_764_240_002.5), epoch: "e1a2",
            peers: [HouseholdPeerMark(member: "attic_2", answeredEpoch: "ff00", heardUpTo: WallInstant(secondsSince1970: 12)),
                    HouseholdPeerMark(member: "study", answeredEpoch: "e9", heardUpTo: WallInstant(secondsSince1970: 1_764_240_000.75))]))
        #expect(try history.household.drops() == ["forged": 3, "malformed": 0, "replayed": 12])
        #expect(try history.household.boot() == 1_764_240_000)
        #expect(try history.household.replay() == HouseholdReplayRecords(
            marks: [HouseholdReplayMark(sender: "kitchen", topic: "aquavate/household/claim/X", boot: 7, sequence: 3,
                                        time: WallInstant(secondsSince1970: 1_764_240_000.5))],
            judged: ["ab", "cd"]))
        #expect(history.commands.refused() == ["rate_limit": 2, "setting": 1])
        let tables = try history.read("tables") { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") }
        #expect(!tables.contains("engine_state"), "the documents' table is gone")
    }

    @Test("an odd field costs only itself; a document that is not JSON is no state")
    func oddDocuments() throws {
        let (history, folder) = try upgraded([
            "household-outbox": #"{"answered":{"study":7},"epoch":"e1","heard_up_to":"x","published_up_to":12.5}"#,
            "household-sender": #"{"boot":-3}"#,
            "household-dropped": #"{"dropped":{"forged":1,"gremlins":4,"replayed":"x"}}"#,
            "household-replay": "not json",
            "reminders@B": #"{"reminders_sent_today":"many","last_urgency":"overdue","reminder_day":"2026-13-45","pending":[{"id":"x"}]}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try history.household.replication() == HouseholdReplicationRecords(publishedUpTo: WallInstant(secondsSince1970: 12.5), epoch: "e1"))
        #expect(try history.household.boot() == 0)
        #expect(try history.household.drops() == ["forged": 1, "gremlins": 4])
        #expect(try history.household.replay() == HouseholdReplayRecords())
        let saved = try #require(try history.reminders.saved(bottle: "B"))
        #expect(saved.counters.remindersSentToday == 0 && saved.counters.lastUrgency == "overdue" && saved.counters.reminderDay == nil)
        #expect(saved.pending.isEmpty, "a pending notification without its fields is left out")
    }

    @Test("the reminders of every bottle and of one bottle keep each field, in order")
    func reminders() throws {
        let (history, folder) = try upgraded([
            "reminders": #"{"reminders_sent_today":2,"last_urgency":"attention","reminder_day":"2026-11-28","reminded_since_on_track":true,"reminder_sequence":5,"back_on_track_sequence":1,"last_low_battery":false,"ritual_streak":3,"pending":[],"intake_log":[],"ritual_completed_at":[]}"#,
            "reminders@AQ1": #"{"reminders_sent_today":0,"last_urgency":"on_track","last_notified_urgency":"overdue","goal_reached_day":"2026-11-27","rules_day":"2026-11-28","low_battery_alert_day":"2026-11-26","last_low_battery":true,"reminder_sequence":0,"back_on_track_sequence":0,"reminded_since_on_track":false,"ritual_streak":0,"pending":[{"id":"r2","fire_time":20,"kind":"ritual","title":"T2","body":"B2","actions":[{"id":"did-this","label":"Did This"},{"id":"start-ritual","label":"Start Ritual"}],"thread":"R"},{"id":"h1","fire_time":10.5,"kind":"reminder","title":"T1","body":"B1","actions":[]}],"intake_log":[{"type":"zinc","time":5},{"type":"vitamin-d","time":6}],"ritual_completed_at":[{"day":"2026-11-27","time":7}]}"#,
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let every = try #require(try history.reminders.saved(bottle: SavedReminders.everyBottle))
        #expect(every.counters == ReminderCounters(
            bottle: "", reminderDay: LocalDay("2026-11-28"), remindersSentToday: 2, lastNotifiedUrgency: nil, remindedSinceOnTrack: true,
            lastUrgency: "attention", goalReachedDay: nil, lastLowBattery: false, lowBatteryAlertDay: nil, reminderSequence: 5,
            backOnTrackSequence: 1, rulesDay: nil, ritualStreak: 3))
        let one = try #require(try history.reminders.saved(bottle: "AQ1"))
        #expect(one.counters.lastNotifiedUrgency == "overdue" && one.counters.goalReachedDay == LocalDay("2026-11-27")
                && one.counters.rulesDay == LocalDay("2026-11-28") && one.counters.lowBatteryAlertDay == LocalDay("2026-11-26")
                && one.counters.lastLowBattery)
        #expect(one.pending.map(\.id) == ["r2", "h1"], "in the engine's order")
        #expect(one.pending.first?.thread == "R" && one.pending.last?.fireTime == WallInstant(secondsSince1970: 10.5))
        #expect(one.actions.map { [$0.notificationId, $0.actionId, $0.label] } == [["r2", "did-this", "Did This"], ["r2", "start-ritual", "Start Ritual"]])
        #expect(one.intakes.map(\.type) == ["zinc", "vitamin-d"])
        #expect(one.rituals.map { "\($0.day) \($0.time.secondsSince1970)" } == ["2026-11-27 7.0"])
        #expect(try history.reminders.saved(bottle: "AQ2") == nil)
    }
}
