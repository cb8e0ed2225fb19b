// Every fault of `--fault`, each with the exact BlueZ-observable sequence it produces.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import DBus
import Foundation
import Locking
import Testing

@Suite struct FaultTests {
    static let device = "dev_F4_12_FA_00_A3_F4"

    /// Connects, subscribes to Drink Data and Current State, and STARTs a sync of `count`.
    private func startSync(_ h: SimulatorHarness, count: Int, chunkSize: Int = 17) async throws -> Int {
        try await h.connectFresh()
        try await h.startNotify(.drinkData)
        try await h.startNotify(.currentState)
        let from = h.signals.count
        try await h.start(count: count, chunkSize: chunkSize)
        return from
    }

    @Test func dropAfterChunkLosesTheLinkAfterThatChunkAndNothingIsMarked() async throws {
        try await withSimulator(testConfiguration(records: 40) { $0.faults = [.dropAfterChunk(1)] }, monitor: true) { h in
            let from = try await startSync(h, count: 40)
            _ = try await h.notification(.drinkData, from: from)
            try await h.ack()  // chunk 1 is notified, its write answered, then the link drops
            let events = try await h.wire(after: "WriteValue", until: "Connected=false") {
                $0 == "changed \(Self.device) Device1.Connected=false"
            }
            expectInOrder(events, [
                "call WriteValue", "changed char001f GattCharacteristic1.Value=244 bytes", "reply WriteValue",
                "changed \(Self.device) Device1.ServicesResolved=false", "changed \(Self.device) Device1.Connected=false",
            ])
            await expectFailure("org.bluez.Error.Failed", "Not connected") { try await h.ack() }
            #expect(try await h.objects()[h.devicePath] != nil)  // a supervision time-out: the object stays
            #expect(h.sim.model.unsyncedCount == 40)
            #expect(h.sim.model.sync.status == .inProgress)  // B4
            // The bottle is awake: reconnect and sync everything again.
            try await h.discover()
            try await h.connect()
            #expect(try await h.syncAll(count: 40, chunkSize: 17).count == 40)
            try await waitUntil("all marked") { h.sim.model.unsyncedCount == 0 }
        }
    }

    @Test func sleepMidSyncIsASupervisionTimeoutAndTheBottleStaysSilent() async throws {
        try await withSimulator(testConfiguration(records: 40) { $0.faults = [.sleepMidSync(0)] }) { h in
            let from = try await startSync(h, count: 40)
            _ = try await h.notification(.drinkData, from: from)
            try await h.signals.wait("Connected=false", from: from) {
                $0.isChange(h.devicePath, BlueZNames.device, "Connected", .bool(false))
            }
            #expect(!h.sim.model.isAwake)
            #expect(h.sim.model.sync.status == .idle)  // sleeping resets the sync
            #expect(try await h.objects()[h.devicePath] != nil)
            // No advertising: a rescan finds nothing until the bottle is woken.
            let rescan = h.signals.count
            try await h.call(h.adapterPath, BlueZNames.adapter, "StartDiscovery")
            let slots = h.sim.core.state.withLock { $0.advertisementSlots }
            try await waitUntil("five advertising slots") { h.sim.core.state.withLock { $0.advertisementSlots >= slots + 5 } }
            let sawSignal1 = h.signals.all[rescan...].contains { signal in signal.isChange(h.devicePath, BlueZNames.device, "RSSI") }
            #expect(!sawSignal1)
            try await h.call("/", BlueZNames.simulator, "Wake")
            try await h.signals.wait("RSSI after the wake", from: rescan) {
                $0.isChange(h.devicePath, BlueZNames.device, "RSSI")
            }
        }
    }

