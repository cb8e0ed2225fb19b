// docs/reminders.md 2.4: the steps after a sync that stored new drinks, in their order — the previous
// urgency captured before the new drinks count, back on track delivered by the sync itself, then
// the goal, once per local calendar day.

import Testing
@testable import Reminders
import Timekeeping

struct AfterSyncTests {
    let day = "2026-03-10"
    let nextDay = "2026-03-11"

    @Test func backOnTrackComesWithTheSyncThatCatchesUp() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.run(until: day, "08:10")
        #expect(sim.state.lastUrgency == .attention)
        #expect(sim.state.lastNotifiedUrgency == .attention)
        let atSync = sim.sync([400], on: day, at: "08:10:30")
        // Delivered by the sync, at its end, not by the next tick.
        #expect(atSync == [Delivery(id: "hydration-back-on-track-1", kind: .backOnTrack,
                                    time: instant(day, "08:10:30", in: utc),
                                    title: "Back On Track!", body: "Nice work catching up on your hydration.",
                                    thread: "hydration")])
        #expect(sim.journal == ["[HydrationReminder] Back on track!"])
        let result1 = sim.run(until: day, "08:11")
        #expect(result1.isEmpty)
        #expect(sim.state.lastNotifiedUrgency == nil)
        #expect(sim.state.remindedSinceOnTrack == false)
    }

    @Test func backOnTrackThenGoalAtOneSync() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.run(until: day, "12:00")
        let atSync = sim.sync([1500, 1000], on: day, at: "12:00:30")
        #expect(atSync.map(\.kind) == [.backOnTrack, .goalReached])
        #expect(atSync.map(\.id) == ["hydration-back-on-track-1", "hydration-goal-reached"])
        #expect(atSync[1].title == "Goal Reached! 💧")
        #expect(atSync[1].body == "Good job! You've hit your daily hydration goal.")
    }

    @Test func noBackOnTrackWithoutAReminder() {
        // Decision: behind (attention) but never told so, then caught up: nothing to answer.
        var sim = Simulation(settings: .test { $0.minDeficitML = 300 }, date: day, time: "06:00")
        sim.run(until: day, "08:00")
        #expect(sim.state.lastUrgency == .attention)
        let result2 = sim.sync([200], on: day, at: "08:00:30")
        #expect(result2.isEmpty)
        #expect(sim.journal.isEmpty)
        #expect(sim.state.lastUrgency == .onTrack)
    }

    @Test func reminderFlagIsClearedByAnOnTrackTick() {
        // Reminded, then on track at midnight (a new day owes nothing), then behind and caught
        // up before any new reminder: no alert.
        var sim = Simulation(settings: .test { $0.minDeficitML = 300 }, date: day, time: "06:00")
        sim.run(until: day, "23:00")
        #expect(sim.state.remindedSinceOnTrack)
        sim.run(until: nextDay, "08:00")
        #expect(sim.state.remindedSinceOnTrack == false)
        let result3 = sim.sync([200], on: nextDay, at: "08:00:30")
        #expect(result3.isEmpty)
    }

    @Test func backOnTrackSwitchOffStillClearsTheLastUrgency() {
        var sim = Simulation(settings: .test { $0.backOnTrack = false }, date: day, time: "06:00")
        let result4 = sim.sync([200], on: day, at: "08:00:30")
        #expect(result4.isEmpty)
        sim.run(until: day, "09:06")
        #expect(sim.lines() == [
            "07:54:00 Time to hydrate! You're 150ml behind pace.",
            "09:06:00 Time to hydrate! You're 150ml behind pace.",
        ])
    }

    @Test func previousUrgencyIsTheOneLastComputed() {
        // A chunk committed at 08:10:40 is known at the 08:11 tick, which computes on_track; the
        // sync ending at 08:11:10 then finds nothing to come back from (previous = on_track).
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.storeChunk(400, on: day, at: "08:10:40")
        sim.run(until: day, "08:11")
        #expect(sim.state.lastUrgency == .onTrack)
        let result5 = sim.endSync(newRecords: 1, on: day, at: "08:11:10")
        #expect(result5.isEmpty)
        #expect(sim.lines(.backOnTrack).isEmpty)
    }

    @Test func aSyncWithNothingNewDoesNothing() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.storeChunk(400, on: day, at: "08:10:20")
        // Ended within the same minute, before any tick saw the drink, but with no new record.
        let result6 = sim.endSync(newRecords: 0, on: day, at: "08:10:40")
        #expect(result6.isEmpty)
        #expect(sim.state.lastUrgency == .attention)
    }

    @Test func drinkAlertsIgnoreQuietHoursAndTheLimit() throws {
        var state = ReminderState()
        state.reminderDay = LocalDay(day)
        state.remindersSentToday = 12
        state.lastNotifiedUrgency = .overdue
        state.remindedSinceOnTrack = true
        state.lastUrgency = .overdue
        var sim = Simulation(settings: .test(), date: day, time: "22:30", state: state)
        let atSync = sim.sync([2600], on: day, at: "22:45")
        #expect(atSync.map(\.kind) == [.backOnTrack, .goalReached])
        #expect(sim.state.remindersSentToday == 12)
    }

    @Test func goalOncePerLocalCalendarDay() {
        var sim = Simulation(settings: .test { $0.goalML = 500 }, date: day, time: "06:00")
        let result7 = sim.sync([500], on: day, at: "20:00")
        // Behind since 11:30 and reminded (overdue), so the goal also brings the owner back on track.
        #expect(result7.map(\.kind) == [.backOnTrack, .goalReached])
        let result8 = sim.sync([100], on: day, at: "21:00")
        #expect(result8.isEmpty)
        // 01:00 is still the same reminder day (until 04:00) but a new calendar day.
        let result9 = sim.sync([600], on: nextDay, at: "01:00")
        #expect(result9.map(\.kind) == [.goalReached])
        let result10 = sim.sync([100], on: nextDay, at: "02:00")
        #expect(result10.isEmpty)
        #expect(sim.state.goalReachedDay == LocalDay(nextDay))
    }

    @Test func goalRemovesPendingHydrationReminders() {
        var state = ReminderState()
        _ = state.centre.schedule(PendingNotification(id: "hydration-99", fireTime: WallInstant(secondsSince1970: 4_000_000_000), kind: .reminder, title: "t", body: "b"))
        _ = state.centre.schedule(PendingNotification(id: "ritual-evening-2026-03-10", fireTime: WallInstant(secondsSince1970: 4_000_000_000), kind: .ritual, title: "t", body: "b"))
        var sim = Simulation(settings: .test { $0.goalML = 500 }, date: day, time: "06:00", state: state)
        sim.sync([400], on: day, at: "07:00")
        #expect(sim.engine.pendingCount == 2)
        sim.sync([100], on: day, at: "07:10")
        #expect(sim.state.centre.pending.map(\.id) == ["ritual-evening-2026-03-10"])
    }
}
