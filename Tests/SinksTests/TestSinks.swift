// Sinks with scripted behaviour for the hub tests.

import AquavateProtocol
import BusTestSupport
import Foundation
import Timekeeping
@testable import MQTT
@testable import Sinks

/// Records everything it is given.
final class RecordingSink: NotificationSink, @unchecked Sendable {
    let name: String
    let notifications = Recorder<SinkNotification>()
    let snapshots = Recorder<BridgeSnapshot>()
    let drinks = Recorder<Drink>()
    private let lock = NSLock()
    private var storedContext: SinkContext?
    let stopped = Recorder<Bool>()

    init(name: String = "recording") {
        self.name = name
    }

    var publishesState: Bool { true }

    var context: SinkContext? {
        lock.lock()
        defer { lock.unlock() }
        return storedContext
    }

    func start(_ context: SinkContext) async { remember(context) }

    private func remember(_ context: SinkContext) {
        lock.lock()
        storedContext = context
        lock.unlock()
    }

    func stop() async { stopped.append(true) }
    func deliver(_ notification: SinkNotification) async throws { notifications.append(notification) }
    func publish(_ snapshot: BridgeSnapshot) async throws { snapshots.append(snapshot) }
    func publish(_ drink: Drink) async throws { drinks.append(drink) }
}

/// Fails its first `failures` attempts (with `error`), then delivers.
final class FlakySink: NotificationSink, @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var remainingFailures: Int
    private let error: SinkDeliveryError
    let attempts = Recorder<String>()
    let delivered = Recorder<SinkNotification>()
    let snapshots = Recorder<BridgeSnapshot>()
    private var storedContext: SinkContext?

    var context: SinkContext? {
        lock.lock()
        defer { lock.unlock() }
        return storedContext
    }

    func start(_ context: SinkContext) async { remember(context) }

    private func remember(_ context: SinkContext) {
        lock.lock()
        storedContext = context
        lock.unlock()
    }

    init(name: String = "flaky", failures: Int, error: SinkDeliveryError = .unavailable("connection refused")) {
        self.name = name
        self.remainingFailures = failures
        self.error = error
    }

    func setRemainingFailures(_ count: Int) {
        lock.lock()
        remainingFailures = count
        lock.unlock()
    }

    private func shouldFail() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if remainingFailures > 0 {
            remainingFailures -= 1
            return true
        }
        return false
    }

    func deliver(_ notification: SinkNotification) async throws {
        attempts.append(notification.id)
        if shouldFail() { throw error }
        delivered.append(notification)
    }

    var publishesState: Bool { true }

    func publish(_ snapshot: BridgeSnapshot) async throws {
        attempts.append("state")
        if shouldFail() { throw error }
        snapshots.append(snapshot)
    }
}

/// Its first delivery never returns until `release()` (or `stop()`); later ones are recorded.
final class HangingSink: NotificationSink, @unchecked Sendable {
    let name = "hanging"
    private let lock = NSLock()
    private var gate: CheckedContinuation<Void, Never>?
    private var released = false
    private var hungOnce = false
    let entered = Recorder<String>()
    let delivered = Recorder<SinkNotification>()

    func deliver(_ notification: SinkNotification) async throws {
        entered.append(notification.id)
        let hang: Bool = {
            lock.lock()
            defer { lock.unlock() }
            if hungOnce || released { return false }
            hungOnce = true
            return true
        }()
        if hang {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                lock.lock()
                if released {
                    lock.unlock()
                    continuation.resume()
                } else {
                    gate = continuation
                    lock.unlock()
                }
            }
        }
        delivered.append(notification)
    }

    func release() {
        lock.lock()
        released = true
        let gate = self.gate
        self.gate = nil
        lock.unlock()
        gate?.resume()
    }

    func stop() async { release() }
}

func notification(_ id: String, kind: String = "reminder", time: Double = 1_763_712_000) -> SinkNotification {
    SinkNotification(id: id, kind: kind, title: "Hydration Reminder", body: "Time to hydrate! You're 300ml behind pace.",
                     time: WallInstant(secondsSince1970: time))
}

func snapshot(total: Int, time: Double = 1_763_712_000) -> BridgeSnapshot {
    BridgeSnapshot(time: WallInstant(secondsSince1970: time), dayTotalML: total, goalML: 2500, bottleLevelML: 420, batteryPercent: 87,
                   urgency: .attention, deficitML: 300, remindersToday: 2, dailyLimit: true,
                   lastSync: WallInstant(secondsSince1970: time - 180), unsynced: 0, bottleConnected: true)
}

/// Takes notifications only, like the journal: counts any state it is offered all the same.
final class NotesOnlySink: NotificationSink, @unchecked Sendable {
    let name = "notes-only"
    let notifications = Recorder<SinkNotification>()
    let offered = Recorder<String>()

    var reachesAPerson: Bool { false }
    func deliver(_ notification: SinkNotification) async throws { notifications.append(notification) }
    func publish(_ snapshot: BridgeSnapshot) async throws { offered.append("state") }
    func publish(_ drink: Drink) async throws { offered.append("drink") }
}

/// What a message says on the wire (its JSON text), as a tree to look into key by key.
func tree(_ message: some WireMessage) -> JSONTree { JSONTree.parse(message.text) ?? .null }
