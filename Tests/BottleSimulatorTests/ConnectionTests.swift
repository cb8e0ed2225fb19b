// Connect and Disconnect as bluetoothd does them, checked on the wire with dbus-monitor
// (docs/bluez.md 7.6, 7.8), and the GATT objects' shapes in both BlueZ configurations.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import DBus
import Foundation
import Testing

extension SimulatorHarness {
    func wire(_ what: String, _ predicate: @escaping (String) -> Bool) async throws -> [String] {
        try await monitor!.waitFor(what, client: client.uniqueName, server: sim.uniqueName, predicate)
    }

    /// The events from the first `call <member>` on.
    func wire(after member: String, until what: String, _ predicate: @escaping (String) -> Bool) async throws -> [String] {
        let events = try await wire(what, predicate)
        guard let start = events.lastIndex(of: "call \(member)") else { return events }
        return Array(events[start...])
    }
}

/// `expected` occur in `events` in this order (other events may lie between them).
func expectInOrder(_ events: [String], _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    var position = events.startIndex
    for item in expected {
        guard let found = events[position...].firstIndex(of: item) else {
            Issue.record("\"\(item)\" missing or out of order in \(events)", sourceLocation: sourceLocation)
            return
        }
        position = events.index(after: found)
    }
}

@Suite struct ConnectionTests {
    static let device = "dev_F4_12_FA_00_A3_F4"

