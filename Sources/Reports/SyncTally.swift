// The daemon's syncs since it started, per bottle and outcome: what `/metrics` shows as
// `aquavate_syncs_total{bottle,outcome}` (the history keeps drinks, not sync rounds).

import Locking

package final class SyncTally: Sendable {
    private let counts = Locked<[Key: Int]>([:])

    package struct Key: Hashable, Sendable {
        package var bottle: String
        /// `complete`, `empty`, `interrupted`, `rejected`.
        package var outcome: String

        package init(bottle: String, outcome: String) {
            self.bottle = bottle
            self.outcome = outcome
        }
    }

    package init() {}

    package func count(bottle: String, outcome: String) {
        counts.withLock { $0[Key(bottle: bottle, outcome: outcome), default: 0] += 1 }
    }

    package var snapshot: [Key: Int] { counts.withLock { $0 } }
}
