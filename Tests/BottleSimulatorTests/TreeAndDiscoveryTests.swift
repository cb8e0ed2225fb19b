// The BlueZ tree as a client sees it before any connection: the ObjectManager, the adapter, and
// discovery turning the bottle's advertisements into a device object (docs/bluez.md 7.5, 7.6).
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import DBus
import Testing

@Suite struct TreeAndDiscoveryTests {
    @Test func theTreeAtStartHasTheManagersAndAPoweredCentralAdapter() async throws {
        try await withSimulator(testConfiguration()) { h in
            let objects = try await h.objects()
            #expect(Set(objects.keys) == ["/org/bluez", "/org/bluez/hci0"])
            #expect(objects["/org/bluez"]?["org.bluez.AgentManager1"] != nil)
            let adapter = try #require(objects["/org/bluez/hci0"]?[BlueZNames.adapter])
            #expect(adapter["Address"]?.string == "00:1A:7D:DA:71:13")
            #expect(adapter["Powered"]?.bool == true)
            #expect(adapter["Discovering"]?.bool == false)
            #expect(adapter["Roles"]?.strings?.contains("central") == true)
            for name in ["AddressType", "Name", "Alias", "Class", "PowerState", "Discoverable", "Pairable", "UUIDs", "Modalias"] {
                #expect(adapter[name] != nil, "Adapter1.\(name)")
            }
            let filters: [String] = try await h.call(h.adapterPath, BlueZNames.adapter, "GetDiscoveryFilters").decode(0)
            #expect(filters.contains("UUIDs") && filters.contains("Transport"))
            // The test hooks are outside the managed tree.
            #expect(objects["/"] == nil)
        }
    }

    @Test func discoveryMakesTheBottleAppearWithItsAdvertisedProperties() async throws {
        try await withSimulator(testConfiguration()) { h in
            let from = h.signals.count
            try await h.discover()
            try await h.signals.wait("Discovering=true", from: from) {
                $0.isChange(h.adapterPath, BlueZNames.adapter, "Discovering", .bool(true))
            }
            let added = try await h.signals.wait("InterfacesAdded of the device", from: from) { $0.isAdded(h.devicePath) }
            let interfaces: [String: [String: DBusValue]] = try added.signal.arguments[1].decode()
            let device = try #require(interfaces[BlueZNames.device])
            #expect(device["Name"]?.string == "Aquavate-A3F2")
            #expect(device["Alias"]?.string == "Aquavate-A3F2")
            #expect(device["Address"]?.string == "F4:12:FA:00:A3:F4")
            #expect(device["AddressType"]?.string == "public")
            #expect(device["RSSI"]?.int16 == -58)
            #expect(device["UUIDs"]?.strings == [AquavateUUID.batteryService, AquavateUUID.service])
            #expect(device["Adapter"]?.objectPath == h.adapterPath)
            for (name, value) in [("Connected", false), ("ServicesResolved", false), ("Paired", false), ("Trusted", false),
                                  ("Blocked", false), ("LegacyPairing", false)] {
                #expect(device[name]?.bool == value, "Device1.\(name)")
            }
            #expect(device["TxPower"] == nil)  // the advertisement carries no TX power element
            #expect(interfaces[BlueZNames.battery] == nil)
        }
    }

    @Test func stoppingDiscoveryDropsRSSIAndARescanSetsItAgain() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.discover()
            var from = h.signals.count
            try await h.stopDiscovery()
            let stopped = try await h.signals.wait("Discovering=false", from: from) {
                $0.isChange(h.adapterPath, BlueZNames.adapter, "Discovering", .bool(false))
            }
            try await h.signals.wait("RSSI invalidated", from: stopped.index) {
                $0.path == h.devicePath && $0.invalidated(BlueZNames.device) == ["RSSI"]
            }
            #expect(try await h.property(h.devicePath, BlueZNames.device, "RSSI") == nil)
            await expectFailure("org.bluez.Error.NotReady") { try await h.stopDiscovery() }

