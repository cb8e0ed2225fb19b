// Locked: the try-lock a caller with another way to get its work done uses instead of waiting.

import Locking
import Testing

@Suite struct LockedTests {
    @Test func aHeldLockIsNotWaitedForAndAFreeOneIsTaken() {
        let locked = Locked(1)
        // Held (here by this very thread, inside withLock): the try gives up at once.
        let whileHeld: Int? = locked.withLock { _ in locked.withLockIfAvailable { $0 } }
        #expect(whileHeld == nil)
        let whenFree = locked.withLockIfAvailable { value -> Int in
            value += 1
            return value
        }
        #expect(whenFree == 2)
        #expect(locked.withLock { $0 } == 2)
    }
}
