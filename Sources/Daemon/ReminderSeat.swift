// One seat per bottle: a person's reminder engine (`ReminderRunner`) with what the desk knows of
// its bottle (the goal it confirmed, whether it is connected, the state last published), and how
// its deliveries are labelled and gated. The desk (ReminderDesk) owns the seats and calls them one
// at a time; a seat is made, labelled and given its settings here.

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

/// One person's reminders: a bottle's runner (docs/design.md 6), or, before any bottle was
/// adopted, the one runner of every drink (`key` nil).
final class ReminderSeat {
    var key: String?
    let runner: ReminderRunner
    var bottleGoal: Int?
    var connected = false
    /// The state last handed to the sinks (its time aside), so that a minute tick publishes
    /// only what changed: the deficit growing, a reminder sent, the urgency, a new day.
    var published: BridgeSnapshot?
    /// How its deliveries are labelled (owner's name, notification id suffix).
    let label: Locked<Label>

    init(key: String?, runner: ReminderRunner, bottleGoal: Int?, label: Locked<Label>) {
        self.key = key
        self.runner = runner
        self.bottleGoal = bottleGoal
        self.label = label
    }

    /// What a delivery of a seat carries: the owner's name before the title, and `@<bottle>`
    /// after the id while the desk serves several bottles (so each has its own threads, and a
    /// button pressed on one reaches its own engine).
    struct Label: Sendable {
        var owner: String?
        var idSuffix: String?
        /// The bottle's key, for the sinks.
        var bottle: String?
    }

    /// What making and labelling a seat needs (the desk's own values, at that moment).
    struct Context {
        let history: DrinkHistory
        let configuration: Configuration
        let hub: SinkHub?
        let deliver: (@Sendable (Delivery) -> Void)?
        let logger: Logger
        let gate: Locked<ReminderDesk.DeliveryGate?>
    }

    static func make(key: String?, bottleGoal: Int?, inheritsLegacy: Bool, _ context: Context) -> ReminderSeat {
        let settings = settings(for: key, bottleGoal: bottleGoal, personReachable: nil, context)
        let label = Locked(Label())
        let hub = context.hub, deliver = context.deliver, logger = context.logger, gate = context.gate
        let history = context.history
        // The ticker wakes every minute: a longer gap is the clock jump, handled as a restart.
        let runner = ReminderRunner(history: context.history, settings: settings, logger: logger, gapRule: .daemon,
                                    bottle: key, inheritsLegacy: inheritsLegacy) { engineDelivery in
            let label = label.withLock { $0 }
            let delivery = label.apply(to: engineDelivery)
            let send: @Sendable () -> Void = {
                deliver?(delivery)
                if let hub {
                    var notification = SinkSetup.notification(delivery)
                    notification.bottle = label.bottle
                    hub.deliver(notification)
                } else if deliver == nil {
                    logger.notice("notification \(delivery.kind.rawValue): \(delivery.title) — \(delivery.body)")
                }
            }
            // The engine's own id (without the `@<bottle>` suffix, which depends on how many
            // bottles this bridge serves): the household compares it across bridges.
            // A bridge that has adopted no bottle yet runs one engine, on the drinks other
            // bridges replicated to it: in a household those reminders are the person of the
            // bottle the history knows, and the bridge that reminds for it sends them, not this one.
            let gated = gate.withLock { $0 }
            let bottle = label.bottle ?? (gated == nil ? nil : householdBottle(history))
            if let bottle, let gate = gated, !gate(bottle, ReminderDesk.GatedReminder(id: engineDelivery.id, kind: engineDelivery.kind.rawValue, time: engineDelivery.time), send) {
                logger.info("notification \(delivery.id) of \(bottle) left to the bridge that reminds for it")
                return
            }
            send()
        }
        return ReminderSeat(key: key, runner: runner, bottleGoal: bottleGoal, label: label)
    }

    /// The bottle an engine without one reminds about: the most recently seen bottle the history
    /// knows, else the bottle of drinks other bridges replicated (they make no bottle row).
    static func householdBottle(_ history: DrinkHistory) -> String? {
        (try? history.bottles.all())?.first?.id ?? (try? history.drinks.drinkBottles())?.first
    }

    /// The reminder settings of one bottle's person (its own keys over the global ones).
    static func settings(for key: String?, bottleGoal: Int?, personReachable: Bool?, _ context: Context) -> ReminderSettings {
        // Only the journal: the bridge behaves like a phone whose user denied notifications
        // (docs/reminders.md 1); a caller that shows deliveries itself (demo) reaches a person.
        let reachable = personReachable ?? ((context.hub?.reachesAPerson ?? false) || context.deliver != nil)
        let view = view(of: key, bottleGoal: .some(bottleGoal), personReachable: reachable, context)
        for problem in view.problems { context.logger.warning("\(problem)") }
        return view.settings
    }

    /// Bottle `key`'s settings as every surface resolves them (nil: the one engine before any
    /// bottle was adopted, on the global settings); `bottleGoal`: the goal the seat knows the
    /// bottle confirmed, when it knows it.
    static func view(of key: String?, bottleGoal: Int??, personReachable: Bool, _ context: Context) -> BottleView {
        let row = key.map { key in (try? context.history.bottles.bottle(id: key)) ?? BottleRecord(id: key) }
        return BottleView.settings(of: row, configuration: context.configuration, history: context.history,
                                   bottleGoal: bottleGoal, personReachable: personReachable)
    }

    /// Each seat's owner and, with several bottles, the id suffix.
    static func relabel(_ seats: [ReminderSeat], _ context: Context) {
        let several = seats.count > 1
        for seat in seats {
            // The owner alone: the whole view would read the stored schedules and the pool file.
            let row = seat.key.map { key in (try? context.history.bottles.bottle(id: key)) ?? BottleRecord(id: key) }
            let owner = context.configuration.effective(for: row).owner
            seat.label.withLock { $0 = Label(owner: owner, idSuffix: several ? seat.key : nil, bottle: seat.key) }
        }
    }
}

extension ReminderSeat.Label {
    /// The delivery as its person sees it.
    func apply(to delivery: Delivery) -> Delivery {
        guard owner != nil || idSuffix != nil else { return delivery }
        return Delivery(id: idSuffix.map { "\(delivery.id)@\($0)" } ?? delivery.id, kind: delivery.kind, time: delivery.time,
                        title: owner.map { "\($0): \(delivery.title)" } ?? delivery.title, body: delivery.body,
                        actions: delivery.actions, thread: idSuffix.map { "\(delivery.thread ?? delivery.kind.rawValue)@\($0)" } ?? delivery.thread)
    }
}
