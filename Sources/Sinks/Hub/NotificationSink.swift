// The one protocol every sink implements: journal, MQTT, HTTP push, and the desktop sink that
// lives with the D-Bus module. The hub (SinkHub) calls it from one worker per sink: a sink never
// sees two deliveries at once and never waits for another sink. `stop()` may arrive while a
// delivery is still in flight, and must make it end.

import AquavateProtocol
import Logging

/// What the hub gives a sink when it starts it.
package struct SinkContext: Sendable {
    /// Hands a command that came in through the sink (an MQTT command, a tapped button) to the
    /// hub's `commands` stream.
    package let command: @Sendable (SinkCommand) -> Void
    /// Tells the hub the sink can deliver again (e.g. MQTT reconnected), so it retries its queue
    /// now instead of waiting out the rest of the back-off.
    package let reachable: @Sendable () -> Void
    package let logger: Logger

    package init(command: @escaping @Sendable (SinkCommand) -> Void,
                reachable: @escaping @Sendable () -> Void, logger: Logger) {
        self.command = command
        self.reachable = reachable
        self.logger = logger
    }
}

package protocol NotificationSink: Sendable {
    /// Short and stable, used in log lines: `journal`, `mqtt`, `push`, `desktop`.
    var name: String { get }

    /// Whether a delivery can reach a person (docs/reminders.md 1: with only the journal, the bridge
    /// behaves like a phone whose user denied notifications). Default: true.
    var reachesAPerson: Bool { get }

    /// Whether it takes the bridge's state: snapshots, drinks, command results, the bottle's
    /// identity (the `publish` and `identify` below). Default: false, and the hub then hands it
    /// none of them: a sync publishes a state per chunk and a drink per record, and a sink that
    /// ignores them (the journal) would still be woken for each.
    var publishesState: Bool { get }

    /// Shows the notification to a person. Throw `SinkDeliveryError.unavailable` (or any error)
    /// when it could not be delivered now, `.rejected` when retrying cannot help.
    func deliver(_ notification: SinkNotification) async throws

    /// The latest state, for sinks that keep one (MQTT retained state). Default: ignored.
    func publish(_ snapshot: BridgeSnapshot) async throws

    /// A newly stored drink, for sinks that publish events (MQTT); `drink.bottle` says which
    /// bottle's topics. Default: ignored.
    func publish(_ drink: Drink) async throws

    /// A bottle command's state (docs/design.md 3.5), for sinks that answer commands. Default: ignored.
    func publish(_ result: SinkCommandResult) async throws

    /// The bottle became known, or what is known of it changed (its serial, its firmware), for
    /// sinks that show it as a device. Default: ignored.
    func identify(_ bottle: SinkBottle) async

    /// Called once by `SinkHub.start()` before any delivery. Default: nothing.
    func start(_ context: SinkContext) async

    /// Called once by `SinkHub.stop()` after the last delivery attempt. Default: nothing.
    func stop() async
}

extension NotificationSink {
    package var reachesAPerson: Bool { true }
    package var publishesState: Bool { false }
    package func publish(_ snapshot: BridgeSnapshot) async throws {}
    package func publish(_ drink: Drink) async throws {}
    package func publish(_ result: SinkCommandResult) async throws {}
    package func identify(_ bottle: SinkBottle) async {}
    package func start(_ context: SinkContext) async {}
    package func stop() async {}
}
