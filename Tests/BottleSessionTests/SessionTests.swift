// The bottle session against a scripted fake link: the sync's durability rule (commit, then one
// ACK), chunk sizes from the MTU, read-back of a truncated chunk, the B2 wedge, re-START, the
// time-outs, a dropped link, keep-alive, and what a session records.

import BusTestSupport
import AquavateCapture
import AquavateProtocol
import BlueZ
import BottleSession
import Foundation
import History
import Locking
import Testing
import TestSupport
import Timekeeping

/// One session's parts.
struct SessionRig {
    let bottle: FakeBottle
    let clock = FakeClock()
    let journal = Journal()
    let store: RecordingStore
    let memory: SyncMemory

    init(bottle: FakeBottle, history: DrinkHistory? = nil, failCommits: Set<Int> = [], memory: SyncMemory = SyncMemory()) throws {
        self.bottle = bottle
        self.store = try RecordingStore(journal: journal, history: history, failCommits: failCommits)
        self.memory = memory
    }

    /// Runs one session on a fresh link to the bottle.
    func session(mtu: Int? = 247, batteryHidden: Bool = false, recorder: SessionRecorder? = nil,
                 hold: Duration? = nil, keepAwake: Bool = false, setTime: SetTimePolicy = .send,
                 events: SessionEvents = SessionEvents()) async -> (SessionReport, FakeLink) {
        let link = FakeLink(bottle: bottle, clock: clock, journal: journal, mtu: mtu, batteryHidden: batteryHidden)
        let session = BottleSession(link: link, observer: events.observing(store), clock: clock, memory: memory,
                                    recorder: recorder, setTime: setTime)
        let report = await session.run(holdFor: hold, keepAwake: keepAwake)
        return (report, link)
    }

    func storedDrinks() throws -> [StoredDrink] { try store.history.drinks.storedDrinks() }
}

/// What a session told its observer, collected for assertions; the chunks are stored by the
/// observer it wraps (`observing`).
final class SessionEvents: Sendable {
    struct Round: Sendable, Equatable {
        var outcome: SyncOutcome
        var records: Int
        var chunks: Int
    }
    private struct Heard {
        var rounds: [Round] = []
        var batteries: [Int] = []
        var storedChunkSizes: [Int] = []
        var states = 0
        var disconnects = 0
    }
    private let heard = Locked(Heard())

    /// An observer that stores through `store` and tells this collection everything.
    func observing(_ store: any BottleObserver) -> any BottleObserver { Observer(inner: store, events: self) }

    var rounds: [Round] { heard.withLock { $0.rounds } }
    var batteries: [Int] { heard.withLock { $0.batteries } }
    /// Records per committed chunk, in order.
    var storedChunkSizes: [Int] { heard.withLock { $0.storedChunkSizes } }
    var states: Int { heard.withLock { $0.states } }
    var disconnects: Int { heard.withLock { $0.disconnects } }

    private struct Observer: BottleObserver {
        let inner: any BottleObserver
        let events: SessionEvents

        func store(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant) throws -> [StoreResult] {
            let results = try inner.store(records, bottle: bottle, at: storedAt)
            events.heard.withLock { $0.storedChunkSizes.append(results.count) }
            return results
        }
        func committed(_ results: [StoreResult], bottle: String) { inner.committed(results, bottle: bottle) }
        func heard(_ current: CurrentState, at time: WallInstant) {
            events.heard.withLock { $0.states += 1 }
            inner.heard(current, at: time)
        }
        func heard(_ config: BottleConfig, at time: WallInstant) -> Bool { inner.heard(config, at: time) }
        func heardBattery(_ percent: Int, at time: WallInstant) {
            events.heard.withLock { $0.batteries.append(percent) }
            inner.heardBattery(percent, at: time)
        }
        func heard(_ identity: BottleIdentity, at time: WallInstant) { inner.heard(identity, at: time) }
        func heard(_ settings: DeviceSettings, at time: WallInstant) { inner.heard(settings, at: time) }
        func heard(_ offset: BottleClockOffset, at time: WallInstant) { inner.heard(offset, at: time) }
        func heardActivity(motion: [MotionEvent], backpack: [BackpackSession], at time: WallInstant) {
            inner.heardActivity(motion: motion, backpack: backpack, at: time)
        }
        func syncEnded(_ outcome: SyncOutcome, records: Int, chunks: Int, refusal: String?, at time: WallInstant) {
            events.heard.withLock { $0.rounds.append(Round(outcome: outcome, records: records, chunks: chunks)) }
            inner.syncEnded(outcome, records: records, chunks: chunks, refusal: refusal, at: time)
        }
        func disconnected(at time: WallInstant) {
            events.heard.withLock { $0.disconnects += 1 }
            inner.disconnected(at: time)
        }
    }
}


