// The ways BlueZ and the bottle fail during a sync (docs/design.md 4; docs/bluez.md 5), each
// injected through the simulated bottle (BottleSimulator, on a private dbus-daemon), and the plain
// sync in both BlueZ configurations. After each, every drink the bottle holds is in the history
// exactly once and the bottle has nothing left unsynced (docs/robustness.md, "Faults").

import BusTestSupport
import AquavateProtocol
import BlueZ
import BottleSession
import BottleSimulator
import DBus
import Foundation
import History
import Locking
import Testing

@Suite(.timeLimit(.minutes(3))) struct SimulatorIntegrationTests {
    // MARK: The happy path, both BlueZ configurations

    @Test(arguments: SimulatorConfiguration.GattCache.allCases, SimulatorConfiguration.Battery.allCases)
    func syncsInEitherBlueZConfiguration(cache: SimulatorConfiguration.GattCache, battery: SimulatorConfiguration.Battery) async throws {
        try await SimulatorRig.with(records: 40, { $0.gattCache = cache; $0.battery = battery }) { rig in
            let events = SessionEvents()
            let first = try await rig.syncOnce(events: events)
            #expect(first.outcome == .synced)
            #expect(first.records == 40)
            #expect(first.chunks == 3)  // 17 + 17 + 6 at MTU 247
            #expect(first.mtu == 247)
            #expect(first.batteryPercent != nil)
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()

            // A second connection: the cache (kept or rebuilt) and the notify sessions work again.
            try await rig.waitUntilLetGo()
            rig.sim.addDrink(amountML: 120)
            let second = try await rig.syncOnce()
            #expect(second.outcome == .synced)
            #expect(second.newRecords == 1)
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    /// A session ends its link with one Device1.Disconnect (bluetoothd then has the kernel
    /// disconnect 2 s later), and sends none when the link was lost under it: nothing to end.
    @Test func oneDisconnectPerSessionAndNoneAfterALostLink() async throws {
        let calls = Locked<[String]>([])
        try await SimulatorRig.with(records: 60, faults: [.sleepMidSync(1)], { configuration in
            configuration.log = { line in
                if line.hasPrefix("call "), line.contains(".Disconnect(") { calls.withLock { $0.append(line) } }
            }
        }) { rig in
            // The bottle falls asleep during the first session: the link is gone, nothing to end.
            let lost = try await rig.syncOnce()
            #expect(lost.rounds.map(\.outcome) == [.interrupted], "\(lost)")
            #expect(calls.withLock { $0 }.isEmpty, "no Disconnect after the link was lost: \(calls.withLock { $0 })")
            rig.sim.wake()
            let synced = try await rig.syncOnce()
            #expect(synced.outcome == .synced)
            #expect(calls.withLock { $0.count } == 1, "\(calls.withLock { $0 })")
        }
    }

    @Test func syncsAtMTU23OneRecordPerChunk() async throws {
        try await SimulatorRig.with(records: 5, faults: [.mtu(23)]) { rig in
            let report = try await rig.syncOnce()
            #expect(report.outcome == .synced)
            #expect(report.mtu == 23)
            #expect(report.chunks == 5)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    // MARK: Link faults mid-sync

    @Test func aLinkDroppedAfterChunkKLosesNothing() async throws {
        try await SimulatorRig.with(records: 60, faults: [.dropAfterChunk(1)]) { rig in
            let results = try await rig.syncUntilDone()
            let reports = results.compactMap { try? $0.get() }
            #expect(reports.first?.rounds.map(\.outcome) == [.interrupted])
            #expect(reports.last?.outcome == .synced)
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func theBottleFallingAsleepMidSyncIsASupervisionTimeout() async throws {
        try await SimulatorRig.with(records: 60, faults: [.sleepMidSync(1)]) { rig in
            let first = try await rig.syncOnce()
            #expect(first.rounds.map(\.outcome) == [.interrupted])
            guard case .failed(let reason) = first.outcome else { Issue.record("expected failure"); return }
            #expect(reason.contains("disconnected"))
            #expect(rig.sim.model.unsyncedCount == 60)
            rig.sim.wake()
            let second = try await rig.syncOnce()
            #expect(second.outcome == .synced)
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func theDeviceObjectVanishingMidSyncIsALostLink() async throws {
        try await SimulatorRig.with(records: 60, faults: [.vanishMidSync(1)]) { rig in
            let first = try await rig.syncOnce()
            #expect(first.rounds.map(\.outcome) == [.interrupted])
            guard case .failed(let reason) = first.outcome else { Issue.record("expected failure"); return }
            #expect(reason.contains("vanished"))
            let rest = try await rig.syncUntilDone()
            #expect((try? rest.last?.get())?.outcome == .synced)
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    // MARK: The bottle's own bugs

    @Test func aTruncatedNotificationIsReadBack() async throws {
        // Asking for 20 records per chunk at MTU 247 (what the iOS app does, B1): each full chunk
        // is cut to 244 bytes on the air and must be read back.
        try await SimulatorRig.with(records: 45) { rig in
            let events = SessionEvents()
            let report = try await rig.syncOnce(chunkSize: 20, events: events)
            #expect(report.outcome == .synced)
            #expect(report.rounds.map(\.chunkSize) == [20])
            #expect(events.storedChunkSizes == [20, 20, 5])  // whole chunks, from the read-backs
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func theWedgeIsNotRetriedUntilTheCountChanges() async throws {
        try await SimulatorRig.with(records: 6, faults: [.wedge]) { rig in
            let first = try await rig.syncOnce()
            #expect(first.outcome == .synced)
            #expect(first.rounds.last?.outcome == .empty)
            #expect(rig.sim.model.unsyncedCount == 1)  // the deleted-but-unsynced record
            #expect(rig.memory.wedgedCount == 1)
            try rig.expectHistoryHoldsEveryDrinkOnce()

            try await rig.waitUntilLetGo()
            let second = try await rig.syncOnce()
            #expect(second.outcome == .wedged(unsynced: 1))
            #expect(second.rounds.isEmpty)  // no START at all

            try await rig.waitUntilLetGo()
            rig.sim.addDrink(amountML: 90)
            let third = try await rig.syncOnce()
            #expect(third.outcome == .synced)
            #expect(rig.memory.wedgedCount == nil)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    // MARK: BlueZ's failure modes

    @Test func inProgressOnReadsAndWritesIsRetried() async throws {
        try await SimulatorRig.with(records: 40, faults: [.inProgress(6)]) { rig in
            let report = try await rig.syncOnce()
            #expect(report.outcome == .synced)
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func abortByLocalOnConnectIsRetried() async throws {
        try await SimulatorRig.with(records: 20, faults: [.abortOnConnect(2)]) { rig in
            let report = try await rig.syncOnce()
            #expect(report.outcome == .synced)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test(arguments: [SimulatorFault.removeDuringConnect(1), .unknownObject(1)])
    func aDeviceRemovedDuringConnectIsFoundAgain(fault: SimulatorFault) async throws {
        try await SimulatorRig.with(records: 20, faults: [fault]) { rig in
            let results = try await rig.syncUntilDone()
            #expect(results.count >= 2)
            if case .failure(let error) = results.first {
                #expect(error is DeviceVanished || error is ConnectFailed, "\(error)")
            } else {
                Issue.record("the first connect should have failed")
            }
            #expect((try? results.last?.get())?.outcome == .synced)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func anAdapterPoweredOffThenOn() async throws {
        try await SimulatorRig.with(records: 20, faults: [.adapterOff]) { rig in
            let error = #expect(throws: AdapterPoweredOff.self) { try rig.client.chooseAdapter(named: nil) }
            #expect(error?.description.contains("bluetoothctl power on") == true)
            let adapter = try #require(rig.client.objects.adapters.first)
            async let powered: Void = rig.client.waitUntilPowered(adapter, timeout: .seconds(10))
            rig.sim.setPowered(true)
            try await powered
            let report = try await rig.syncOnce()
            #expect(report.outcome == .synced)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func aStaleCacheIsRemovedAndTheBottleSyncedOnceFoundAgain() async throws {
        try await SimulatorRig.with(records: 20, faults: [.staleCache]) { rig in
            let results = try await rig.syncUntilDone()
            if case .failure(let error) = results.first {
                #expect(error is StaleGATTCache, "\(error)")
            } else {
                Issue.record("the first connect should have found the stale cache")
            }
            #expect((try? results.last?.get())?.outcome == .synced)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func servicesResolvedBeforeTheGATTObjects() async throws {
        try await SimulatorRig.with(records: 20, faults: [.earlyResolved]) { rig in
            let report = try await rig.syncOnce()
            #expect(report.outcome == .synced)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func aNotificationBeforeStartNotifyReturns() async throws {
        try await SimulatorRig.with(records: 20, faults: [.notifyBeforeReply]) { rig in
            let events = SessionEvents()
            let report = try await rig.syncOnce(events: events)
            #expect(report.outcome == .synced)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }

    @Test func slowWritesAndNotConnectedHiccups() async throws {
        try await SimulatorRig.with(records: 30, faults: [.slowWrites(milliseconds: 50), .notConnected(1)]) { rig in
            let results = try await rig.syncUntilDone()
            #expect((try? results.last?.get())?.outcome == .synced)
            #expect(rig.sim.model.unsyncedCount == 0)
            try rig.expectHistoryHoldsEveryDrinkOnce()
        }
    }
}
