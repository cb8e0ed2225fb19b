// docs/reminders.md 1: the master switch (`notifications.enabled`) and the test notification.

import Testing
@testable import Reminders
import Timekeeping

struct MasterSwitchTests {
    let day = "2026-03-10"

    func pendingRitual(at time: String) -> PendingNotification {
        PendingNotification(id: "ritual-evening-\(day)", fireTime: instant(day, time, in: utc), kind: .ritual,
                            title: "Wind down", body: "Time for your evening ritual.", actions: [.didThis, .startRitual])
    }

    @Test func offDeliversNothing() {
        var sim = Simulation(settings: .test { $0.notificationsEnabled = false }, date: day, time: "06:00")
        sim.run(until: day, "12:00")
        sim.sync([2500], on: day, at: "12:00:30")
        sim.currentState(lowBattery: true, percent: 10, on: day, at: "13:00")
        let scheduled = sim.notifyTest(on: day, at: "13:01")
        sim.run(until: day, "23:59")
        #expect(!scheduled)
        #expect(sim.journal == ["Test notification not scheduled: notifications.enabled is false"])
        #expect(sim.deliveries.isEmpty)
        #expect(sim.engine.pendingCount == 0)
    }

    @Test func switchingOffCancelsEveryPendingNotification() {
        var state = ReminderState()
        _ = state.centre.schedule(pendingRitual(at: "20:00"))
        var sim = Simulation(settings: .test(), date: day, time: "09:00", state: state)
        let result1 = sim.notifyTest(on: day, at: "09:00:10")
        #expect(result1)
        #expect(sim.engine.pendingCount == 2)
        sim.updateSettings({ $0.notificationsEnabled = false }, on: day, at: "09:00:12")
        #expect(sim.engine.pendingCount == 0)
        sim.run(until: day, "21:00")
        // Only the 09:00 tick's reminder, before the switch went off.
        #expect(sim.lines() == ["09:00:00 Time to hydrate! You're 350ml behind pace."])
    }

    @Test func startWithTheSwitchOffCancelsRestoredPending() {
        var state = ReminderState()
        _ = state.centre.schedule(pendingRitual(at: "20:00"))
        let sim = Simulation(settings: .test { $0.notificationsEnabled = false }, date: day, time: "09:00", state: state)
        #expect(sim.engine.pendingCount == 0)
    }

    @Test func backOnResumesReminders() {
        var sim = Simulation(settings: .test { $0.notificationsEnabled = false }, date: day, time: "06:00")
        sim.run(until: day, "11:00")
        #expect(sim.deliveries.isEmpty)
        // Nothing was delivered, so nothing was counted or remembered as notified.
        #expect(sim.state.remindersSentToday == 0)
        #expect(sim.state.lastNotifiedUrgency == nil)
        sim.updateSettings({ $0.notificationsEnabled = true }, on: day, at: "11:00:30")
        sim.run(until: day, "11:01")
        // 669 expected at 11:01, rounded to 650.
        #expect(sim.lines() == ["11:01:00 You're falling behind! Drink 650ml to catch up."])
    }

    @Test func testNotificationFiveSecondsLater() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        let result2 = sim.notifyTest(on: day, at: "06:30:20")
        #expect(result2)
        #expect(sim.engine.nextFireTime == instant(day, "06:30:25", in: utc))
        let result3 = sim.fireDueNotifications(until: instant(day, "06:30:24", in: utc))
        #expect(result3.isEmpty)
        let fired = sim.fireDueNotifications(until: instant(day, "06:31", in: utc))
        #expect(fired == [Delivery(id: "notification-test", kind: .test, time: instant(day, "06:30:25", in: utc),
                                   title: "Test Notification", body: "Notifications from aquavate-bridge reach you here.",
                                   thread: "test")])
        sim.run(until: day, "06:40")
        #expect(sim.deliveries.count == 1)
        #expect(sim.engine.nextFireTime == nil)
    }

    @Test func testNotificationNotCollectedBetweenTicksFiresAtTheNextTick() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        let result4 = sim.notifyTest(on: day, at: "06:30:20")
        #expect(result4)
        let atTick = sim.run(until: day, "06:31")
        #expect(atTick.map(\.id) == ["notification-test"])
        #expect(atTick.first?.time == instant(day, "06:31", in: utc))
    }

    @Test func theTestNotificationRespectsTheLimit() {
        var state = ReminderState()
        for index in 0..<64 {
            _ = state.centre.schedule(PendingNotification(id: "p\(index)", fireTime: WallInstant(secondsSince1970: 4_000_000_000), kind: .ritual, title: "t", body: "b"))
        }
        var sim = Simulation(settings: .test(), date: day, time: "06:00", state: state)
        let result5 = sim.notifyTest(on: day, at: "06:30")
        #expect(!result5)
        #expect(sim.journal == ["Test notification not scheduled: 64 notifications are pending, the limit"])
    }
}
