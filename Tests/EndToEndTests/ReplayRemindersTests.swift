// `replay --reminders`: the engine on the capture's clock, fed by the same syncs as the history.

import AquavateProtocol
import Foundation
import History
@testable import Reports
@testable import Settings
import TestFixtures
import Testing
import Timekeeping

@Suite("Replay with reminders")
struct ReplayRemindersTests {
    @Test("back on track is delivered by the sync that catches up, at the sync's own time")
    func backOnTrackAtTheSync() async throws {
        let outcome = try runReplay([shippedCapture("day-of-syncs.aqcap")], history: try DrinkHistory(path: nil), reminders: true)
        let backOnTrack = outcome.notifications.filter { $0.kind == "back_on_track" }
        #expect(!backOnTrack.isEmpty)
        let syncTimes = Set(outcome.syncs.map(\.time))
        #expect(backOnTrack.allSatisfy { syncTimes.contains($0.time) })
        #expect(backOnTrack.allSatisfy { $0.title == "Back On Track!" && $0.body == "Nice work catching up on your hydration." })
        // Reminders fire at whole minutes only, inside the pace window (07:00–22:00 Madrid).
        let reminders = outcome.notifications.filter { $0.kind == "reminder" }
        #expect(!reminders.isEmpty)
        #expect(reminders.allSatisfy { $0.time.secondsSince1970.truncatingRemainder(dividingBy: 60) == 0 })
        #expect(reminders.allSatisfy { $0.title == "Hydration Reminder" })
        #expect(Set(outcome.notifications.map(\.id)).count == outcome.notifications.count)
        // Without --reminders nothing is delivered.
        let plain = try runReplay([shippedCapture("day-of-syncs.aqcap")], history: try DrinkHistory(path: nil))
        #expect(plain.notifications.isEmpty)
    }