    @Test func vanishMidSyncRemovesTheDeviceWithoutConnectedFalse() async throws {
        try await withSimulator(testConfiguration(records: 40) { $0.faults = [.vanishMidSync(0)] }, monitor: true) { h in
            let from = try await startSync(h, count: 40)
            _ = try await h.notification(.drinkData, from: from)
            let removed = try await h.signals.wait("device removed", from: from) { $0.isRemoved(h.devicePath) }
            let interfaces = removed.signal.arguments[1].strings ?? []
            #expect(interfaces.contains(BlueZNames.device))
            let sawSignal2 = h.signals.all[from...].contains { signal in signal.isChange(h.devicePath, BlueZNames.device, "Connected") }
            #expect(!sawSignal2)
            let events = try await h.wire("device removed") { $0 == "removed \(Self.device)" }
            #expect(!events.contains("changed \(Self.device) Device1.Connected=false"))
            #expect(events.firstIndex(of: "removed char001f")! < events.lastIndex(of: "removed \(Self.device)")!)
            await expectFailure("org.freedesktop.DBus.Error.UnknownObject") { try await h.ack() }
            // The bottle is still awake: a rescan creates a new device object.
            let again = h.signals.count
            try await h.discover()
            try await h.signals.wait("a new device object", from: again) { $0.isAdded(h.devicePath) }
        }
    }

    @Test func theWedgeLeavesOneUnsyncedRecordForEver() async throws {
        try await withSimulator(testConfiguration(records: 40) { $0.faults = [.wedge] }) { h in
            try await h.connectFresh()
            try await h.startNotify(.drinkData)
            try await h.startNotify(.currentState)
            #expect(try SyncControl(decoding: try await h.read(.syncControl)).count == 40)
            let from = h.signals.count
            let records = try await h.syncAll(count: 40, chunkSize: 17)
            #expect(records.map(\.recordID) == Array(1...39))
            try await h.signals.wait("the forced Current State with 1 unsynced", from: from) {
                $0.path == h.path(.currentState) && $0.value.flatMap { try? CurrentState(decoding: $0) }?.unsyncedCount == 1
            }
            // START again: IN_PROGRESS and silence.
            try await h.start(count: 1, chunkSize: 17)
            #expect(try SyncControl(decoding: try await h.read(.syncControl)).status == .inProgress)
            #expect(h.sim.model.flagsByID[40] == 0x04)
        }
    }

    @Test func unchangedUnsyncedRepeatsTheOldCount() async throws {
        try await withSimulator(testConfiguration(records: 5) { $0.faults = [.unchangedUnsynced] }) { h in
            try await h.connectFresh()
            try await h.startNotify(.drinkData)
            try await h.startNotify(.currentState)
            let from = h.signals.count
            _ = try await h.syncAll(count: 5, chunkSize: 17)
            let state = try CurrentState(decoding: try await h.notification(.currentState, from: from).value)
            #expect(state.unsyncedCount == 5)
            #expect(h.sim.model.unsyncedCount == 0)
        }
    }

    @Test func slowWritesDelayTheReplyAfterTheNotification() async throws {
        try await withSimulator(testConfiguration(records: 5) { $0.faults = [.slowWrites(milliseconds: 2000)] },
                                monitor: true) { h in
            try await h.connectFresh()
            try await h.startNotify(.drinkData)
            let started = ContinuousClock.now
            let start = Task { try await h.start(count: 5, chunkSize: 17) }
            try await waitUntil("the write in flight") { h.sim.core.state.withLock { !$0.writesInFlight.isEmpty } }
            await expectFailure("org.bluez.Error.InProgress") { try await h.ack() }
            try await start.value
            #expect(ContinuousClock.now - started >= .milliseconds(2000))
            let events = try await h.wire("the START reply") { $0 == "reply WriteValue" }
            expectInOrder(events, [
                "call WriteValue", "changed char001f GattCharacteristic1.Value=76 bytes", "call WriteValue",
                "error WriteValue org.bluez.Error.InProgress", "reply WriteValue",
            ])
        }
    }

