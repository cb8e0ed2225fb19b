// When a bottle is stuck (docs/design.md 3.4), as the one ingest path decides it for live and
// replay alike: the same structural refusal at the end of 3 connections in a row; a different
// refusal starts the count again; a complete sync, or a bottle that has nothing left to sync
// (synced elsewhere), clears it. And a sync reports the records it quarantined.

import AquavateProtocol
import History
import Ingest
import Locking
import Logging
import Reports
import Testing
import Timekeeping

@Suite struct StuckBottleTests {
    let bottle = "F4:12:FA:00:A3:F2"
    let history: DrinkHistory
    let ingest: BottleIngest
    let events: Locked<[BridgeEvent]>

    init() throws {
        history = try DrinkHistory(path: nil)
        let events = Locked<[BridgeEvent]>([])
        self.events = events
        ingest = BottleIngest(history: history, bottleID: bottle, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                              emit: { event in events.withLock { $0.append(event) } }, remind: { _ in })
    }

    func connection(refusal: String?, at time: Double, unsynced: UInt16 = 5) {
        ingest.heard(CurrentState(timestamp: UInt32(time), currentWeightG: 300, bottleLevelML: 400, dailyTotalML: 0, batteryPercent: 80,
                                  flags: [], unsyncedCount: unsynced), at: .init(secondsSince1970: time))
        ingest.syncEnded(refusal == nil ? .complete : .rejected, records: 0, chunks: 0, refusal: refusal, at: .init(secondsSince1970: time + 1))
        ingest.disconnected(at: .init(secondsSince1970: time + 2))
    }

    var refusal: SyncRefusal? { (try? history.bottles.bottle(id: bottle))?.refusal }

    @Test func threeConnectionsInARowWithTheSameRefusalMakeItStuck() {
        connection(refusal: "chunk 0 announces 255 chunks", at: 1_000)
        connection(refusal: "chunk 0 announces 255 chunks", at: 2_000)
        #expect(refusal?.connections == 2 && refusal?.isStuck == false)
        connection(refusal: "chunk 0 announces 255 chunks", at: 3_000)
        #expect(refusal == SyncRefusal(reason: "chunk 0 announces 255 chunks", since: WallInstant(secondsSince1970: 1_002), connections: 3))
        #expect(refusal?.isStuck == true)
        // Another refusal is another fault: counted from 1, since then.
        connection(refusal: "chunk 1 is past the last of 1", at: 4_000)
        #expect(refusal == SyncRefusal(reason: "chunk 1 is past the last of 1", since: WallInstant(secondsSince1970: 4_002), connections: 1))
    }

    @Test func aCompleteSyncClearsIt() {
        for time in [1_000.0, 2_000, 3_000] { connection(refusal: "r", at: time) }
        #expect(refusal?.isStuck == true)
        connection(refusal: nil, at: 4_000)
        #expect(refusal == nil)
    }

    @Test func aBottleWithNothingLeftToSyncIsNotStuck() {
        for time in [1_000.0, 2_000, 3_000] { connection(refusal: "r", at: time) }
        // Synced by the phone app meanwhile: no sync at all, the bottle says 0 unsynced.
        ingest.heard(CurrentState(timestamp: 5_000, currentWeightG: 300, bottleLevelML: 400, dailyTotalML: 0, batteryPercent: 80,
                                  flags: [], unsyncedCount: 0), at: WallInstant(secondsSince1970: 5_000))
        ingest.disconnected(at: WallInstant(secondsSince1970: 5_001))
        #expect(refusal == nil)
    }

    @Test func aSyncSaysHowManyRecordsItQuarantined() throws {
        let now = 1_795_248_000.0
        let records = [DrinkRecord(recordID: 1, timestamp: UInt32(now) - 60, amountML: 100, bottleLevelML: 400, typeRaw: 0, flagsRaw: 0),
                       DrinkRecord(recordID: 2, timestamp: 259_200, amountML: 100, bottleLevelML: 300, typeRaw: 0, flagsRaw: 0)]
        try ingest.storeAndSay(records, bottle: bottle, at: .init(secondsSince1970: now))
        ingest.syncEnded(.complete, records: 2, chunks: 1, at: .init(secondsSince1970: now))
        let said = events.withLock { $0 }
        let quarantined = said.compactMap { event -> BridgeEvent.QuarantinedEvent? in
            if case .quarantined(let entry) = event { return entry }
            return nil
        }
        #expect(quarantined.map(\.recordID) == [2] && quarantined.first?.time.secondsSince1970 == now && quarantined.first?.problems == [.time])
        #expect(said.contains { if case .sync(let sync) = $0 { return sync.quarantined == 1 } else { return false } })
        #expect(said.filter { if case .drink = $0 { return true } else { return false } }.count == 1, "the odd one is no drink")
    }
}
