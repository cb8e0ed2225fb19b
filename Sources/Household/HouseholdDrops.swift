// What the household link did not believe, counted by reason (docs/household.md): the figures of
// `aquavate_household_dropped_messages_total{reason}` and of `doctor`. A flood of forged messages
// must not become a flood of log lines, so a reason is logged at its 1st, 10th, 100th … drop.
// A member's hello that comes too soon is not among them: it is deferred, not refused (answered
// when the interval ends), so it is counted apart and never reaches the figures that say "someone
// on the broker writes without the key" (a broker's restart makes one every time).

import Locking
import Logging

package final class HouseholdDrops: Sendable {
    private let counts = Locked<[HouseholdDropReason: Int]>([:])
    private let deferred = Locked<Int>(0)
    private let logger: Logger

    package init(logger: Logger, initial: [HouseholdDropReason: Int] = [:]) {
        self.logger = logger
        counts.withLock { $0 = initial }
    }

    /// Counts one message dropped for `reason`, from the topic it came on.
    package func drop(_ reason: HouseholdDropReason, topic: String) {
        let count = counts.withLock { counts -> Int in
            counts[reason, default: 0] += 1
            return counts[reason]!
        }
        guard Self.isPowerOfTen(count) else { return }
        logger.warning("MQTT household: dropped a message on \(topic) (\(reason.rawValue)); \(count) dropped for that reason so far: only bridges with household.key are believed")
    }

    /// Counts a member's hello kept for later: it came within the interval after the last answer
    /// to that member (HouseholdReplication answers it when the interval ends).
    package func deferHello(topic: String) {
        let count = deferred.withLock { count -> Int in
            count += 1
            return count
        }
        guard Self.isPowerOfTen(count) else { return }
        logger.notice("MQTT household: deferred a hello on \(topic): answered when the interval since the last answer ends; \(count) deferred so far")
    }

    /// The hellos deferred since this link started (not saved: they are no sign of trouble).
    package var deferredHellos: Int { deferred.withLock { $0 } }

    /// 1, 10, 100 …: the counts at which a line is logged.
    private static func isPowerOfTen(_ count: Int) -> Bool {
        var power = 1
        while power < count { power *= 10 }
        return power == count
    }

    package var snapshot: [HouseholdDropReason: Int] { counts.withLock { $0 } }
}
