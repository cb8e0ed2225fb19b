// The 12-a-day reminder limit and its toggle (`reminders.daily_limit`, as in the bottle's app;
// docs/reminders.md 2.1 and 2.3): on, reminders stop at twelve; off, they go on; the toggle
// persists across a restart; `status` shows `3/12` against `3`; a fresh install has the limit on;
// and (AfterSyncTests) back on track comes with the sync that catches up.

import Timekeeping
import Foundation
import Testing
@testable import Reminders

struct DailyLimitTests {
    let day = "2026-03-10"

    /// A person who answers every reminder within 30 seconds by drinking exactly what is owed,
    /// so the pace falls behind again 18 minutes later (50 ml at 2500 ml over 900 minutes): far
    /// more than 12 reminders a day would be due.
    func chasingDay(_ settings: HydrationSettings, restartAt restart: String? = nil) throws -> Simulation {
        var sim = Simulation(settings: settings, date: day, time: "06:00")
        var t = instant(day, "07:00", in: utc)
        let end = instant(day, "22:00", in: utc)
        while t < end {
            if let restart, localText(t, in: utc) == "\(day) \(restart):00" {
                try sim.restart(on: day, at: restart + ":00")
            }
            let delivered = sim.run(until: t)
            if delivered.contains(where: { $0.kind == .reminder }) {
                let owed = sim.status().displayedDeficitML
                sim.sync([owed], drunkAt: [t], endingAt: t + .seconds(30))
            }
            t += .seconds(60)
        }
        sim.run(until: day, "23:59")
        return sim
    }

    func settings(limit: Bool) -> HydrationSettings {
        .test { $0.minDeficitML = 50; $0.dailyLimit = limit }
    }

    @Test func freshInstallHasTheLimitOn() throws {
        #expect(HydrationSettings(timeZone: utc).dailyLimit)
        // A stored settings record without the key reads as the seed's `?? true`.
        let stored = try JSONDecoder().decode(HydrationSettings.self, from: Data(#"{"timezone":"UTC","goal_ml":2000}"#.utf8))
        #expect(stored.dailyLimit)
        #expect(stored.goalML == 2000)
        #expect(stored == HydrationSettings.test { $0.goalML = 2000 })
    }

    @Test func limitOnStopsAtTwelve() throws {
        let sim = try chasingDay(settings(limit: true))
        #expect(sim.lines(.reminder).count == 12)
        #expect(sim.deliveries.filter { $0.kind == .reminder }.map(\.id) == (1...12).map { "hydration-\($0)" })
        // Back-on-track alerts answer a drink and do not count: all 12 reminders were answered.
        #expect(sim.lines(.backOnTrack).count == 12)
        #expect(sim.status().remindersTodayText == "Reminders Today: 12/12")
    }

    @Test func limitOffGoesOn() throws {
        let sim = try chasingDay(settings(limit: false))
        let count = sim.lines(.reminder).count
        #expect(count == 49)   // 07:18, 07:36, … 21:42: every 18 minutes
        #expect(sim.lines(.backOnTrack).count == count)
        #expect(sim.status().remindersTodayText == "Reminders Today: \(count)")
        // Every reminder is an attention one, 50 ml behind, 18 minutes after the last catch-up.
        #expect(sim.lines(.reminder).prefix(3) == [
            "07:18:00 Time to hydrate! You're 50ml behind pace.",
            "07:36:00 Time to hydrate! You're 50ml behind pace.",
            "07:54:00 Time to hydrate! You're 50ml behind pace.",
        ])
    }

    @Test func toggleSurvivesARestart() throws {
        let sim = try chasingDay(settings(limit: false), restartAt: "12:00")
        #expect(sim.settings.dailyLimit == false)
        #expect(sim.lines(.reminder).count > 12)
        // The same day with the limit on and the restart: still 12 in all, the count restored.
        let limited = try chasingDay(settings(limit: true), restartAt: "09:00")
        #expect(limited.lines(.reminder).count == 12)
    }

    @Test func statusTextFollowsTheToggle() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.sync([200], on: day, at: "08:00:30")
        sim.run(until: day, "11:12")
        #expect(sim.lines(.reminder).count == 3)
        #expect(sim.status().remindersTodayText == "Reminders Today: 3/12")
        sim.updateSettings({ $0.dailyLimit = false }, on: day, at: "11:30")
        #expect(sim.status().remindersTodayText == "Reminders Today: 3")
        #expect(sim.state.remindersSentToday == 3)
    }

    @Test func turningTheLimitOffResumesReminders() throws {
        var sim = try chasingDay(settings(limit: true))
        #expect(sim.lines(.reminder).count == 12)
        // The next day, 12 by mid-morning; switching the limit off lets the 13th through.
        let next = "2026-03-11"
        var t = instant(next, "07:00", in: utc)
        let evening = instant(next, "20:00", in: utc)
        while sim.lines(.reminder).count < 24 && t < evening {
            let delivered = sim.run(until: t)
            if delivered.contains(where: { $0.kind == .reminder }) {
                sim.sync([sim.status().displayedDeficitML], drunkAt: [t], endingAt: t + .seconds(30))
            }
            t += .seconds(60)
        }
        sim.run(until: t + .seconds(3600))
        #expect(sim.lines(.reminder).count == 24)
        sim.updateSettings({ $0.dailyLimit = false }, on: next, at: localText(t + .seconds(3600), in: utc).suffix(8).description)
        sim.run(until: t + .seconds(3660))
        #expect(sim.lines(.reminder).count == 25)
        #expect(sim.status().remindersTodayText == "Reminders Today: 13")
    }
}
