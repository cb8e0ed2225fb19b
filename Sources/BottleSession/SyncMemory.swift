// What the bridge remembers about one bottle between connections: the unsynced count that gave
// an empty sync. docs/protocol.md B2: deleted-but-unsynced records keep `unsynced_count` above zero
// forever while START sends nothing; retrying on every connection would be a START loop.

import Locking

package final class SyncMemory: Sendable {
    private let wedged = Locked<Int?>(nil)

    package init() {}

    /// The unsynced count that produced an empty sync, if any.
    package var wedgedCount: Int? { wedged.withLock { $0 } }

    /// Whether a sync with this count is known to send nothing. A different count (a new drink,
    /// a delete, a sleep that reset the bottle's state) means it is worth trying again, and
    /// forgets the old one.
    func isWedged(at unsynced: Int) -> Bool {
        wedged.withLock { remembered in
            if remembered == unsynced { return true }
            remembered = nil
            return false
        }
    }

    func rememberEmptySync(at unsynced: Int) {
        wedged.withLock { $0 = unsynced }
    }

    func forget() {
        wedged.withLock { $0 = nil }
    }
}
