// Requests for the same thing at the same time share one rendering: a hundred clients asking for
// the page while it is being drawn get that drawing, not a hundred queued behind each other on a
// two-core Pi. Nothing is kept afterwards (no cache, nothing stale): a request that arrives once a
// rendering is done starts a new one.

import Locking

final class SharedRenders: Sendable {
    private let inFlight = Locked<[String: Task<[UInt8], any Error>]>([:])

    /// The bytes of `key`: those of the rendering under way, else of a new one by `render`.
    func bytes(for key: String, _ render: @escaping @Sendable () async throws -> [UInt8]) async throws -> [UInt8] {
        let task = inFlight.withLock { tasks -> Task<[UInt8], any Error> in
            if let running = tasks[key] { return running }
            let started = Task { try await render() }
            tasks[key] = started
            return started
        }
        defer { inFlight.withLock { tasks in if tasks[key] == task { tasks[key] = nil } } }
        return try await task.value
    }
}
