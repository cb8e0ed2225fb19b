// A scripted `BottleLink` in front of a `FakeBottle`, for any test that runs a bottle session
// without a bus (bleak-retry-connector's fake-client pattern, docs/bluez.md 6): it behaves as BlueZ would toward the session — notifications only for
// subscribed characteristics, a read's echo as a notification (docs/bluez.md 7.2), notifications cut
// to MTU − 3 bytes (docs/protocol.md B1), operations on a dropped link failing with `LinkLost`.
// Waiting costs no time: when nothing is queued, a wait "times out" at once and moves the fake
// clock on by the time-out, which is recorded so tests can check it.

import AquavateProtocol
import BlueZ
import BottleSession
import History
import Locking
import Timekeeping

/// The test's clock.
package final class FakeClock: WallClock {
    private let time: Locked<WallInstant>
    package init(_ start: WallInstant = WallInstant(secondsSince1970: 1_763_720_000)) { time = Locked(start) }
    package var now: WallInstant { time.withLock { $0 } }
    package func advance(by duration: Duration) {
        time.withLock { $0 += duration }
    }
}

/// What happened, in order, across the link and the store.
package final class Journal: Sendable {
    package enum Entry: Equatable, Sendable {
        case subscribe(Characteristic)
        case read(Characteristic)
        case write(Characteristic, [UInt8])
        case commit(records: Int)
        case disconnect
    }

    private let entries = Locked<[Entry]>([])
    package init() {}
    package func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
    package var all: [Entry] { entries.withLock { $0 } }

    /// The sync traffic as words: `start`, `ack`, `commit17`, …
    package var syncWords: [String] {
        all.compactMap { entry in
            switch entry {
            case .write(.syncControl, let bytes):
                switch (try? SyncControl(decoding: bytes))?.command {
                case .start?: return "start"
                case .ack?: return "ack"
                case .query?: return "query"
                default: return "sync?"
                }
            case .commit(let records): return "commit\(records)"
            default: return nil
            }
        }
    }
}

/// The history, with every successful commit written to the journal AFTER it returned; a
/// commit can be made to fail.
package final class RecordingStore: DrinkKeeper {
    package let history: DrinkHistory
    package let journal: Journal
    private let failing: Locked<Set<Int>>
    private let commits = Locked(0)

    /// `failCommits`: 1-based numbers of the commits that throw.
    package init(journal: Journal, history: DrinkHistory? = nil, failCommits: Set<Int> = []) throws {
        self.history = try history ?? DrinkHistory(path: nil)
        self.journal = journal
        self.failing = Locked(failCommits)
    }

    package struct DiskFull: Error, CustomStringConvertible { package var description: String { "disk full" } }

    package func store(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant) throws -> [StoreResult] {
        let number = commits.withLock { count -> Int in
            count += 1
            return count
        }
        if failing.withLock({ $0.contains(number) }) { throw DiskFull() }
        let results = try history.drinks.store(records, bottle: bottle, at: storedAt)
        journal.append(.commit(records: records.count))
        return results
    }
}

