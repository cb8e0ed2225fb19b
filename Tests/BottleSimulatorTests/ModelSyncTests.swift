// The sync state machine of docs/protocol.md 4.3 and its bugs (B2, B3, B4), driven on the model.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import Testing

@Suite struct ModelSyncTests {
    @Test func startSendsChunkZeroInsideTheWriteAndAcksWalkTheChunks() throws {
        var (bottle, _) = makeBottle(records: 40)
        #expect(bottle.readSyncControl() == SyncControl(count: 40, command: .query, status: .idle, chunkSize: 20))

        let first = bottle.start(count: 40, chunkSize: 17)
        #expect(first.chunks.map(\.chunkIndex) == [0])
        #expect(first.chunks[0].totalChunks == 3)
        #expect(first.chunks[0].records.map(\.recordID) == Array(1...17))
        #expect(bottle.readSyncControl() == SyncControl(count: 40, command: .query, status: .inProgress, chunkSize: 17))

        let second = bottle.ack()
        #expect(second.chunks.map(\.chunkIndex) == [1])
        #expect(second.chunks[0].records.map(\.recordID) == Array(18...34))
        let third = bottle.ack()
        #expect(third.chunks.map(\.chunkIndex) == [2])
        #expect(third.chunks[0].records.map(\.recordID) == Array(35...40))
        #expect(third.states.isEmpty)
        #expect(bottle.unsyncedCount == 40)  // nothing marked before the final ACK

        let final = bottle.ack()
        #expect(final.chunks.isEmpty)
        #expect(final.states.map(\.unsyncedCount) == [0])
        #expect(bottle.unsyncedCount == 0)
        #expect(bottle.records.allSatisfy { $0.flagsRaw == 0x01 })
        #expect(bottle.readSyncControl().status == .idle)
    }

    @Test func chunkSizeIsClampedToTwentyAndCountLimitsTheLoad() {
        for (requested, effective) in [(0, 20), (21, 20), (1000, 20), (1, 1), (20, 20), (17, 17)] {
            var (bottle, _) = makeBottle(records: 30)
            let events = bottle.start(count: 30, chunkSize: requested)
            #expect(events.chunks[0].records.count == effective, "chunk_size \(requested)")
            #expect(bottle.readSyncControl().chunkSize == UInt16(effective))
        }
        var (bottle, _) = makeBottle(records: 30)
        let events = bottle.start(count: 5, chunkSize: 17)
        #expect(events.chunks[0].records.map(\.recordID) == Array(1...5))
        #expect(events.chunks[0].totalChunks == 1)
        _ = bottle.ack()
        #expect(bottle.unsyncedCount == 25)
    }

    @Test func queryAbortsAndLaterAcksAreIgnored() {
        var (bottle, _) = makeBottle(records: 40)
        _ = bottle.start(count: 40, chunkSize: 17)
        _ = bottle.ack()
        #expect(bottle.query().isEmpty)
        #expect(bottle.readSyncControl().status == .idle)
        #expect(bottle.ack().isEmpty)
        #expect(bottle.ack().isEmpty)
        #expect(bottle.unsyncedCount == 40)
    }

    @Test func surplusAcksRunAheadAndMarkRecordsTheClientNeverStored() {
        var (bottle, _) = makeBottle(records: 40)
        _ = bottle.start(count: 40, chunkSize: 17)
        // The client got chunk 0 only, but sends three ACKs (a retried ACK, B3).
        _ = bottle.ack()
        _ = bottle.ack()
        let last = bottle.ack()
        #expect(last.states.map(\.unsyncedCount) == [0])
        #expect(bottle.unsyncedCount == 0)
        // An ACK on an idle bottle does nothing.
        #expect(bottle.ack().isEmpty)
    }

    @Test func wrongLengthsAndUnknownCommandsAreIgnored() {
        var (bottle, _) = makeBottle(records: 5)
        #expect(bottle.write(.syncControl, [0, 0, 5, 0, 1, 0, 17]).events.isEmpty)
        #expect(bottle.write(.syncControl, [0, 0, 5, 0, 1, 0, 17, 0, 0]).events.isEmpty)
        #expect(bottle.write(.syncControl, [0, 0, 5, 0, 7, 0, 17, 0]).events.isEmpty)
        #expect(bottle.readSyncControl().status == .idle)
    }

