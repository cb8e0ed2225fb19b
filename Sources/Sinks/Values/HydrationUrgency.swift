// How urgent drinking is now (docs/reminders.md 2.2), as it crosses the wire: the raw values are
// the `options` Home Assistant's enum sensor declares (HomeAssistantDiscovery), so a state can
// only ever carry one of them. The reminders' own `Urgency` maps onto it exhaustively (the
// daemon's ReminderDesk), and display text ("On Track") never leaves the bridge through a sink.

package enum HydrationUrgency: String, Sendable, Equatable, CaseIterable, Codable {
    case onTrack = "on_track"
    case attention
    case overdue
}