@Suite struct SessionTests {
    // MARK: Happy paths

    @Test func syncsAtMTU247InChunksOf17() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(40)
        let rig = try SessionRig(bottle: bottle)
        let (report, link) = await rig.session(mtu: 247)

        #expect(report.outcome == .synced)
        #expect(report.records == 40)
        #expect(report.chunks == 3)
        #expect(report.newRecords == 40)
        #expect(report.unsyncedBefore == 40)
        #expect(report.unsyncedAfter == 0)
        #expect(bottle.starts.map(\.chunkSize) == [17])
        #expect(bottle.starts.map(\.count) == [40])
        #expect(bottle.acks == 3)
        #expect(bottle.unsyncedCount == 0)
        #expect(try rig.storedDrinks().map(\.recordID) == Array(1...40))
        #expect(link.disconnects == 1)
        // Subscriptions come first, then SET_TIME with the session clock's UTC seconds.
        let entries = rig.journal.all
        let setTime = try #require(entries.firstIndex { if case .write(.command, _) = $0 { true } else { false } })
        let subscriptions = entries.indices.filter { if case .subscribe = entries[$0] { true } else { false } }
        #expect(subscriptions.count == 3)
        #expect(subscriptions.allSatisfy { $0 < setTime })
        #expect(bottle.setTimes == [UInt32(1_763_720_000)])
    }

    @Test func syncsAtMTU23OneRecordPerChunk() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(5)
        let rig = try SessionRig(bottle: bottle)
        let (report, _) = await rig.session(mtu: 23)
        #expect(report.outcome == .synced)
        #expect(bottle.starts.map(\.chunkSize) == [1])
        #expect(report.chunks == 5)
        #expect(bottle.acks == 5)
        #expect(try rig.storedDrinks().count == 5)
    }

    @Test func anUnknownMTUMeansOneRecordPerChunk() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(3)
        let rig = try SessionRig(bottle: bottle)
        let (report, _) = await rig.session(mtu: nil)
        #expect(report.outcome == .synced)
        #expect(bottle.starts.map(\.chunkSize) == [1])
        #expect(try rig.storedDrinks().count == 3)
    }

    @Test func nothingToSyncWritesNoStart() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(4)
        bottle.markSynced(ids: [1, 2, 3, 4])
        let rig = try SessionRig(bottle: bottle)
        let (report, _) = await rig.session()
        #expect(report.outcome == .nothingToSync)
        #expect(report.outcome.isSuccess)
        #expect(bottle.starts.isEmpty)
        #expect(bottle.acks == 0)
    }

    // MARK: The durability rule

    @Test func eachAckFollowsTheCommitOfItsChunk() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(40)
        let rig = try SessionRig(bottle: bottle)
        _ = await rig.session()
        #expect(rig.journal.syncWords == ["start", "commit17", "ack", "commit17", "ack", "commit6", "ack"])
    }

    @Test func aFailedCommitWritesNoAck() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(40)
        let rig = try SessionRig(bottle: bottle, failCommits: [2])
        let (report, link) = await rig.session()
        #expect(rig.journal.syncWords == ["start", "commit17", "ack"])
        #expect(bottle.acks == 1)
        #expect(bottle.unsyncedCount == 40)
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected a failure, got \(report.outcome)")
            return
        }
        #expect(reason.contains("could not store chunk 1"))
        #expect(report.rounds.map(\.outcome) == [.interrupted])
        #expect(try rig.storedDrinks().count == 17)
        #expect(link.disconnects == 1)
    }

    // MARK: Truncation (B1) and read-back

    @Test func aTruncatedChunkIsReadBackAndAckedOnce() async throws {
        let bottle = FakeBottle(faults: .init(chunkSizeOverride: 20))
        bottle.addDrinks(45)
        let rig = try SessionRig(bottle: bottle)
        let events = SessionEvents()
        let (report, _) = await rig.session(mtu: 247, events: events)
        #expect(report.outcome == .synced)
        // 20 + 20 + 5: the first two are cut to 244 bytes (17 records, header says 20) and read back.
        #expect(rig.journal.syncWords == ["start", "commit20", "ack", "commit20", "ack", "commit5", "ack"])
        #expect(rig.journal.all.filter { $0 == .read(.drinkData) }.count == 2)
        #expect(bottle.acks == 3)
        #expect(try rig.storedDrinks().map(\.recordID) == Array(1...45))
        #expect(events.rounds.map(\.records) == [45])
    }

    @Test func aChunkThatCannotBeReadBackIsRejectedWithoutAck() async throws {
        // The notification is cut (MTU 23, 3-record chunks) and the read-back comes back short
        // too: the chunk is rejected, nothing is stored, nothing is ACKed.
        let bottle = FakeBottle(faults: .init(chunkSizeOverride: 3))
        bottle.addDrinks(3)
        let rig = try SessionRig(bottle: bottle)
        let link = FakeLink(bottle: bottle, clock: rig.clock, journal: rig.journal, mtu: 23)
        final class TruncatingReads: BottleLink, @unchecked Sendable {
            let base: FakeLink
            init(_ base: FakeLink) { self.base = base }
            var address: String { base.address }
            var name: String? { base.name }
            func mtu() async -> Int? { await base.mtu() }
            func offers(_ c: Characteristic) -> Bool { base.offers(c) }
            func read(_ c: Characteristic) async throws -> [UInt8] {
                let value = try await base.read(c)
                return c == .drinkData ? Array(value.prefix(10)) : value
            }
            func write(_ c: Characteristic, _ v: [UInt8]) async throws { try await base.write(c, v) }
            func startNotifications(_ c: Characteristic) async throws { try await base.startNotifications(c) }
            func startBatteryReports() async throws -> Int? { try await base.startBatteryReports() }
            func nextEvent(within t: Duration) async -> LinkEvent? { await base.nextEvent(within: t) }
            func disconnect() async { await base.disconnect() }
        }
        let session = BottleSession(link: TruncatingReads(link), observer: rig.store, clock: rig.clock, memory: rig.memory)
        let report = await session.run()
        #expect(report.rounds.map(\.outcome) == [.rejected])
        #expect(!report.outcome.isSuccess)
        #expect(bottle.acks == 0)
        #expect(try rig.storedDrinks().isEmpty)
    }

    // MARK: B2: the wedge, and re-START while the count drops

    @Test func reStartsWhileTheCountDrops() async throws {
        // B2 example 1: [#1 deleted, #2, #3]: START sends #2, #3, marks #1, #2; #3 comes again.
        let bottle = FakeBottle()
        bottle.addDrinks(1, deleted: true)
        bottle.addDrinks(2, from: 1_763_800_000)
        let rig = try SessionRig(bottle: bottle)
        let (report, _) = await rig.session()
        #expect(report.outcome == .synced)
        #expect(bottle.starts.count == 2)
        #expect(report.rounds.map(\.outcome) == [.complete, .complete])
        #expect(report.rounds.map(\.records) == [2, 1])
        #expect(report.rounds.map(\.newRecords) == [2, 0])
        #expect(bottle.unsyncedCount == 0)
        #expect(try rig.storedDrinks().map(\.recordID) == [2, 3])
    }

    @Test func theWedgeIsDetectedAndNotRetriedUntilTheCountChanges() async throws {
        // B2 example 2: [#1, #2, #3 deleted]: the sync sends #1, #2; #3 keeps the count at 1.
        let bottle = FakeBottle()
        bottle.addDrinks(2)
        bottle.addDrinks(1, from: 1_763_800_000, deleted: true)
        let memory = SyncMemory()
        let rig = try SessionRig(bottle: bottle, memory: memory)

        let (first, link) = await rig.session()
        #expect(first.rounds.map(\.outcome) == [.complete, .empty])
        #expect(first.outcome == .synced)
        #expect(memory.wedgedCount == 1)
        #expect(link.timeouts.last == .seconds(3))
        #expect(bottle.starts.count == 2)

        // The next connection: the same count, so no START at all.
        let (second, _) = await rig.session()
        #expect(second.outcome == .wedged(unsynced: 1))
        #expect(second.outcome.isSuccess)
        #expect(bottle.starts.count == 2)

        // A new drink changes the count: sync again, and everything live is stored once.
        bottle.addDrinks(1, from: 1_763_850_000)
        let (third, _) = await rig.session()
        #expect(third.outcome == .synced)
        #expect(bottle.unsyncedCount == 0)
        #expect(memory.wedgedCount == nil)
        #expect(try rig.storedDrinks().map(\.recordID) == [1, 2, 4])
    }

    @Test func aWedgeFromTheStartIsReportedAsWedged() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(1)
        bottle.markSynced(ids: [1])
        bottle.addDrinks(1, from: 1_763_800_000, deleted: true)
        let rig = try SessionRig(bottle: bottle)
        let (report, _) = await rig.session()
        #expect(report.outcome == .wedged(unsynced: 1))
        #expect(report.rounds.map(\.outcome) == [.empty])
        #expect(bottle.acks == 0)
    }

    // MARK: Time-outs

    @Test func waitsThreeSecondsForTheFirstChunkAndFiveBetween() async throws {
        let bottle = FakeBottle(faults: .init(silentAfterChunk: 1))
        bottle.addDrinks(40)
        let rig = try SessionRig(bottle: bottle)
        let (report, link) = await rig.session()
        #expect(report.rounds.map(\.outcome) == [.interrupted])
        #expect(report.records == 34)
        #expect(link.timeouts == [.seconds(5)])
        #expect(!report.outcome.isSuccess)
        #expect(bottle.unsyncedCount == 40)

        // No chunk at all after START: 3 s, then an empty sync.
        let empty = FakeBottle()
        empty.addDrinks(1, deleted: true)
        let rig2 = try SessionRig(bottle: empty)
        let (report2, link2) = await rig2.session()
        #expect(link2.timeouts == [.seconds(3)])
        #expect(report2.rounds.map(\.outcome) == [.empty])
    }

    // MARK: A dropped link

    @Test func aLinkDroppedMidSyncLosesNothingAndTheNextSessionResends() async throws {
        let bottle = FakeBottle(faults: .init(dropLinkAfterChunk: 1))
        bottle.addDrinks(40)
        let history = try DrinkHistory(path: nil)
        let rig = try SessionRig(bottle: bottle, history: history)

        let (first, _) = await rig.session()
        #expect(!first.outcome.isSuccess)
        #expect(first.rounds.map(\.outcome) == [.interrupted])
        #expect(bottle.isInProgress)  // B4: the bottle's sync state survives the disconnect
        #expect(bottle.unsyncedCount == 40)
        // Chunks 0 and 1 were committed (chunk 1 arrived just before the link dropped; its ACK failed).
        let afterFirst = try rig.storedDrinks().count
        #expect(afterFirst == 34)
        #expect(first.newRecords == 34)

        bottle.faults = .init()
        let (second, _) = await rig.session()
        #expect(second.outcome == .synced)
        #expect(second.records == 40)
        #expect(second.newRecords == 40 - afterFirst)
        let stored = try rig.storedDrinks()
        #expect(stored.map(\.recordID) == Array(1...40))
        #expect(Set(stored.map(\.recordID)).count == stored.count)
        #expect(bottle.records.map(\.recordID) == stored.map(\.recordID))
    }

    @Test func aLinkLostAtTheStartEndsTheSessionCleanly() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(3)
        let rig = try SessionRig(bottle: bottle)
        let link = FakeLink(bottle: bottle, clock: rig.clock, journal: rig.journal)
        link.drop()
        let report = await BottleSession(link: link, observer: rig.store, clock: rig.clock, memory: rig.memory).run()
        guard case .failed(let reason) = report.outcome else {
            Issue.record("expected failure")
            return
        }
        #expect(reason.contains("subscribe"))
        #expect(bottle.starts.isEmpty)
    }

    @Test("the observer hears the sync's round, each committed chunk and the end of the connection, once")
    func theObserverHearsTheWholeConnection() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(40)
        let rig = try SessionRig(bottle: bottle)
        let events = SessionEvents()
        let (report, _) = await rig.session(mtu: 247, events: events)
        #expect(report.outcome == .synced)
        #expect(events.storedChunkSizes == [17, 17, 6])
        #expect(events.rounds == [.init(outcome: .complete, records: 40, chunks: 3)])
        #expect(events.states >= 1)
        #expect(events.disconnects == 1)
    }

    // MARK: Keep-alive and battery

    @Test func pingsEveryTwentySecondsOnlyWhenKeepingAwake() async throws {
        let bottle = FakeBottle()
        let rig = try SessionRig(bottle: bottle)
        _ = await rig.session(hold: .seconds(65), keepAwake: true)
        #expect(bottle.pings == 3)
        _ = await rig.session(hold: .seconds(65), keepAwake: false)
        #expect(bottle.pings == 3)
    }

    @Test func batteryComesFromBattery1WhenTheServiceIsHidden() async throws {
        let bottle = FakeBottle()
        let rig = try SessionRig(bottle: bottle)
        let events = SessionEvents()
        let link = FakeLink(bottle: bottle, clock: rig.clock, journal: rig.journal, batteryHidden: true)
        link.inject(.battery(79))
        let session = BottleSession(link: link, observer: events.observing(rig.store), clock: rig.clock, memory: rig.memory)
        let report = await session.run(holdFor: .seconds(1))
        #expect(events.batteries == [80, 79])
        #expect(report.batteryPercent == 79)
        #expect(!rig.journal.all.contains(.subscribe(.batteryLevel)))

        let (gatt, _) = await rig.session(batteryHidden: false)
        #expect(gatt.batteryPercent == 80)
        #expect(rig.journal.all.contains(.subscribe(.batteryLevel)))
    }

    // MARK: Recording

    @Test func recordsWhatItHearsAsAReplayableCapture() async throws {
        let bottle = FakeBottle(faults: .init(chunkSizeOverride: 20))
        bottle.addDrinks(25)
        let rig = try SessionRig(bottle: bottle)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("session-\(UUID().uuidString).aqcap").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = SessionRecorder(path: path, source: "tests", logger: .init(label: "test"))
        _ = await rig.session(recorder: recorder)
        recorder.close()

        var header: CaptureHeader?
        var events: [CaptureEvent] = []
        for item in try CaptureReader(path: path) {
            switch item {
            case .header(let h): header = h
            case .event(let event, _): events.append(event)
            case .error(let error): Issue.record("capture line rejected: \(error.message)")
            }
        }
        #expect(header?.deviceAddress == "f4:12:fa:00:a3:f4")
        #expect(header?.deviceName == "Aquavate-A3F2")
        #expect(header?.mtu == 247)
        #expect(events.first?.op == .connect)
        #expect(events.last?.op == .disconnect)
        let times = events.map(\.time)
        #expect(times == times.sorted())
        // The truncated notification, its read-back and the read's echo are all there.
        let drinkData = events.filter { $0.characteristic == .known(.drinkData) }
        #expect(drinkData.map(\.op) == [.notify, .read, .notify, .notify])
        #expect(drinkData[0].value?.count == 244)
        #expect(drinkData[1].value?.count == 6 + 20 * 14)
        let writes = events.filter { $0.op == .write && $0.characteristic == .known(.syncControl) }
        #expect(writes.count == 3)  // START and two ACKs
    }
}
