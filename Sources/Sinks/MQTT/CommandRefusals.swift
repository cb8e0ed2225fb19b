// The commands the command topic refused, counted by reason since the sink started: the figures
// of `aquavate_mqtt_refused_commands_total{reason}`. Every refusal is counted, also those of a
// flood that are answered and logged only once; `counted` hears each one, so that whoever keeps
// the figures (the daemon saves them in its history) need not poll.

import Locking

package final class CommandRefusals: Sendable {
    private let counts = Locked<[SinkCommandRefusalReason: Int]>([:])
    private let counted: @Sendable (SinkCommandRefusalReason) -> Void

    package init(counted: @escaping @Sendable (SinkCommandRefusalReason) -> Void = { _ in }) {
        self.counted = counted
    }

    func count(_ reason: SinkCommandRefusalReason) {
        counts.withLock { $0[reason, default: 0] += 1 }
        counted(reason)
    }

    /// The refusals so far, by reason.
    package var snapshot: [SinkCommandRefusalReason: Int] { counts.withLock { $0 } }
}
