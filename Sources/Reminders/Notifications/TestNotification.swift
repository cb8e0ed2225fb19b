// `notify test` (docs/reminders.md 1, seed 003's "notificación de prueba"): one notification through
// every enabled sink, 5 seconds after it is asked for.

import Timekeeping

package enum TestNotification {
    /// Fixed, so asking twice within the 5 seconds gives one notification, not two.
    package static let id = "notification-test"
    package static let delay: Duration = .seconds(5)
    package static let title = "Test Notification"
    package static let body = "Notifications from aquavate-bridge reach you here."

    static func pending(askedAt instant: WallInstant) -> PendingNotification {
        PendingNotification(id: id, fireTime: instant + delay, kind: .test, title: title, body: body, thread: "test")
    }
}