    @Test func inProgressFailsTheFirstCallsThenWorks() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.inProgress(2)] }) { h in
            try await h.connectFresh()
            await expectFailure("org.bluez.Error.InProgress") { _ = try await h.read(.currentState) }
            await expectFailure("org.bluez.Error.InProgress") { try await h.write(.command, Command.ping.encoded()) }
            #expect(try await h.read(.currentState).count == 14)
        }
    }

    @Test func notConnectedFailsTheFirstGattCalls() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.notConnected(2)] }) { h in
            try await h.connectFresh()
            await expectFailure("org.bluez.Error.NotConnected") { try await h.startNotify(.currentState) }
            await expectFailure("org.bluez.Error.NotConnected") { _ = try await h.read(.currentState) }
            try await h.startNotify(.currentState)
        }
    }

    @Test func abortOnConnectFlipsConnectedAroundTheError() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.abortOnConnect(1)] }, monitor: true) { h in
            try await h.discover()
            await expectFailure("org.bluez.Error.Failed", "le-connection-abort-by-local") { try await h.connect() }
            let events = try await h.wire(after: "Connect", until: "Connected=false") {
                $0 == "changed \(Self.device) Device1.Connected=false"
            }
            #expect(events == [
                "call Connect", "changed \(Self.device) Device1.Connected=true", "error Connect org.bluez.Error.Failed",
                "changed \(Self.device) Device1.Connected=false",
            ])
            try await h.connect()  // the retry works
            #expect(h.sim.isConnected)
        }
    }

    @Test func unknownObjectAndRemoveDuringConnect() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.unknownObject(1)] }) { h in
            try await h.discover()
            let from = h.signals.count
            await expectFailure("org.freedesktop.DBus.Error.UnknownObject") { try await h.connect() }
            try await h.signals.wait("device removed", from: from) { $0.isRemoved(h.devicePath) }
            try await h.signals.wait("device seen again while discovering", from: from) { $0.isAdded(h.devicePath) }
            try await h.connect()
        }
        try await withSimulator(testConfiguration { $0.faults = [.removeDuringConnect(1)] }) { h in
            try await h.discover()
            let from = h.signals.count
            await expectFailure("org.bluez.Error.Failed", "Device removed") { try await h.connect() }
            try await h.signals.wait("device removed", from: from) { $0.isRemoved(h.devicePath) }
            let sawSignal3 = h.signals.all[from...].contains { signal in signal.isChange(h.devicePath, BlueZNames.device, "Connected") }
            #expect(!sawSignal3)
        }
    }

    @Test func anAdapterThatIsOffRefusesUntilPoweredOn() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.adapterOff] }) { h in
            #expect(try await h.property(h.adapterPath, BlueZNames.adapter, "Powered") == .bool(false))
            #expect(try await h.property(h.adapterPath, BlueZNames.adapter, "PowerState") == .string("off"))
            await expectFailure("org.bluez.Error.NotReady") { try await h.call(h.adapterPath, BlueZNames.adapter, "StartDiscovery") }
            let from = h.signals.count
            try await h.call(h.adapterPath, BlueZNames.properties, "Set",
                             [.string(BlueZNames.adapter), .string("Powered"), .variant(.bool(true))])
            try await h.signals.wait("Powered=true", from: from) {
                $0.isChange(h.adapterPath, BlueZNames.adapter, "Powered", .bool(true))
            }
            try await h.discover()
        }
    }

    @Test func aPowerCycleTurnsTheAdapterOffAndOnAgain() async throws {
        // The cycle is timed from the simulator's start, possibly before this test subscribes, so
        // it is followed through the simulator's own log; the signals are those of setPowered
        // (next test).
        let lines = Locked<[String]>([])
        let configuration = testConfiguration {
            $0.faults = [.powerCycleAt(seconds: 0.3)]
            $0.log = { line in lines.withLock { $0.append(line) } }
        }
        try await withSimulator(configuration) { h in
            try await waitUntil("the adapter off and on again") {
                lines.withLock { $0.contains("fault: power-cycle: adapter on") }
            }
            #expect(lines.withLock { $0.firstIndex(of: "fault: power-cycle: adapter off") ?? .max }
                < lines.withLock { $0.firstIndex(of: "fault: power-cycle: adapter on") ?? -1 })
            #expect(try await h.property(h.adapterPath, BlueZNames.adapter, "Powered") == .bool(true))
            try await h.discover()
        }
    }

    @Test func poweringOffDropsTheLinkAndDiscovery() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.discover()
            try await h.connect()
            let from = h.signals.count
            h.sim.setPowered(false)
            try await h.signals.wait("Discovering=false", from: from) {
                $0.isChange(h.adapterPath, BlueZNames.adapter, "Discovering", .bool(false))
            }
            let resolved = try await h.signals.wait("ServicesResolved=false", from: from) {
                $0.isChange(h.devicePath, BlueZNames.device, "ServicesResolved", .bool(false))
            }
            try await h.signals.wait("Connected=false", from: resolved.index) {
                $0.isChange(h.devicePath, BlueZNames.device, "Connected", .bool(false))
            }
            await expectFailure("org.bluez.Error.NotReady") { try await h.connect() }
            h.sim.setPowered(true)
            try await h.discover()
            try await h.connect()
        }
    }

    @Test func aStaleCacheLacksTheAquavateServiceUntilRemoveDevice() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.staleCache] }) { h in
            try await h.connectFresh()
            let aquavate = try #require(h.sim.servicePath(uuid: AquavateUUID.service))
            #expect(try await h.property(h.devicePath, BlueZNames.device, "ServicesResolved") == .bool(true))
            var objects = try await h.objects()
            #expect(objects[aquavate] == nil)
            #expect(objects.values.contains { $0[BlueZNames.service]?["UUID"]?.string == AquavateUUID.deviceInformationService })
            // bleak-retry-connector's cure: RemoveDevice, scan, connect.
            try await h.call(h.adapterPath, BlueZNames.adapter, "RemoveDevice", [.objectPath(h.devicePath)])
            try await h.connectFresh()
            objects = try await h.objects()
            #expect(objects[aquavate] != nil)
        }
    }

    @Test func earlyResolvedComesBeforeTheGattObjects() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.earlyResolved] }, monitor: true) { h in
            try await h.discover()
            try await h.connect()
            let events = try await h.wire("the GATT objects") { $0 == "added char001d" }
            expectInOrder(events, [
                "changed \(Self.device) Device1.ServicesResolved=true", "reply Connect", "added service0017", "added char001d",
            ])
            _ = try await h.read(.syncControl)
        }
    }

    @Test func notifyBeforeReplySendsAValueBeforeStartNotifyReturns() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.notifyBeforeReply] }, monitor: true) { h in
            try await h.connectFresh()
            try await h.startNotify(.currentState)
            let events = try await h.wire(after: "StartNotify", until: "reply") { $0 == "reply StartNotify" }
            expectInOrder(events, [
                "call StartNotify", "changed char0018 GattCharacteristic1.Value=14 bytes",
                "changed char0018 GattCharacteristic1.Notifying=true", "reply StartNotify",
            ])
        }
    }

    @Test func faultsParseFromTheCommandLineForm() throws {
        #expect(try SimulatorFault(parsing: "drop-after-chunk=2") == .dropAfterChunk(2))
        #expect(try SimulatorFault(parsing: "mtu=23") == .mtu(23))
        #expect(try SimulatorFault(parsing: "in-progress") == .inProgress(1))
        #expect(try SimulatorFault(parsing: "power-cycle-at=1.5") == .powerCycleAt(seconds: 1.5))
        #expect(try SimulatorFault(parsing: "wedge") == .wedge)
        #expect(try SimulatorFault(parsing: "odd-record=1970") == .oddRecord(.stamped1970))
        #expect(try SimulatorFault(parsing: "bad-total") == .badTotal)
        for bad in ["nope", "mtu=7", "wedge=1", "drop-after-chunk", "slow-writes=-1", "power-cycle-at=x", "odd-record=1999", "odd-record", "bad-total=2"] {
            #expect(throws: SimulatorFaultUnknown.self, "\(bad)") { try SimulatorFault(parsing: bad) }
        }
        for entry in SimulatorFault.catalogue {
            let argument = entry.name == "mtu" ? "23" : entry.name == "odd-record" ? "erased" : "1"
            let text = entry.argument == nil ? entry.name : "\(entry.name)=\(argument)"
            #expect(try SimulatorFault(parsing: text).description.hasPrefix(entry.name))
        }
    }
}
