// A scripted bottle for any test that needs one behind a `BottleLink`: the firmware's sync state
// machine (docs/protocol.md 4.3, including its bugs B2-B4), the MTU truncation of notifications
// (B1), and switches for faults.
// It knows nothing about D-Bus; `FakeLink` puts it behind the `BottleLink` protocol.

import AquavateProtocol
import Locking

package final class FakeBottle: Sendable {
    package struct Slot: Sendable {
        package var record: DrinkRecord
        package var synced = false
        package var deleted = false
    }

    package struct Faults: Sendable {
        /// The link drops right after chunk k is notified (k counted within one START).
        package var dropLinkAfterChunk: Int?
        /// The bottle sends nothing more after chunk k (a lost notification, B3).
        package var silentAfterChunk: Int?
        /// Use this chunk size whatever START asks (20: what the iOS app asks, B1).
        package var chunkSizeOverride: Int?
        /// The forced Current State notification after the last ACK (4.3).
        package var notifyCurrentStateOnSync = true

        package init(dropLinkAfterChunk: Int? = nil, silentAfterChunk: Int? = nil, chunkSizeOverride: Int? = nil,
                     notifyCurrentStateOnSync: Bool = true) {
            self.dropLinkAfterChunk = dropLinkAfterChunk
            self.silentAfterChunk = silentAfterChunk
            self.chunkSizeOverride = chunkSizeOverride
            self.notifyCurrentStateOnSync = notifyCurrentStateOnSync
        }
    }

    private struct State {
        var ring: [Slot] = []
        var nextID: UInt32 = 1
        var inProgress = false
        var loaded: [DrinkRecord] = []
        var chunkSize = 20
        var chunk = 0
        var lastChunk: [UInt8] = DrinkDataChunk.placeholder.encoded()
        var faults = Faults()
        var starts: [SyncControl] = []
        var acks = 0
        var pings = 0
        var setTimes: [UInt32] = []
    }

    private let state = Locked(State())

    package init(faults: Faults = Faults()) {
        state.withLock { $0.faults = faults }
    }

    // MARK: Setting up

    /// Adds `count` drinks, one a minute from `time`.
    package func addDrinks(_ count: Int, from time: UInt32 = 1_763_712_000, deleted: Bool = false) {
        state.withLock { state in
            for index in 0..<count {
                let record = DrinkRecord(recordID: state.nextID, timestamp: time + UInt32(index) * 60,
                                         amountML: Int16(50 + state.nextID % 100), bottleLevelML: 400,
                                         typeRaw: 0, flagsRaw: 0)
                state.ring.append(Slot(record: record, deleted: deleted))
                state.nextID += 1
            }
        }
    }

    /// Marks the slots with these ids synced (as an earlier sync would have).
    package func markSynced(ids: Set<UInt32>) {
        state.withLock { state in
            for index in state.ring.indices where ids.contains(state.ring[index].record.recordID) {
                state.ring[index].synced = true
            }
        }
    }

    package var faults: Faults {
        get { state.withLock { $0.faults } }
        set { state.withLock { $0.faults = newValue } }
    }

    // MARK: Looking

    /// Records with the synced bit clear, deleted ones included (4.1).
    package var unsyncedCount: Int { state.withLock { $0.ring.filter { !$0.synced }.count } }
    package var records: [DrinkRecord] { state.withLock { $0.ring.map(\.record) } }
    package var liveRecords: [DrinkRecord] { state.withLock { $0.ring.filter { !$0.deleted }.map(\.record) } }
    package var starts: [SyncControl] { state.withLock { $0.starts } }
    package var acks: Int { state.withLock { $0.acks } }
    package var pings: Int { state.withLock { $0.pings } }
    package var setTimes: [UInt32] { state.withLock { $0.setTimes } }
    package var isInProgress: Bool { state.withLock { $0.inProgress } }

    // MARK: Reads

    package func syncControlValue() -> [UInt8] {
        state.withLock { state in
            SyncControl.readValue(unsyncedCount: UInt16(state.ring.filter { !$0.synced }.count),
                                  status: state.inProgress ? .inProgress : .idle,
                                  chunkSize: UInt16(state.chunkSize)).encoded()
        }
    }

    package func currentStateValue() -> [UInt8] {
        state.withLock { state in
            CurrentState(timestamp: 1_763_712_000, currentWeightG: 400, bottleLevelML: 400, dailyTotalML: 250,
                         batteryPercent: 80, flags: [.timeValid, .calibrated, .stable],
                         unsyncedCount: UInt16(state.ring.filter { !$0.synced }.count)).encoded()
        }
    }

    /// The readable Drink Data: the whole last chunk (a long read is not truncated, 4.4).
    package func drinkDataValue() -> [UInt8] { state.withLock { $0.lastChunk } }

    // MARK: Writes

    /// What the bottle sends in answer to a write: notifications, in order, untruncated.
    package enum Reply: Equatable {
        case drinkData([UInt8], index: Int)
        case currentState([UInt8])
    }

    package func writeCommand(_ bytes: [UInt8]) {
        state.withLock { state in
            switch Command.parse(bytes) {
            case .setTime(let seconds)?: state.setTimes.append(seconds)
            case .ping?: state.pings += 1
            default: break
            }
        }
    }

    package func writeSyncControl(_ bytes: [UInt8]) -> [Reply] {
        guard let control = try? SyncControl(decoding: bytes) else { return [] }
        return state.withLock { state -> [Reply] in
            switch control.command {
            case .query:
                state.inProgress = false
                return []
            case .start:
                state.starts.append(control)
                let syncSet = state.ring.filter { !$0.synced && !$0.deleted }.map(\.record)
                state.loaded = Array(syncSet.prefix(Int(control.count)))
                state.chunkSize = state.faults.chunkSizeOverride ?? control.effectiveChunkSize
                state.chunk = 0
                state.inProgress = true
                return state.loaded.isEmpty ? [] : [Self.chunkReply(&state)]
            case .ack:
                state.acks += 1
                guard state.inProgress else { return [] }
                state.chunk += 1
                let total = ChunkSizing.totalChunks(records: state.loaded.count, chunkSize: state.chunkSize)
                if state.chunk < total {
                    if let silent = state.faults.silentAfterChunk, state.chunk > silent { return [] }
                    return [Self.chunkReply(&state)]
                }
                // Mark-synced rule (4.3): the first R records with the synced bit clear, deleted included.
                var remaining = state.loaded.count
                for index in state.ring.indices where remaining > 0 && !state.ring[index].synced {
                    state.ring[index].synced = true
                    remaining -= 1
                }
                state.inProgress = false
                return state.faults.notifyCurrentStateOnSync ? [.currentState(Self.stateBytes(state))] : []
            case .unknown:
                return []
            }
        }
    }

    private static func stateBytes(_ state: State) -> [UInt8] {
        CurrentState(timestamp: 1_763_712_000, currentWeightG: 400, bottleLevelML: 400, dailyTotalML: 250,
                     batteryPercent: 80, flags: [.timeValid, .calibrated, .stable],
                     unsyncedCount: UInt16(state.ring.filter { !$0.synced }.count)).encoded()
    }

    private static func chunkReply(_ state: inout State) -> Reply {
        let total = ChunkSizing.totalChunks(records: state.loaded.count, chunkSize: state.chunkSize)
        let start = state.chunk * state.chunkSize
        let records = Array(state.loaded[start..<min(start + state.chunkSize, state.loaded.count)])
        let bytes = DrinkDataChunk(chunkIndex: UInt16(state.chunk), totalChunks: UInt16(total), records: records).encoded()
        state.lastChunk = bytes
        return .drinkData(bytes, index: state.chunk)
    }
}
