// A value shared between threads, guarded by a pthread mutex.
//
// Why not the standard library's `Synchronization.Mutex`: on Linux it locks with raw futex system
// calls, which ThreadSanitizer does not see. Every access a Mutex guards is then reported as a
// data race (a ten-line program with two threads appending under one Mutex is enough), and
// `swift test --sanitize=thread` drowns real races in that noise. pthread_mutex_lock and
// pthread_mutex_unlock are intercepted by ThreadSanitizer, so what this lock guards is checked.
//
// The rule of this project for every lock: never resume a continuation or cancel a task while
// holding it (a cancellation handler runs under the task's status lock and may take ours;
// swift/stdlib docs of withTaskCancellationHandler).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package final class Locked<Value>: @unchecked Sendable {
    // Not for a zero-sized Value (`Locked(())`): ThreadSanitizer then places Swift's access to the
    // value at the object's own address and reports races with reads of the object header. A lock
    // guards some state; give it that state.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the value, exclusively.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Runs `body` with the value if no other thread holds the lock now; nil (and `body` not
    /// run) otherwise. For a caller that has another way to get its work done and must not
    /// wait (a task on the cooperative pool, whose few threads must not block).
    package func withLockIfAvailable<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result? {
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
