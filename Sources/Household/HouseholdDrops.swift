// What the household link did not believe, counted by reason (docs/household.md): the figures of
// `aquavate_household_dropped_messages_total{reason}` and of `doctor`. A flood of forged messages
// must not become a flood of log lines, so a reason is logged at its 1st, 10th, 100th … drop.

import Locking
import Logging

public final class HouseholdDrops: Sendable {
    private let counts = Locked<[HouseholdDropReason: Int]>([:])
    private let logger: Logger

    public init(logger: Logger, initial: [HouseholdDropReason: Int] = [:]) {
        self.logger = logger
        counts.withLock { $0 = initial }
    }

    /// Counts one message dropped for `reason`, from the topic it came on.
    public func drop(_ reason: HouseholdDropReason, topic: String) {
        let count = counts.withLock { counts -> Int in
            counts[reason, default: 0] += 1
            return counts[reason]!
        }
        var power = 1
        while power < count { power *= 10 }
        guard power == count else { return }
        if reason == .flooding {
            // Not refused: a hello within the interval of the last answer to that member is kept
            // and answered when the interval ends (HouseholdReplication), so it is no sign of a
            // stranger; counted so a member that floods shows in the figures.
            logger.notice("MQTT household: deferred a hello on \(topic) (\(reason.rawValue)): answered when the interval since the last answer ends; \(count) deferred so far")
        } else {
            logger.warning("MQTT household: dropped a message on \(topic) (\(reason.rawValue)); \(count) dropped for that reason so far: only bridges with household.key are believed")
        }
    }

    public var snapshot: [HouseholdDropReason: Int] { counts.withLock { $0 } }
}
