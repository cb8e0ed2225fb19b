// Work that reads the database runs here, off the Swift concurrency pool: GRDB's reads block
// their thread, and on a 2-core Pi the pool has two threads the daemon's Bluetooth path needs. Two
// serial queues: as many pages at once as there are cores, the rest wait their turn in order.

import Dispatch
import Locking

enum WebWork {
    private static let queues = [DispatchQueue(label: "aquavate-web-1"), DispatchQueue(label: "aquavate-web-2")]
    private static let next = Locked(0)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        let index = next.withLock { value -> Int in
            value &+= 1
            return value
        }
        let queue = queues[index % queues.count]
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try body() }) }
        }
    }
}