    @Test func connectSetsConnectedThenExportsGattThenResolvesThenReplies() async throws {
        try await withSimulator(testConfiguration(), monitor: true) { h in
            try await h.discover()
            try await h.connect()
            let events = try await h.wire(after: "Connect", until: "reply Connect") { $0 == "reply Connect" }
            let device = Self.device
            expectInOrder(events, [
                "call Connect", "changed \(device) Device1.Connected=true", "added service0006", "added char0007",
                "added desc0009", "added service000a", "added service0017", "added char0018", "added desc001a",
                // One PropertiesChanged, as bluetoothd sends them (docs/bluez.md 8.6).
                "changed \(device) Device1.ServicesResolved=true", "changed \(device) Device1.UUIDs=[", "reply Connect",
            ])
            // GAP and (behind the battery plugin) Battery are not exported.
            #expect(!events.contains("added service0001"))
            #expect(!events.contains("added service0013"))
            // Battery1 comes after the reply.
            let all = try await h.wire("Battery1 added") { $0 == "added \(device)" }
            #expect(all.lastIndex(of: "added \(device)")! > all.lastIndex(of: "reply Connect")!)
            #expect(try await h.property(h.devicePath, BlueZNames.battery, "Percentage") == .byte(80))
            #expect(try await h.property(h.devicePath, BlueZNames.device, "UUIDs")?.strings == [
                GattLayout.uuid16(0x1800), GattLayout.uuid16(0x1801), AquavateUUID.deviceInformationService,
                AquavateUUID.batteryService, AquavateUUID.service,
            ])
            await expectFailure("org.bluez.Error.AlreadyConnected") { try await h.connect() }
        }
    }

    @Test func gattObjectsHaveBlueZShapes() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.connectFresh()
            let objects = try await h.objects()
            let services = objects.filter { $0.value[BlueZNames.service] != nil }
            #expect(Set(services.compactMap { $0.value[BlueZNames.service]?["UUID"]?.string }) == [
                GattLayout.uuid16(0x1801), AquavateUUID.deviceInformationService, AquavateUUID.service,
            ])
            for (path, interfaces) in services {
                let service = interfaces[BlueZNames.service]!
                #expect(service["Device"]?.objectPath == h.devicePath)
                #expect(service["Primary"]?.bool == true)
                #expect(service["Includes"]?.objectPaths == [])
                let suffix = String(path.rawValue.suffix(4))
                #expect(path.rawValue.dropLast(4).hasSuffix("/service"))
                #expect(service["Handle"]?.uint16 == UInt16(suffix, radix: 16))
            }
            let characteristics = objects.filter { $0.value[BlueZNames.characteristic] != nil }
            #expect(characteristics.count == 1 + 4 + 8)
            for (path, interfaces) in characteristics {
                let properties = interfaces[BlueZNames.characteristic]!
                #expect(path.rawValue.dropLast(4).hasSuffix("/char"))
                #expect(properties["Handle"]?.uint16 == UInt16(path.rawValue.suffix(4), radix: 16))
                #expect(properties["Service"]?.objectPath.map { $0.isAncestor(of: path) } == true)
                #expect(properties["MTU"]?.uint16 == 247)
                #expect(properties["Value"] == nil)  // absent until the first read or notification
                let flags = properties["Flags"]?.strings ?? []
                #expect(!flags.isEmpty)
                #expect((properties["Notifying"] != nil) == (flags.contains("notify") || flags.contains("indicate")))
            }
            let aquavate = Dictionary(uniqueKeysWithValues: characteristics.compactMap { path, interfaces in
                interfaces[BlueZNames.characteristic]?["UUID"]?.string.map { ($0, interfaces[BlueZNames.characteristic]!) }
            })
            #expect(aquavate[Characteristic.command.uuid]?["Flags"]?.strings == ["write"])
            #expect(aquavate[Characteristic.syncControl.uuid]?["Flags"]?.strings == ["read", "write"])
            #expect(aquavate[Characteristic.drinkData.uuid]?["Flags"]?.strings == ["read", "notify"])
            #expect(aquavate[Characteristic.batteryLevel.uuid] == nil)  // battery plugin
            let descriptors = objects.filter { $0.value[BlueZNames.descriptor] != nil }
            #expect(descriptors.count == 1 + 4)  // Service Changed + 4 notifying Aquavate characteristics
            for (path, interfaces) in descriptors {
                let descriptor = interfaces[BlueZNames.descriptor]!
                #expect(descriptor["UUID"]?.string == "00002902-0000-1000-8000-00805f9b34fb")
                #expect(descriptor["Characteristic"]?.objectPath.map { $0.isAncestor(of: path) } == true)
                #expect(path.rawValue.dropLast(4).hasSuffix("/desc"))
            }
        }
    }

    @Test func disconnectRepliesLaterAfterServicesResolvedFalseAndBeforeConnectedFalse() async throws {
        let delay = Duration.milliseconds(400)
        try await withSimulator(testConfiguration { $0.disconnectDelay = delay }, monitor: true) { h in
            try await h.connectFresh()
            try await h.startNotify(.currentState)
            _ = try await h.read(.currentState)
            let started = ContinuousClock.now
            try await h.disconnect()
            #expect(ContinuousClock.now - started >= delay)
            let device = Self.device
            let events = try await h.wire(after: "Disconnect", until: "Connected=false") {
                $0 == "changed \(device) Device1.Connected=false"
            }
            expectInOrder(events, [
                "call Disconnect", "removed \(device)", "changed \(device) Device1.ServicesResolved=false",
                "reply Disconnect", "changed \(device) Device1.Connected=false",
            ])
            // Cache=always: the objects stay; MTU is gone silently; Value and Notifying stay.
            #expect(!events.contains { $0.hasPrefix("removed char") || $0.hasPrefix("removed service") })
            #expect(!events.contains { $0.contains(".MTU") })
            let state = try await h.properties(h.path(.currentState), BlueZNames.characteristic)
            #expect(state["MTU"] == nil)
            #expect(state["Value"]?.bytes?.count == 14)
            #expect(state["Notifying"]?.bool == true)
            #expect(try await h.objects()[h.devicePath]?[BlueZNames.battery] == nil)
            await expectFailure("org.bluez.Error.NotConnected") { try await h.disconnect() }
            await expectFailure("org.bluez.Error.Failed", "Not connected") { _ = try await h.read(.currentState) }
        }
    }

    @Test func cachedObjectsGetTheirMTUBackAndSessionsAreReArmedOnReconnect() async throws {
        try await withSimulator(testConfiguration(), monitor: true) { h in
            try await h.connectFresh()
            try await h.startNotify(.currentState)
            try await h.disconnect()
            try await waitUntil("disconnected") { !h.sim.isConnected }
            try await h.discover()
            try await h.connect()
            #expect(try await h.property(h.path(.currentState), BlueZNames.characteristic, "MTU") == .uint16(247))
            // No second StartNotify: the session was re-armed, so a drink is notified.
            let from = h.signals.count
            let record = try await h.call("/", BlueZNames.simulator, "AddDrink", [.uint16(150)]).decode(0, as: UInt32.self)
            #expect(record == 1)
            let state = try CurrentState(decoding: try await h.notification(.currentState, from: from).value)
            #expect(state.unsyncedCount == 1)
            let events = try await h.wire("reconnect") { $0 == "reply Connect" }
            #expect(events.filter { $0 == "added service0017" }.count == 1)
        }
    }

    @Test func cacheNoRemovesTheObjectsAtEveryDisconnect() async throws {
        try await withSimulator(testConfiguration { $0.gattCache = .no }) { h in
            try await h.connectFresh()
            try await h.startNotify(.currentState)
            let from = h.signals.count
            try await h.disconnect()
            let removed = try await h.signals.wait("characteristic removed", from: from) { $0.isRemoved(h.path(.currentState)) }
            let connectedFalse = try await h.signals.wait("Connected=false", from: from) {
                $0.isChange(h.devicePath, BlueZNames.device, "Connected", .bool(false))
            }
            #expect(removed.index < connectedFalse.index)
            #expect(try await h.objects().keys.filter { h.devicePath.isAncestor(of: $0) }.isEmpty)
            // Connecting again exports them afresh, with no session left.
            try await h.discover()
            try await h.connect()
            #expect(try await h.property(h.path(.currentState), BlueZNames.characteristic, "Notifying") == .bool(false))
        }
    }

    @Test func batteryAsGattExports0x180FAndNoBattery1() async throws {
        try await withSimulator(testConfiguration { $0.battery = .gatt }) { h in
            try await h.connectFresh()
            let objects = try await h.objects()
            #expect(objects[h.devicePath]?[BlueZNames.battery] == nil)
            let battery = try #require(h.sim.path(of: .batteryLevel))
            #expect(objects[battery]?[BlueZNames.characteristic]?["Flags"]?.strings == ["read", "notify"])
            #expect(try await h.read(.batteryLevel) == [80])
            try await h.startNotify(.batteryLevel)
            let from = h.signals.count
            try await h.call("/", BlueZNames.simulator, "SetBattery", [.byte(55)])
            try await h.call("/", BlueZNames.simulator, "AddDrink", [.uint16(100)])  // a rebuild now
            #expect(try await h.notification(.batteryLevel, from: from).value == [55])
        }
    }

    @Test func theBatteryPluginFollowsBatteryNotifications() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.connectFresh()
            try await waitUntil("Battery1") { try await h.objects()[h.devicePath]?[BlueZNames.battery] != nil }
            let from = h.signals.count
            h.sim.setBattery(42)
            h.sim.addDrink(amountML: 100)
            try await h.signals.wait("Percentage=42", from: from) {
                $0.isChange(h.devicePath, BlueZNames.battery, "Percentage", .byte(42))
            }
        }
    }

    @Test func connectWhileConnectingIsInProgressAndDisconnectCancelsIt() async throws {
        try await withSimulator(testConfiguration { $0.connectDelay = .seconds(5) }) { h in
            try await h.discover()
            let first = Task { try await h.connect() }
            try await waitUntil("connecting") { h.sim.core.state.withLock { $0.link == .connecting } }
            await expectFailure("org.bluez.Error.InProgress") { try await h.connect() }
            try await h.disconnect()  // cancels the pending Connect
            await expectFailure("org.bluez.Error.Failed", "le-connection-abort-by-local") { try await first.value }
            #expect(try await h.property(h.devicePath, BlueZNames.device, "Connected") == .bool(false))
        }
    }

    @Test func connectMakesTheDeviceNonTemporarySoASleepIsASupervisionTimeout() async throws {
        try await withSimulator(testConfiguration { $0.temporaryTimeout = .milliseconds(100) }) { h in
            try await h.connectFresh()
            let from = h.signals.count
            try await h.call("/", BlueZNames.simulator, "Sleep")
            let resolved = try await h.signals.wait("ServicesResolved=false", from: from) {
                $0.isChange(h.devicePath, BlueZNames.device, "ServicesResolved", .bool(false))
            }
            try await h.signals.wait("Connected=false", from: resolved.index) {
                $0.isChange(h.devicePath, BlueZNames.device, "Connected", .bool(false))
            }
            #expect(h.sim.core.state.withLock { $0.device?.temporary } == false)
            #expect(try await h.objects()[h.devicePath] != nil)
            #expect(!h.sim.model.isAwake)
            // Asleep: a Connect waits; a wake lets it through.
            async let connect: Void = h.connect()
            try await waitUntil("connecting") { h.sim.core.state.withLock { $0.link == .connecting } }
            h.sim.wake()
            try await connect
            #expect(h.sim.isConnected)
        }
    }

    @Test func pairIsRefusedAndUnknownCallsGetBlueZErrors() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.connectFresh()
            await expectFailure("org.bluez.Error.AuthenticationFailed") {
                try await h.call(h.devicePath, BlueZNames.device, "Pair")
            }
            await expectFailure("org.freedesktop.DBus.Error.UnknownMethod") {
                try await h.call(h.devicePath, BlueZNames.device, "Teleport")
            }
        }
    }
}
