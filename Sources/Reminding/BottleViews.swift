// Every bottle's view for one request (a page, a `/metrics` scrape, `status`, an API answer). What
// the views share beyond each bottle's own state is read once when the request starts: the
// history's bottles, every bottle's commands waiting for its next connection, the stored schedules
// and the pool file. A request then makes the same number of such reads however many bottles it
// shows and however often it resolves one; only each bottle's own reminder state is read per
// bottle (`resolve`).

import Foundation
import History
import Logging
import Reminders
import Settings
import Timekeeping

package struct BottleViews: Sendable {
    package let configuration: Configuration
    package let history: DrinkHistory
    /// Every bottle the history knows, most recently seen first (`BottleStore.all()`).
    package let bottles: [BottleRecord]
    /// Each bottle's commands not yet applied (pending or being sent), oldest first, by bottle id.
    package let pending: [String: [StoredCommand]]
    /// What every bottle's reminder settings share.
    package let shared: SharedRuleInputs

    /// Reads the bottles, the waiting commands, the stored schedules and the pool file once.
    package init(configuration: Configuration, history: DrinkHistory) throws {
        self.configuration = configuration
        self.history = history
        bottles = try history.bottles.all()
        pending = Dictionary(grouping: try history.commands.all(statuses: [.pending, .sending]), by: \.bottle)
        shared = SharedRuleInputs(configuration: configuration, history: history)
    }

    /// The bottle's settings alone, without its state (`BottleView.settings(of:)`).
    package func settings(of bottle: BottleRecord?, bottleGoal: Int?? = nil, personReachable: Bool = true) -> BottleView {
        BottleView.settings(of: bottle, configuration: configuration, shared: shared, bottleGoal: bottleGoal, personReachable: personReachable)
    }

    /// The bottle's settings and its state at `instant`: from `live` (a running engine's status)
    /// when given, else from its engine's state saved in the history (restored, nothing saved).
    package func resolve(_ bottle: BottleRecord?, at instant: WallInstant, live: HydrationStatus? = nil) throws -> BottleView {
        var view = settings(of: bottle)
        view.pendingCommands = bottle.map { pending[$0.id] ?? [] } ?? []
        if let live {
            return view.with(status: live, rules: nil)
        }
        // The reminders as the daemon's desk keeps them: per adopted bottle (the most recently
        // seen inherits a single-bottle history's state), or one engine before any was adopted.
        let adopted = bottles.filter { $0.address != nil }
        let key = adopted.isEmpty ? nil : bottle?.id
        let runner = ReminderRunner(history: history, settings: view.settings,
                                    logger: Logger(label: "bottle-view") { _ in SwiftLogNoOpLogHandler() },
                                    bottle: key, inheritsLegacy: key != nil && key == adopted.first?.id) { _ in }
        return view.with(status: runner.status(at: instant), rules: runner.rulesStatus())
    }

    /// Every bottle of the history (one view of no bottle when it has none), in its order.
    package func resolveEach(at instant: WallInstant) throws -> [BottleView] {
        if bottles.isEmpty { return [try resolve(nil, at: instant)] }
        return try bottles.map { try resolve($0, at: instant) }
    }
}

extension BottleView {
    /// This view with the bottle's state.
    func with(status: HydrationStatus?, rules: RulesStatus?) -> BottleView {
        var view = BottleView(bottle: bottle, configuration: configuration, settings: settings, problems: problems, status: status, rules: rules)
        view.pendingCommands = pendingCommands
        return view
    }
}
