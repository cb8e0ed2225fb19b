// A lost link is terminal for its session however many times it is asked (docs/robustness.md,
// "Liveness"). The link here is the worst case BlueZ can produce: the write that carried an ACK is
// answered OK after the link went, and from then on every wait answers `.lost` at once — a session
// that took it for one more event asked again for ever.

import AquavateProtocol
import BlueZ
import BottleSession
import Locking
import Testing
import TestSupport

@Suite("a lost link ends the session")
struct LostLinkTests {
    /// FakeLink, but after the `lossAtAck`-th ACK is written (and answered OK) the link is gone:
    /// waits answer `.lost` at once and are counted; other operations throw `LinkLost`.
    final class LostAfterAck: BottleLink, Sendable {
        let base: FakeLink
        let lossAtAck: Int
        /// The write that is the ACK's kind (the sync's ACK, or a keep-alive PING).
        let trigger: (Characteristic, [UInt8])
        private let state = Locked((acks: 0, lost: false, waitsAfterLoss: 0))
        init(_ base: FakeLink, lossAtAck: Int, trigger: (Characteristic, [UInt8]) = (.syncControl, SyncControl.ack.encoded())) {
            self.base = base
            self.lossAtAck = lossAtAck
            self.trigger = trigger
        }
        var waitsAfterLoss: Int { state.withLock { $0.waitsAfterLoss } }
        var address: String { base.address }
        var name: String? { base.name }
        func mtu() async -> Int? { await base.mtu() }
        func offers(_ c: Characteristic) -> Bool { base.offers(c) }
        private func checkLink() throws {
            if state.withLock({ $0.lost }) { throw LinkLost(device: address, reason: .disconnected) }
        }
        func read(_ c: Characteristic) async throws -> [UInt8] {
            try checkLink()
            return try await base.read(c)
        }
        func write(_ c: Characteristic, _ v: [UInt8]) async throws {
            try checkLink()
            if c == trigger.0, v == trigger.1 {
                // The bottle fell asleep on this ACK: it never sends the next chunk, and the
                // write is answered OK after the link went.
                let lose = state.withLock { state -> Bool in
                    state.acks += 1
                    if state.acks == lossAtAck { state.lost = true }
                    return state.lost
                }
                if lose { return }
            }
            try await base.write(c, v)
        }
        func startNotifications(_ c: Characteristic) async throws {
            try checkLink()
            try await base.startNotifications(c)
        }
        func startBatteryReports() async throws -> Int? { try await base.startBatteryReports() }
        func nextEvent(within t: Duration) async -> LinkEvent? {
            let lost = state.withLock { state -> Bool in
                if state.lost { state.waitsAfterLoss += 1 }
                return state.lost
            }
            guard lost else { return await base.nextEvent(within: t) }
            // A session that keeps asking would spin for ever; after 100 answers the fake says
            // "time-out" instead, so such a session ends (and fails the count) instead of hanging.
            if waitsAfterLoss > 100 { return nil }
            return .lost("supervision time-out")
        }
        func disconnect() async { await base.disconnect() }
    }

    @Test("an ACK answered OK after the link went: the session ends at the first .lost, keeping what it committed", arguments: [1, 3, 7])
    func lostAfterAckReply(lossAtAck: Int) async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(10, from: 1_763_800_000)
        let rig = try SessionRig(bottle: bottle)
        // MTU 23: one record a chunk, so the k-th ACK follows the k-th record.
        let link = LostAfterAck(FakeLink(bottle: bottle, clock: rig.clock, journal: rig.journal, mtu: 23), lossAtAck: lossAtAck)
        let session = BottleSession(link: link, observer: rig.store, clock: rig.clock, memory: rig.memory)
        let report = await session.run()
        #expect(report.linkLost)
        #expect(!report.outcome.isSuccess)
        #expect(link.waitsAfterLoss == 1, "asked the lost link \(link.waitsAfterLoss) times")
        #expect(try rig.storedDrinks().count == lossAtAck, "every chunk before the loss was committed")
        #expect(report.rounds.map(\.outcome) == [.interrupted])
    }

    @Test("staying connected after the sync: a lost link ends the hold at once")
    func lostDuringHold() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(2, from: 1_763_800_000)
        let rig = try SessionRig(bottle: bottle)
        // The first keep-alive PING is answered OK, then the link is gone during the hold.
        let link = LostAfterAck(FakeLink(bottle: bottle, clock: rig.clock, journal: rig.journal, mtu: 23), lossAtAck: 1,
                                trigger: (.command, Command.ping.encoded()))
        let session = BottleSession(link: link, observer: rig.store, clock: rig.clock, memory: rig.memory)
        let report = await session.run(holdFor: .seconds(600), keepAwake: true)
        #expect(report.linkLost)
        #expect(link.waitsAfterLoss == 1)
        #expect(try rig.storedDrinks().count == 2)
    }
}