package final class FakeLink: BottleLink {
    package let bottle: FakeBottle
    package let clock: FakeClock
    package let journal: Journal
    package let address: String
    package let name: String?
    private let negotiatedMTU: Int?
    /// BlueZ's battery plugin hides 0x180F: the battery comes from `org.bluez.Battery1`.
    private let batteryHidden: Bool

    private struct LinkState {
        var queue: [LinkEvent] = []
        var lost: String?
        var notifying: Set<Characteristic> = []
        var timeouts: [Duration] = []
        var disconnects = 0
    }
    private let state = Locked(LinkState())

    package init(bottle: FakeBottle, clock: FakeClock, journal: Journal, mtu: Int? = 247, batteryHidden: Bool = false,
         address: String = "f4:12:fa:00:a3:f4", name: String? = "Aquavate-A3F2") {
        self.bottle = bottle
        self.clock = clock
        self.journal = journal
        self.negotiatedMTU = mtu
        self.batteryHidden = batteryHidden
        self.address = address
        self.name = name
    }

    /// Time-outs the session waited with, in order.
    package var timeouts: [Duration] { state.withLock { $0.timeouts } }
    package var disconnects: Int { state.withLock { $0.disconnects } }

    /// Queues an event as if BlueZ had sent it.
    package func inject(_ event: LinkEvent) { state.withLock { $0.queue.append(event) } }

    /// Drops the link now (supervision time-out).
    package func drop(_ reason: String = "disconnected") {
        state.withLock { state in
            guard state.lost == nil else { return }
            state.lost = reason
            state.queue.append(.lost(reason))
        }
    }

    private func checkLink() throws {
        if state.withLock({ $0.lost }) != nil { throw LinkLost(device: address, reason: .disconnected) }
    }

    // MARK: BottleLink

    package func mtu() async -> Int? { negotiatedMTU }

    package func offers(_ characteristic: Characteristic) -> Bool {
        characteristic != .batteryLevel || !batteryHidden
    }

    package func read(_ characteristic: Characteristic) async throws -> [UInt8] {
        try checkLink()
        journal.append(.read(characteristic))
        let value: [UInt8]
        switch characteristic {
        case .syncControl: value = bottle.syncControlValue()
        case .currentState: value = bottle.currentStateValue()
        case .drinkData: value = bottle.drinkDataValue()
        case .bottleConfig:
            value = BottleConfig(scaleFactor: 300, tareWeightGrams: 100, bottleCapacityML: 830, dailyGoalML: 2000).encoded()
        case .batteryLevel: value = [80]
        default: value = []
        }
        // docs/bluez.md 7.2: a read updates Value, which a StartNotify client receives as a notification.
        state.withLock { state in
            if state.notifying.contains(characteristic) { state.queue.append(.value(characteristic, value)) }
        }
        return value
    }

    package func write(_ characteristic: Characteristic, _ value: [UInt8]) async throws {
        try checkLink()
        journal.append(.write(characteristic, value))
        switch characteristic {
        case .command:
            bottle.writeCommand(value)
        case .syncControl:
            let limit = (negotiatedMTU ?? 23) - 3
            let drop = bottle.faults.dropLinkAfterChunk
            for reply in bottle.writeSyncControl(value) {
                state.withLock { state in
                    switch reply {
                    case .drinkData(let bytes, let index):
                        if state.notifying.contains(.drinkData) {
                            state.queue.append(.value(.drinkData, Array(bytes.prefix(limit))))
                        }
                        if index == drop, state.lost == nil {
                            state.lost = "disconnected"
                            state.queue.append(.lost("disconnected"))
                        }
                    case .currentState(let bytes):
                        if state.notifying.contains(.currentState) { state.queue.append(.value(.currentState, bytes)) }
                    }
                }
            }
        default:
            break
        }
    }

    package func startNotifications(_ characteristic: Characteristic) async throws {
        try checkLink()
        journal.append(.subscribe(characteristic))
        state.withLock { _ = $0.notifying.insert(characteristic) }
    }

    package func startBatteryReports() async throws -> Int? {
        if batteryHidden { return 80 }
        try await startNotifications(.batteryLevel)
        return try await read(.batteryLevel).first.map(Int.init)
    }

    package func nextEvent(within timeout: Duration) async -> LinkEvent? {
        let event = state.withLock { state -> LinkEvent? in
            if !state.queue.isEmpty { return state.queue.removeFirst() }
            if let lost = state.lost { return .lost(lost) }
            state.timeouts.append(timeout)
            return nil
        }
        if event == nil { clock.advance(by: timeout) }
        return event
    }

    package func disconnect() async {
        journal.append(.disconnect)
        state.withLock { state in
            state.disconnects += 1
            if state.lost == nil { state.lost = "disconnected by the bridge" }
        }
    }
}
