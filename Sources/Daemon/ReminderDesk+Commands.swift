// The person's commands from the sinks (MQTT's command topic, a notification's buttons): a
// setting (through `SettingChange`, the one write path), a manual intake, a bottle command queued
// as `aquavate-bridge bottle …` queues it, a notification's action; each answered through the sinks.

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
    /// A command from a sink: `config set`, a manual intake, a notification's button.
    package func handle(_ command: SinkCommand, at instant: WallInstant) {
        advance(to: instant)
        switch command {
        case .configSet(let key, let value):
            // Every sink command comes from outside: only the person's settings (SettingAccess).
            // The MQTT sink asks the same gate first and answers the sender; this is the backstop.
            if let refusal = SettingCatalog.refusalFromSink(key: key, value: value) {
                logger.warning("config set \(key) from a sink refused: \(refusal)")
                break
            }
            do {
                let change = try SettingChange(named: key, value)
                try change.store(in: history.settings)
                configuration.useStoredValues([change.name: change.value ?? ""])
                for seat in seats { reloadSettings(seat, at: instant) }
                relabel()
                logger.info("config set \(change.name) = \(change.shown) (from a sink)")
            } catch {
                logger.warning("config set \(key) \(SettingCatalog.key(named: key)?.shown(value) ?? value) refused: \(error)")
            }
        case .log(let type, let bottle):
            // A manual intake is the person's: the named bottle's (its serial or address), else
            // the most recently adopted bottle's (the only one, usually).
            guard let seat = bottle.map(seat(named:)) ?? seats.first else {
                logger.warning("log \(type) refused: no adopted bottle \(bottle ?? "") ('aquavate-bridge bottle info' lists them)")
                break
            }
            do {
                let normalized = try seat.runner.logIntake(type: type, at: instant)
                logger.info("logged \(normalized)\(seat.key.map { " for \($0)" } ?? "")")
            } catch {
                logger.warning("log \(type) refused: \(error)")
            }
        case .bottle(let request):
            queueBottleCommand(request, bottle: nil, at: instant)
        case .bottleOf(let request, let bottle):
            queueBottleCommand(request, bottle: bottle, at: instant)
        case .action(let notificationID, let actionID):
            let (seat, id) = route(notificationID)
            do {
                let outcome = try seat.runner.actionInvoked(notificationID: id, actionID: actionID, at: instant)
                logger.info("action \(actionID) on \(notificationID): \(outcome)")
                if case .startRitual = outcome { startRitual(notificationID, at: instant) }
            } catch {
                logger.warning("action \(actionID) on \(notificationID) refused: \(error)")
            }
        }
        for seat in seats { publishState(seat, at: instant) }
    }

    /// The seat of an adopted bottle named by its key, serial or address (any case); nil when
    /// the desk runs no such bottle's reminders.
    func seat(named name: String) -> ReminderSeat? {
        let key = (try? history.bottles.bottle(named: name))?.id ?? name
        return seats.first { $0.key != nil && $0.key?.uppercased() == key.uppercased() }
    }

    /// The seat a notification id belongs to (`…@<bottle>` with several bottles) and the
    /// engine's own id.
    func route(_ notificationID: String) -> (ReminderSeat, String) {
        if let at = notificationID.lastIndex(of: "@") {
            let key = String(notificationID[notificationID.index(after: at)...])
            if let seat = seats.first(where: { $0.key == key }) { return (seat, String(notificationID[..<at])) }
        }
        return (seats[0], notificationID)
    }

    /// A bottle command from a sink (Home Assistant's goal, tare, shake-to-empty, delete): the same
    /// checks and queue as `aquavate-bridge bottle …`; the answer goes back through the sinks.
    private func queueBottleCommand(_ request: SinkBottleCommand, bottle: String?, at instant: WallInstant) {
        let asked: BottleRequest
        switch request {
        case .goal(let goal): asked = .goal(goal)
        case .delete(let recordID): asked = .delete(recordID: recordID)
        case .deleteLast:
            // The newest drink that still counts, of the bottle the command is for.
            let key = bottle.flatMap { try? history.bottles.bottle(named: $0)?.id } ?? seats.first?.key
            guard let newest = (try? history.drinks.storedDrinks(bottle: key, includeDeleted: false))?.last(where: { $0.isIntake }) else {
                logger.warning("bottle delete (last drink) from a sink refused: no drink to delete")
                hub?.publish(SinkCommandResult(id: nil, command: request.name, status: "refused",
                                               message: "the history has no drink to delete", bottle: bottle))
                return
            }
            asked = .delete(recordID: Int(newest.recordID))
        case .tare: asked = .tare
        case .shakeToEmpty(let on): asked = .shakeToEmpty(on)
        }
        do {
            let (command, drink) = try BottleControl(history: history).queue(asked, bottle: bottle, at: instant)
            if let command {
                logger.info("bottle \(request.name) queued (#\(command.id), from a sink): applied at the bottle's next connection")
                publish(BridgeEvent.CommandEvent(command))
            } else {
                logger.info("bottle \(request.name) from a sink: a drink added by hand, deleted in the history only")
            }
            if drink != nil { for seat in seats { seat.runner.historyChanged() } }
        } catch {
            logger.warning("bottle \(request.name) from a sink refused: \(error)")
            hub?.publish(SinkCommandResult(id: nil, command: request.name, status: "refused", message: "\(error)",
                                           bottle: bottle))
        }
    }

    /// A bottle command's state, for the sinks (MQTT `…/command/result`).
    package nonisolated func publish(_ command: BridgeEvent.CommandEvent) {
        hub?.publish(Self.sinkResult(command))
    }

    /// The `command` event for the sinks: what it asks as numbers, as the JSON event has them.
    nonisolated static func sinkResult(_ command: BridgeEvent.CommandEvent) -> SinkCommandResult {
        let asked = command.asked
        return SinkCommandResult(id: command.id, command: command.command, status: command.status, message: command.message,
                                 bottle: command.bottle, goalML: asked.goalML, recordID: asked.recordID, on: asked.on)
    }

    /// Start Ritual (docs/reminders.md 6): "open" the ritual where a person is — the ritual's text
    /// again through the sinks, as an event of kind `ritual_started` (a desktop notification, an
    /// MQTT event Home Assistant automations can react to, a push).
    private func startRitual(_ notificationID: String, at instant: WallInstant) {
        let engineID = route(notificationID).1
        let delivered = (try? history.reminders.delivered())?.last { $0.id == engineID }
        hub?.deliver(SinkNotification(id: notificationID + "-started", kind: SinkNotification.Kind.ritualStarted,
                                      title: delivered.map { "Ritual started: \($0.title)" } ?? "Ritual started",
                                      body: delivered?.body ?? "", time: instant))
    }
}
