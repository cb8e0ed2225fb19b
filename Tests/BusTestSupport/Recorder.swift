// Collects values arriving from other threads (log lines, MQTT messages, deliveries) and lets a
// test wait until they satisfy a condition. Waiting is event-driven; the timeout is only a
// safety net so that a broken build fails instead of hanging, never a timing assertion.

import Foundation

package struct WaitTimedOut: Error, CustomStringConvertible {
    package var what: String
    package init(what: String) { self.what = what }
    package var description: String { "timed out waiting for \(what)" }
}

package final class Recorder<Element: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []
    private var waiters: [Int: (condition: ([Element]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0

    package init() {}

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    package var all: [Element] { locked { elements } }

    package func append(_ element: Element) {
        let ready: [CheckedContinuation<Void, Never>] = locked {
            elements.append(element)
            let satisfied = waiters.filter { $0.value.condition(elements) }
            for key in satisfied.keys { waiters.removeValue(forKey: key) }
            return satisfied.map(\.value.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    package func removeAll() { locked { elements.removeAll() } }

    /// Returns the elements once `condition` holds for them.
    @discardableResult
    package func wait(for what: String = "a condition", timeout: Double = 20,
              until condition: @escaping @Sendable ([Element]) -> Bool) async throws -> [Element] {
        let id: Int = locked {
            nextWaiter += 1
            return nextWaiter
        }
        let satisfied = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let resumeNow: Bool = self.locked {
                            if condition(self.elements) || Task.isCancelled { return true }
                            self.waiters[id] = (condition, continuation)
                            return false
                        }
                        if resumeNow { continuation.resume() }
                    }
                } onCancel: {
                    let continuation = self.locked { self.waiters.removeValue(forKey: id)?.continuation }
                    continuation?.resume()
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
                return false
            }
            let first = await group.next()!
            group.cancelAll()
            return first && condition(self.all)
        }
        guard satisfied else { throw WaitTimedOut(what: what) }
        return all
    }

    @discardableResult
    package func waitForCount(_ count: Int, _ what: String = "values", timeout: Double = 20) async throws -> [Element] {
        try await wait(for: "\(count) \(what)", timeout: timeout) { $0.count >= count }
    }
}
