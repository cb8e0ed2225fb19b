// The daemon's syncs since it started, per bottle and outcome: what `/metrics` shows as
// `aquavate_syncs_total{bottle,outcome}` (the history keeps drinks, not sync rounds).

import Locking

public final class SyncTally: Sendable {
    private let counts = Locked<[Key: Int]>([:])

    public struct Key: Hashable, Sendable {
        public var bottle: String
        /// `complete`, `empty`, `interrupted`, `rejected`.
        public var outcome: String

        public init(bottle: String, outcome: String) {
            self.bottle = bottle
            self.outcome = outcome
        }
    }

    public init() {}

    public func count(bottle: String, outcome: String) {
        counts.withLock { $0[Key(bottle: bottle, outcome: outcome), default: 0] += 1 }
    }

    public var snapshot: [Key: Int] { counts.withLock { $0 } }
}