            // A known device is reported again by a property change, not a new object (7.5).
            from = h.signals.count
            try await h.discover()
            try await h.signals.wait("RSSI set again", from: from) {
                $0.isChange(h.devicePath, BlueZNames.device, "RSSI", .int16(-58))
            }
            #expect(!h.signals.all[from...].contains { $0.isAdded(h.devicePath) })
            await expectFailure("org.bluez.Error.InProgress") {
                try await h.call(h.adapterPath, BlueZNames.adapter, "StartDiscovery")
            }
        }
    }

    @Test func aFilterOnAnotherServiceAndASleepingBottleShowNothing() async throws {
        try await withSimulator(testConfiguration { $0.faults = [.noAdvertise] }) { h in
            try await h.call(h.adapterPath, BlueZNames.adapter, "StartDiscovery")
            try await waitUntil("five advertising slots") { h.sim.core.state.withLock { $0.advertisementSlots >= 5 } }
            #expect(try await h.objects()[h.devicePath] == nil)
            let from = h.signals.count
            try await h.call("/", BlueZNames.simulator, "Wake")
            try await h.signals.wait("the woken bottle's advertisement", from: from) { $0.isAdded(h.devicePath) }
        }
        try await withSimulator(testConfiguration()) { h in
            try await h.call(h.adapterPath, BlueZNames.adapter, "SetDiscoveryFilter", [.variantDictionary([
                "UUIDs": .strings(["0000180d-0000-1000-8000-00805f9b34fb"]),
            ])])
            try await h.call(h.adapterPath, BlueZNames.adapter, "StartDiscovery")
            try await waitUntil("five advertising slots") { h.sim.core.state.withLock { $0.advertisementSlots >= 5 } }
            #expect(try await h.objects()[h.devicePath] == nil)
            await expectFailure("org.bluez.Error.InvalidArguments") {
                try await h.call(h.adapterPath, BlueZNames.adapter, "SetDiscoveryFilter", [.variantDictionary([
                    "Transport": .string("carrier-pigeon"),
                ])])
            }
        }
    }

    @Test func aClientLeavingTheBusEndsItsDiscoverySession() async throws {
        try await withSimulator(testConfiguration()) { h in
            let other = try await BusConnection.connect(.address(h.bus.address))
            try await h.discover(on: other)
            let from = h.signals.count
            await other.close()
            try await h.signals.wait("Discovering=false", from: from) {
                $0.isChange(h.adapterPath, BlueZNames.adapter, "Discovering", .bool(false))
            }
        }
    }

    @Test func anUnconnectedDeviceIsDroppedAfterTheTemporaryTimeout() async throws {
        try await withSimulator(testConfiguration { $0.temporaryTimeout = .milliseconds(200) }) { h in
            try await h.discover()
            let from = h.signals.count
            try await h.stopDiscovery()
            try await h.signals.wait("the temporary device removed", from: from) { $0.isRemoved(h.devicePath) }
            await expectFailure("org.freedesktop.DBus.Error.UnknownObject") { try await h.connect() }
        }
    }

    @Test func removeDeviceRemovesTheObjectAndRefusesUnknownPaths() async throws {
        try await withSimulator(testConfiguration()) { h in
            await expectFailure("org.bluez.Error.DoesNotExist") {
                try await h.call(h.adapterPath, BlueZNames.adapter, "RemoveDevice", [.objectPath(h.devicePath)])
            }
            try await h.connectFresh()
            let from = h.signals.count
            try await h.call(h.adapterPath, BlueZNames.adapter, "RemoveDevice", [.objectPath(h.devicePath)])
            // Connected first goes false (BlueZ disconnects before removing), then the object goes.
            let down = try await h.signals.wait("Connected=false", from: from) {
                $0.isChange(h.devicePath, BlueZNames.device, "Connected", .bool(false))
            }
            try await h.signals.wait("device removed", from: down.index) { $0.isRemoved(h.devicePath) }
            #expect(try await h.objects().keys.allSatisfy { !$0.rawValue.hasPrefix(h.devicePath.rawValue) })
        }
    }
}
