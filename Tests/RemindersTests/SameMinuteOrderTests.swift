// docs/reminders.md 0, "Same minute": notifications due at one tick are delivered in section order
// (2, 3, 4, 5, 6), then by id; the engine's own test notification (section 1) first.

import Testing
@testable import Reminders

struct SameMinuteOrderTests {
    let day = "2026-03-10"

    @Test func sectionOrderThenID() {
        let at = instant(day, "07:54", in: utc)
        var state = ReminderState()
        for (id, kind) in [("ritual-morning-2026-03-10", NotificationKind.ritual), ("deadline-day-2026-03-10", .deadline),
                           ("reminder-VITD-7-54", .scheduled), ("daily-affirmation-2026-03-10", .dailyMessage),
                           ("reminder-ABC-7-54", .scheduled)] {
            _ = state.centre.schedule(PendingNotification(id: id, fireTime: at, kind: kind, title: "t", body: "b"))
        }
        var sim = Simulation(settings: .test(), date: day, time: "07:53:50", state: state)
        let result1 = sim.notifyTest(on: day, at: "07:53:55")
        #expect(result1)
        let atTick = sim.run(until: day, "07:54")
        #expect(atTick.map(\.id) == [
            "notification-test", "hydration-1", "reminder-ABC-7-54", "reminder-VITD-7-54",
            "daily-affirmation-2026-03-10", "deadline-day-2026-03-10", "ritual-morning-2026-03-10",
        ])
        #expect(atTick.allSatisfy { $0.time == at })
        #expect(sim.engine.pendingCount == 0)
    }

    @Test func anOverdueEarlierNotificationComesFirst() {
        // Pending since 07:53:30 (nobody called fireDue): delivered at the tick, before the tick's
        // own reminder, because it was due earlier.
        var state = ReminderState()
        _ = state.centre.schedule(PendingNotification(id: "ritual-x", fireTime: instant(day, "07:53:30", in: utc),
                                                      kind: .ritual, title: "t", body: "b"))
        var sim = Simulation(settings: .test(), date: day, time: "07:53:10", state: state)
        let result2 = sim.run(until: day, "07:54")
        #expect(result2.map(\.id) == ["ritual-x", "hydration-1"])
    }
}
