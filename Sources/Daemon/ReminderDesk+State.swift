// What the desk publishes to the sinks: who a bottle is, and each seat's retained state for Home
// Assistant (`BridgeSnapshot`), only when it changed at a minute tick.

import AquavateProtocol
import Delivery
import Foundation
import History
import Locking
import Logging
import Reminders
import Reminding
import Reports
import Settings
import Sinks
import Timekeeping

extension ReminderDesk {
    /// Tells the sinks who the bottle is (after a connection read its Device Information), in
    /// order with what the caller hands them next.
    package nonisolated func identifyNow(_ bottle: BottleRecord) {
        hub?.identify(SinkBottle(address: bottle.address, serial: bottle.serial, name: bottle.name,
                                 firmware: bottle.firmware, model: bottle.model))
    }

    /// The retained state for Home Assistant.
    func publishState(_ seat: ReminderSeat, at instant: WallInstant, onlyIfChanged: Bool = false) {
        // Nobody takes it (only the journal): not worth the status and the database reads, a
        // chunk at a time during a sync.
        guard let hub, hub.publishesState else { return }
        let status = seat.runner.status(at: instant)
        let bottle = seat.key.flatMap { try? history.bottles.bottle(id: $0) }
            ?? (try? history.bottles.all())?.max { ($0.lastSeen ?? .epoch) < ($1.lastSeen ?? .epoch) }
        let key = seat.key ?? bottle?.id
        let dayStart = LocalDay(containing: instant, timeZone: timeZone).interval(in: timeZone).start
        let lastDrink = (try? history.drinks.storedDrinks(bottle: key, from: dayStart, includeDeleted: false))?.last { $0.isIntake }
        let pending = key.flatMap { try? history.commands.all(bottle: $0, statuses: [.pending, .sending]) } ?? []
        let changes = PendingChanges(pending)
        // The bottle's goal and switch as every surface resolves them (its row as read above); its
        // state from its running engine. Only these: the whole settings would read the stored
        // schedules and the pool file at every state published, for nothing the state shows.
        let row = seat.key.map { key in bottle.flatMap { $0.id == key ? $0 : nil } ?? BottleRecord(id: key) }
        let hydration = BottleView.hydration(of: row, configuration: configuration, bottleGoal: .some(seat.bottleGoal))
        var snapshot = BridgeSnapshot(
            time: instant, dayTotalML: status.pace.dayTotalML, goalML: hydration.goalML,
            // The battery: the last figure that was not a just-woken 0 % (docs/protocol.md 2.1).
            bottleLevelML: bottle?.state?.bottleLevelML, batteryPercent: bottle?.battery ?? bottle?.state?.batteryPercent,
            urgency: HydrationUrgency(status.urgency), deficitML: status.displayedDeficitML, remindersToday: status.remindersSentToday,
            dailyLimit: status.dailyLimit, lastSync: bottle?.lastSync, unsynced: bottle?.state?.unsyncedCount,
            bottleConnected: seat.connected, shakeToEmpty: bottle?.shakeToEmpty, bottleGoalML: bottle?.goalML,
            bottle: seat.key)
        snapshot.dayStart = dayStart
        snapshot.lastSeen = bottle?.lastSeen
        snapshot.lastDrinkML = lastDrink.map { Int($0.amountML) }
        snapshot.lastDrinkTime = lastDrink.map { WallInstant(secondsSince1970: Double($0.timestamp)) }
        snapshot.remindersEnabled = hydration.enabled
        snapshot.pendingGoalML = changes.goalML
        snapshot.pendingShakeToEmpty = changes.shakeToEmpty
        snapshot.pendingCommands = pending.count
        snapshot.quarantined = key.flatMap { try? history.drinks.quarantined(bottle: $0).count } ?? 0
        if let refusal = bottle?.refusal, refusal.isStuck {
            snapshot.stuck = true
            snapshot.stuckSince = refusal.since
        }
        var unchanged = seat.published
        unchanged?.time = snapshot.time
        if onlyIfChanged && unchanged == snapshot { return }
        seat.published = snapshot
        hub.publish(snapshot)
    }
}

extension HydrationUrgency {
    /// The reminders' urgency as it crosses the wire (one case for each, no display text).
    init(_ urgency: Urgency) {
        switch urgency {
        case .onTrack: self = .onTrack
        case .attention: self = .attention
        case .overdue: self = .overdue
        }
    }
}