    @Test("two replays sharing a database are a restart: counters and ids continue, nothing is sent twice")
    func restartKeepsCounters() async throws {
        let folder = TemporaryFolder()
        let lines = try String(contentsOfFile: shippedCapture("day-of-syncs.aqcap"), encoding: .utf8).split(separator: "\n").map(String.init)
        // Cut after the fourth connection (line 1 is the header).
        let cut = lines.indices.filter { lines[$0].contains(#""op":"disconnect""#) }[3] + 1
        let first = folder.write("first.aqcap", lines[..<cut].joined(separator: "\n"))
        let second = folder.write("second.aqcap", ([lines[0]] + lines[cut...]).joined(separator: "\n"))
        let db = folder.path + "/h.sqlite"
        let one = try runReplay([first], history: try DrinkHistory(path: db, durability: .normal), reminders: true)
        let two = try runReplay([second], history: try DrinkHistory(path: db, durability: .normal), reminders: true)
        let ids = (one.notifications + two.notifications).map(\.id)
        #expect(Set(ids).count == ids.count)
        let reminderNumbers = (one.notifications + two.notifications).filter { $0.kind == "reminder" }
            .compactMap { Int($0.id.dropFirst("hydration-".count)) }
        #expect(reminderNumbers == Array(1...reminderNumbers.count))
        let history = try DrinkHistory(path: db)
        #expect(try history.reminders.delivered().map(\.id) == ids)
        var configuration = Configuration()
        try configuration.applyOverride("timezone=Europe/Madrid")
        let status = try StatusReport.make(history: history, configuration: configuration, at: two.syncs.last!.time)
        #expect(status.remindersToday == reminderNumbers.count)
        #expect(status.remindersTodayText == "Reminders Today: \(reminderNumbers.count)/12")
    }

    @Test("low battery alerts once per episode and at most once a day, and not again after a restart")
    func lowBatteryOncePerEpisode() async throws {
        func state(battery: UInt8, low: Bool) -> [UInt8] {
            CurrentState(timestamp: 1_795_248_000, currentWeightG: 300, bottleLevelML: 300, dailyTotalML: 0,
                         batteryPercent: battery, flags: low ? [.timeValid, .calibrated, .stable, .lowBattery] : [.timeValid, .calibrated, .stable],
                         unsyncedCount: 0).encoded()
        }
        let t = 1_795_248_000.0
        let lines = [testHeader,
                     eventLine(t, "notify", "current-state", state(battery: 30, low: false)),
                     eventLine(t + 60, "notify", "current-state", state(battery: 24, low: true)),
                     eventLine(t + 120, "notify", "current-state", state(battery: 23, low: true)),
                     eventLine(t + 180, "notify", "current-state", state(battery: 60, low: false)),
                     eventLine(t + 240, "notify", "current-state", state(battery: 22, low: true))]
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let outcome = try runReplay([folder.write("battery.aqcap", lines.joined(separator: "\n"))],
                                    history: try DrinkHistory(path: db, durability: .normal), reminders: true)
        let alerts = outcome.notifications.filter { $0.kind == "low_battery" }
        // The second episode (22 %) is the same local day: docs/reminders.md 2.5 alerts once a day.
        #expect(alerts.map(\.body) == ["Your Aquavate bottle battery is at 24%. Please charge soon."])
        #expect(alerts.allSatisfy { $0.id == "bottle-low-battery" && $0.title == "Low Battery" })
        let again = [testHeader, eventLine(t + 600, "notify", "current-state", state(battery: 21, low: true))]
        let restarted = try runReplay([folder.write("again.aqcap", again.joined(separator: "\n"))],
                                      history: try DrinkHistory(path: db, durability: .normal), reminders: true)
        #expect(restarted.notifications.filter { $0.kind == "low_battery" }.isEmpty)
    }

    @Test("replay --reminders --json prints notification events with the contract's fields")
    func notificationJSON() async throws {
        let result = try await runBridge(["replay", shippedCapture("day-of-syncs.aqcap"), "--reminders", "--json", "--set", "timezone=Europe/Madrid"])
        #expect(result.status == 0, "\(result.err)")
        let notes = try jsonObjects(result.out).filter { $0["event"] as? String == "notification" }
        #expect(!notes.isEmpty)
        for note in notes {
            #expect(note["id"] is String && note["kind"] is String && note["title"] is String && note["body"] is String)
            #expect((note["time"] as? String)?.hasSuffix("Z") == true)
        }
    }

    @Test("status shows Reminders Today with and without the daily limit")
    func statusText() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        _ = try await runBridge(["replay", shippedCapture("day-of-syncs.aqcap"), "--reminders", "--db", db, "--set", "timezone=Europe/Madrid"])
        let on = try await runBridge(["status", "--db", db, "--set", "timezone=Europe/Madrid", "--at", "2026-11-20T20:00:00Z"])
        #expect(on.status == 0, "\(on.err)")
        #expect(on.out.contains("Reminders Today: 5/12"))
        #expect(on.out.contains("Bottle: Aquavate-A3F2 (F4:12:FA:00:A3:F4)"))
        _ = try await runBridge(["config", "set", "reminders.daily_limit", "false", "--db", db])
        let off = try await runBridge(["status", "--db", db, "--set", "timezone=Europe/Madrid", "--at", "2026-11-20T20:00:00Z"])
        #expect(off.out.contains("Reminders Today: 5\n"))
        let json = try await runBridge(["status", "--json", "--db", db, "--at", "2026-11-20T20:00:00Z"])
        let object = try #require(try jsonObjects(json.out).first)
        #expect(object["event"] as? String == "status")
        #expect(object["reminders_today"] as? Int == 5)
        #expect(object["daily_limit"] as? Bool == false)
        // Typed on the wire: the urgency's raw value, as on MQTT, never its display text.
        #expect(["on_track", "attention", "overdue"].contains(object["urgency"] as? String ?? ""), "\(object)")
        #expect(off.out.contains("Urgency: "))
    }
}
