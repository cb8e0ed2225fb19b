// What `status` shows of sections 3–6: the pending count of each rule (section 5's is the seed's
// badge), the streak of the last ritual rebuild, and, for a rule that is on but schedules nothing,
// why (section 1: "status says why").

package struct RulesStatus: Equatable, Sendable {
    /// Pending notifications of every rule.
    package let pendingCount: Int
    package let scheduledPending: Int
    package let dailyMessagesPending: Int
    /// The seed's badge (docs/reminders.md 5).
    package let deadlinePending: Int
    package let ritualsPending: Int
    /// The streak N taken at the last ritual rebuild.
    package let ritualStreak: Int
    /// One line per rule that is on but cannot schedule, saying why and what to do.
    package let notes: [String]
}

extension ReminderEngine {
    /// What `status` shows of sections 3–6, without changing the engine.
    package func rulesStatus() -> RulesStatus {
        let all = reminderSettings
        var notes: [String] = []
        let anyOn = all.messages.enabled || all.rituals.enabled || all.deadline.enabled
            || all.schedules.contains(where: \.enabled)
        if !all.hydration.notificationsEnabled && anyOn {
            notes.append("Nothing is scheduled: notifications.enabled is false; set it to true to deliver reminders")
        } else if !all.personReachable {
            let why = "no sink reaches a person (only the log); enable the desktop, MQTT or HTTP push sink"
            if all.messages.enabled { notes.append("Daily messages not scheduled: \(why)") }
            if all.rituals.enabled { notes.append("Rituals not scheduled: \(why)") }
        }
        if all.rituals.enabled && all.rituals.terrain == nil {
            notes.append("Rituals use placeholders until rituals.terrain is set (one of \(RitualTerrain.choices))")
        }
        let sections = state.centre.pending.map { ReminderEngine.owningSection(of: $0) }
        return RulesStatus(pendingCount: state.centre.count,
                           scheduledPending: sections.filter { $0 == 3 }.count,
                           dailyMessagesPending: sections.filter { $0 == 4 }.count,
                           deadlinePending: sections.filter { $0 == 5 }.count,
                           ritualsPending: sections.filter { $0 == 6 }.count,
                           ritualStreak: state.ritualStreak, notes: notes)
    }
}
