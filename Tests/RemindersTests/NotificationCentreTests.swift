// docs/reminders.md 1: pending notifications — replacement by id, the limit of 64, cancel all, and the
// delivery order of notifications due at one instant.

import Foundation
import Timekeeping
import Testing
@testable import Reminders

struct NotificationCentreTests {
    func note(_ id: String, at time: Double = 600, _ kind: NotificationKind = .ritual, title: String = "t") -> PendingNotification {
        PendingNotification(id: id, fireTime: WallInstant(secondsSince1970: time), kind: kind, title: title, body: "b")
    }

    @Test func sameIDReplaces() {
        var centre = NotificationCentre()
        let first = centre.schedule(note("a", title: "first"))
        let second = centre.schedule(note("a", title: "second"))
        #expect(first == .added)
        #expect(second == .replaced)
        #expect(centre.count == 1)
        #expect(centre.notification(withID: "a")?.title == "second")
    }

    @Test func atMost64Pending() {
        var centre = NotificationCentre()
        let outcomes = (0..<64).map { centre.schedule(note("n\($0)")) }
        #expect(outcomes.allSatisfy { $0 == .added })
        let sixtyFifth = centre.schedule(note("n64"))
        #expect(sixtyFifth == .refusedAtLimit)
        #expect(centre.count == 64)
        // Replacing needs no free slot.
        let replacing = centre.schedule(note("n10", title: "new"))
        #expect(replacing == .replaced)
        let removed = centre.remove(id: "n0")
        let removedAgain = centre.remove(id: "n0")
        #expect(removed && !removedAgain)
        let afterRemoval = centre.schedule(note("n64"))
        #expect(afterRemoval == .added)
    }

    @Test func cancelAllAndRemoveByKind() {
        var centre = NotificationCentre()
        _ = centre.schedule(note("r1", .reminder))
        _ = centre.schedule(note("r2", .reminder))
        _ = centre.schedule(note("m", .dailyMessage))
        let removed = centre.removeAll(kind: .reminder)
        #expect(removed == 2)
        #expect(centre.count == 1)
        centre.cancelAll()
        #expect(centre.count == 0)
        #expect(centre.nextFireTime == nil)
    }

    @Test func dueOnesFireOnceInSectionThenIDOrder() {
        var centre = NotificationCentre()
        _ = centre.schedule(note("ritual-morning-2026-03-10", at: 600, .ritual))
        _ = centre.schedule(note("deadline-day-2026-03-10", at: 600, .deadline))
        _ = centre.schedule(note("reminder-B-9-0", at: 600, .scheduled))
        _ = centre.schedule(note("reminder-A-9-0", at: 600, .scheduled))
        _ = centre.schedule(note("daily-affirmation-2026-03-10", at: 600, .dailyMessage))
        _ = centre.schedule(note("notification-test", at: 600, .test))
        _ = centre.schedule(note("early", at: 540, .ritual))
        _ = centre.schedule(note("later", at: 660, .scheduled))
        #expect(centre.nextFireTime == WallInstant(secondsSince1970: 540))
        let early = centre.takeDue(at: WallInstant(secondsSince1970: 599))
        let atTen = centre.takeDue(at: WallInstant(secondsSince1970: 600))
        let again = centre.takeDue(at: WallInstant(secondsSince1970: 600))
        #expect(early.map(\.id) == ["early"])
        #expect(atTen.map(\.id) == [
            "notification-test", "reminder-A-9-0", "reminder-B-9-0", "daily-affirmation-2026-03-10",
            "deadline-day-2026-03-10", "ritual-morning-2026-03-10",
        ])
        #expect(again.isEmpty)
        #expect(centre.pending.map(\.id) == ["later"])
    }

    @Test func storedAsTheArrayOfPending() throws {
        var centre = NotificationCentre()
        _ = centre.schedule(PendingNotification(id: "ritual-evening-2026-03-10", fireTime: WallInstant(secondsSince1970: 1_773_172_800), kind: .ritual,
                                                title: "Wind down", body: "Time for your evening ritual.",
                                                actions: [.didThis, .startRitual], thread: "rituals"))
        let data = try JSONEncoder().encode(centre)
        #expect(try JSONDecoder().decode(NotificationCentre.self, from: data) == centre)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("[{"))
        #expect(text.contains("\"fire_time\":"))
        #expect(text.contains("\"did-this\""))
        // A stored list repeating an id keeps the last.
        let repeated = Data(#"[{"id":"x","fire_time":1,"kind":"test","title":"a","body":"","actions":[]},{"id":"x","fire_time":2,"kind":"test","title":"b","body":"","actions":[]}]"#.utf8)
        let decoded = try JSONDecoder().decode(NotificationCentre.self, from: repeated)
        #expect(decoded.count == 1)
        #expect(decoded.notification(withID: "x")?.title == "b")
    }

    @Test func kindsAndSections() {
        #expect(NotificationKind.allCases.map(\.rawValue) == [
            "reminder", "back_on_track", "goal_reached", "low_battery", "scheduled", "daily_message", "deadline", "ritual", "test",
        ])
        #expect(NotificationKind.allCases.map(\.section) == [2, 2, 2, 2, 3, 4, 5, 6, 1])
        #expect(NotificationAction.done == NotificationAction(id: "done", label: "Done"))
        #expect(NotificationAction.didThis.label == "Did This")
        #expect(NotificationAction.startRitual.id == "start-ritual")
    }
}
