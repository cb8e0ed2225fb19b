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
        if power == count {
            logger.warning("MQTT household: dropped a message on \(topic) (\(reason.rawValue)); \(count) dropped for that reason so far: only bridges with household.key are believed")
        }
    }

    public var snapshot: [HouseholdDropReason: Int] { counts.withLock { $0 } }
}