    @Test func deletedUnsyncedRecordsCauseDuplicatesExampleOne() {
        // B2 example 1: [#5 unsynced+deleted, #6, #7].
        var (bottle, _) = makeBottle(flags: [(5, 0x04), (6, 0x00), (7, 0x00)])
        #expect(bottle.unsyncedCount == 3)
        let start = bottle.start(count: 3, chunkSize: 17)
        #expect(start.chunks[0].records.map(\.recordID) == [6, 7])
        let done = bottle.ack()
        #expect(done.states.map(\.unsyncedCount) == [1])
        #expect(bottle.flagsByID == [5: 0x05, 6: 0x01, 7: 0x00])
        // #7 is sent again: a duplicate the client must de-duplicate.
        let again = bottle.start(count: 1, chunkSize: 17)
        #expect(again.chunks[0].records.map(\.recordID) == [7])
        #expect(bottle.ack().states.map(\.unsyncedCount) == [0])
    }

    @Test func aDeletedNewestRecordWedgesTheSyncExampleTwo() {
        // B2 example 2: [#6, #7, #8 unsynced+deleted].
        var (bottle, _) = makeBottle(flags: [(6, 0x00), (7, 0x00), (8, 0x04)])
        let start = bottle.start(count: 3, chunkSize: 17)
        #expect(start.chunks[0].records.map(\.recordID) == [6, 7])
        #expect(bottle.ack().states.map(\.unsyncedCount) == [1])
        #expect(bottle.flagsByID == [6: 0x01, 7: 0x01, 8: 0x04])
        // The wedge: R = 0, IN_PROGRESS and silence; the count stays 1 for ever.
        #expect(bottle.start(count: 1, chunkSize: 17).isEmpty)
        #expect(bottle.readSyncControl() == SyncControl(count: 1, command: .query, status: .inProgress, chunkSize: 17))
        #expect(bottle.start(count: 0, chunkSize: 17).isEmpty)
        #expect(bottle.unsyncedCount == 1)
    }

    @Test func theBenchmarkFixtureServesTheSameRecordsAtEveryConnection() {
        // `aquavate-sim --unsync-on-disconnect`: every connection syncs the same records.
        var (bottle, _) = makeBottle(records: 40) { $0.unsyncedAgainAfterDisconnect = true }
        _ = bottle.start(count: 40, chunkSize: 20)
        _ = bottle.ack()
        #expect(bottle.ack().states.map(\.unsyncedCount) == [0])
        bottle.linkDropped()
        #expect(bottle.unsyncedCount == 40)
        #expect(bottle.start(count: 40, chunkSize: 20).chunks[0].records.first?.recordID == 1)
        // Without it, a disconnect marks nothing back (the firmware).
        var (plain, _) = makeBottle(records: 40)
        _ = plain.start(count: 40, chunkSize: 20)
        _ = plain.ack()
        _ = plain.ack()
        plain.linkDropped()
        #expect(plain.unsyncedCount == 0)
    }

    @Test func syncStateSurvivesADisconnectAndAStrayAckContinues() {
        var (bottle, _) = makeBottle(records: 40)
        _ = bottle.start(count: 40, chunkSize: 17)
        bottle.linkDropped()
        #expect(bottle.readSyncControl().status == .inProgress)  // B4
        let stray = bottle.ack()
        #expect(stray.chunks.map(\.chunkIndex) == [1])
        // A sleep resets everything.
        bottle.sleep()
        bottle.wake()
        #expect(bottle.readSyncControl() == SyncControl(count: 40, command: .query, status: .idle, chunkSize: 20))
        #expect(bottle.ack().isEmpty)
        #expect(bottle.value(of: .drinkData) == [0, 0, 0, 0, 0, 0])
    }

    @Test func drinkDataReadReturnsTheFullLastChunk() throws {
        var (bottle, _) = makeBottle(records: 40)
        #expect(bottle.read(.drinkData) == DrinkDataChunk.placeholder.encoded())
        let events = bottle.start(count: 40, chunkSize: 20)
        #expect(events.notified(.drinkData)[0].count == 286)  // 6 + 20 × 14: too long for one notification
        #expect(bottle.read(.drinkData).count == 286)
        #expect(try DrinkDataChunk(decoding: bottle.read(.drinkData)).records.count == 20)
    }

    @Test func recordsAddedDuringASyncAreNotPartOfIt() {
        var (bottle, _) = makeBottle(records: 3)
        _ = bottle.start(count: 3, chunkSize: 17)
        let drink = bottle.drink(amountML: 120)
        #expect(drink.record?.recordID == 4)
        let done = bottle.ack()
        #expect(done.states.map(\.unsyncedCount) == [1])
        #expect(bottle.flagsByID[4] == 0)
    }

    @Test func staleUnsyncedQuirkReportsTheOldCount() {
        var (bottle, _) = makeBottle(records: 5) { $0.staleUnsyncedAfterSync = true }
        _ = bottle.start(count: 5, chunkSize: 17)
        #expect(bottle.ack().states.map(\.unsyncedCount) == [5])
        #expect(bottle.unsyncedCount == 0)
    }
}
