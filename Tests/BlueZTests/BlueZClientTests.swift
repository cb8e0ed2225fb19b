// The BlueZ client against python-dbusmock's bluez5 template on a private bus: an adapter and
// device peer nobody here wrote, plus scripted methods for BlueZ's failure modes (docs/bluez.md 5).

import BusTestSupport
import AquavateProtocol
import BlueZ
import DBus
import Foundation
import Logging
import Testing

/// Short time-outs so failing paths fail fast; the logic is the standard one.
let fastPolicy = ConnectPolicy(
    attemptTimeout: .seconds(3), safetyTimeout: .seconds(20), maxAttempts: 2, maxTransientErrors: 4,
    transientBackoff: .milliseconds(10), deviceGoneBackoff: .milliseconds(10), abortSettleTimeout: .seconds(3),
    gattObjectsTimeout: .seconds(3), disconnectTimeout: .seconds(3), gattOperationTimeout: .seconds(3))

let required = BlueZBottleRequirements.uuids

enum BlueZBottleRequirements {
    static let uuids = [Characteristic.currentState, .syncControl, .drinkData, .command].map(\.uuid)
}

@Suite(.timeLimit(.minutes(2))) struct BlueZClientTests {
    // MARK: Start-up and adapters

    @Test func noBluetoothdIsAClearError() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let error = await #expect(throws: BluetoothServiceUnavailable.self) {
            _ = try await BlueZClient.connect(bus: .address(bus.address))
        }
        #expect(error?.description.contains("is bluetoothd running?") == true)
    }

    @Test func noAdapterThenOneAppears() async throws {
        try await MockBlueZ.with { mock in
            let client = try await mock.client()
            #expect(throws: NoBluetoothAdapter.self) { try client.chooseAdapter(named: nil) }
            try await mock.addAdapter("hci0")
            let adapter = try await client.waitUntil("the adapter", timeout: .seconds(5)) { $0.adapters.first }
            #expect(adapter.name == "hci0")
            #expect(adapter.powered)
            #expect(adapter.canBeCentral)  // the mock has no Roles: older BlueZ
            #expect(try client.chooseAdapter(named: nil).path == "/org/bluez/hci0")
            await client.close()
        }
    }

    @Test func choosesANamedOrThePoweredAdapterAndExplainsPowerOff() async throws {
        try await MockBlueZ.with { mock in
            let hci0 = try await mock.addAdapter("hci0")
            try await mock.addAdapter("hci1")
            try await mock.update(hci0, "org.bluez.Adapter1", ["Powered": .bool(false)])
            let client = try await mock.client()
            #expect(try client.chooseAdapter(named: nil).name == "hci1")
            #expect(try client.chooseAdapter(named: "hci1").name == "hci1")
            let off = #expect(throws: AdapterPoweredOff.self) { try client.chooseAdapter(named: "hci0") }
            #expect(off?.description.contains("bluetoothctl power on") == true)
            let missing = #expect(throws: AdapterNotFound.self) { try client.chooseAdapter(named: "hci7") }
            #expect(missing?.available == ["hci0", "hci1"])

            try await mock.update("/org/bluez/hci1", "org.bluez.Adapter1", ["Powered": .bool(false)])
            _ = try await client.waitUntil("hci1 off", timeout: .seconds(5)) { $0.adapter("/org/bluez/hci1")?.powered == false ? true : nil }
            #expect(throws: AdapterPoweredOff.self) { try client.chooseAdapter(named: nil) }

            // Powered on again: no restart needed (F14).
            let adapter = try #require(client.objects.adapter(hci0))
            async let powered: Void = client.waitUntilPowered(adapter, timeout: .seconds(5))
            try await mock.update(hci0, "org.bluez.Adapter1", ["Powered": .bool(true)])
            try await powered
            #expect(try client.chooseAdapter(named: nil).name == "hci0")
            await client.close()
        }
    }

    @Test func adaptersWithoutTheCentralRoleAreSkipped() {
        let objects = BlueZObjects([
            "/org/bluez/hci0": ["org.bluez.Adapter1": ["Powered": .bool(true), "Roles": .strings(["peripheral"])]],
            "/org/bluez/hci1": ["org.bluez.Adapter1": ["Powered": .bool(true), "Roles": .strings(["central", "peripheral"])]],
        ])
        #expect((try? objects.chooseAdapter(named: nil))?.name == "hci1")
        #expect(throws: AdapterNotCentral.self) { try objects.chooseAdapter(named: "hci0") }
    }

    @Test func aCharacteristicIsFoundByUUIDInAnyCaseFirstInPathOrderAndOnlyBelowItsDevice() throws {
        let device: DBusObjectPath = "/org/bluez/hci0/dev_F4_12_FA_00_A3_F4"
        let uuid = "6E400002-B5A3-F393-E0A9-E50E24DCCA9E"
        func characteristic(_ uuid: String) -> [String: [String: DBusValue]] {
            ["org.bluez.GattCharacteristic1": ["UUID": .string(uuid), "Flags": .strings(["write"])]]
        }
        let objects = BlueZObjects([
            "/org/bluez/hci0": ["org.bluez.Adapter1": ["Powered": .bool(true)]],
            "/org/bluez/hci0/dev_F4_12_FA_00_A3_F4": ["org.bluez.Device1": ["Address": .string("F4:12:FA:00:A3:F4")]],
            // The same UUID twice under the device (two services); the earlier path is the one.
            "/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0020/char0021": characteristic(uuid.lowercased()),
            "/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0017/char0018": characteristic(uuid.lowercased()),
            "/org/bluez/hci0/dev_F4_12_FA_00_A3_F4/service0017/char001b": characteristic("6e400003-b5a3-f393-e0a9-e50e24dcca9e"),
            // Another device's characteristic with the same UUID, earlier in path order.
            "/org/bluez/hci0/dev_00_00_00_00_00_01/service0001/char0002": characteristic(uuid),
        ])
        #expect(objects.characteristic(of: device, uuid: uuid)?.path.rawValue == "\(device.rawValue)/service0017/char0018")
        #expect(objects.characteristic(of: device, uuid: uuid.lowercased())?.uuid == uuid.lowercased())
        #expect(objects.characteristic(of: device, uuid: "0000180a-0000-1000-8000-00805f9b34fb") == nil)
        #expect(objects.characteristics(of: device).map { $0.path.rawValue } == [
            "\(device.rawValue)/service0017/char0018", "\(device.rawValue)/service0017/char001b",
            "\(device.rawValue)/service0020/char0021",
        ])
        #expect(objects.devices().map { $0.address } == ["F4:12:FA:00:A3:F4"])
    }

    // MARK: Discovery

    @Test func discoveryIsFilteredAndFindsBottlesByName() async throws {
        try await MockBlueZ.with { mock in
            let adapterPath = try await mock.addAdapter()
            let client = try await mock.client()
            let discovery = Discovery(client: client, adapter: try client.chooseAdapter(named: nil))
            let sightings = discovery.sightings()
            try await discovery.start()

            let filters = try await mock.calls(adapterPath, "SetDiscoveryFilter")
            let filter = try #require(filters.first?.first?.stringDictionary)
            #expect(filter["UUIDs"]?.strings == [AquavateUUID.service])
            #expect(filter["Transport"]?.string == "le")
            #expect(filter["DuplicateData"]?.bool == false)
            #expect(try await mock.calls(adapterPath, "StartDiscovery").count == 1)
            _ = try await client.waitUntil("Discovering", timeout: .seconds(5)) { $0.adapter(adapterPath)?.discovering == true ? true : nil }

            try await mock.addDevice("11:22:33:44:55:66", name: "SomeHeadphones")
            let bottle = try await mock.addDevice(MockBlueZ.bottleAddress, name: "Aquavate-A3F2")
            let first = try #require(await sightings.next(within: .seconds(5)))
            #expect(first.name == "Aquavate-A3F2")
            #expect(first.address == MockBlueZ.bottleAddress)
            #expect(first.device == bottle)
            #expect(first.rssi == -79)

            // docs/bluez.md 7.5: a known device is reported again only through a property change.
            try await mock.update(bottle, "org.bluez.Device1", ["RSSI": .int16(-60)])
            let again = try #require(await sightings.next(within: .seconds(5)))
            #expect(again.device == bottle)
            #expect(again.rssi == -60)
            #expect(await sightings.next(within: .milliseconds(200)) == nil)

            // F17: StopDiscovery's NotReady is ignored; the filter is reset afterwards.
            try await mock.setMethod(adapterPath, "org.bluez.Adapter1", "StopDiscovery",
                                     code: "raise dbus.exceptions.DBusException('Resource Not Ready', name='org.bluez.Error.NotReady')")
            await discovery.stop()
            let resets = try await mock.calls(adapterPath, "SetDiscoveryFilter")
            #expect(resets.count == 2)
            #expect(resets.last?.first?.stringDictionary?.isEmpty == true)
            sightings.cancel()
            await client.close()
        }
    }

    @Test func startingDiscoveryOnAnAdapterThatIsNotReadySaysPoweredOff() async throws {
        try await MockBlueZ.with { mock in
            let adapterPath = try await mock.addAdapter()
            try await mock.setMethod(adapterPath, "org.bluez.Adapter1", "StartDiscovery",
                                     code: "raise dbus.exceptions.DBusException('Resource Not Ready', name='org.bluez.Error.NotReady')")
            let client = try await mock.client()
            let discovery = Discovery(client: client, adapter: try client.chooseAdapter(named: nil))
            await #expect(throws: AdapterPoweredOff.self) { try await discovery.start() }
            await client.close()
        }
    }

    // MARK: Connecting

    @Test func connectsAndDisconnectsThroughTheMock() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            let client = try await mock.client()
            // The template's Connect sets Connected; BlueZ then resolves services.
            let resolver = Task {
                _ = try await client.waitUntil("Connected", timeout: .seconds(10)) { $0.device(device)?.connected == true ? true : nil }
                try await mock.update(device, "org.bluez.Device1", ["ServicesResolved": .bool(true)])
            }
            let connection = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            try await resolver.value
            #expect(try await mock.calls(device, "Connect").count == 1)
            #expect(connection.address == MockBlueZ.bottleAddress)
            #expect(connection.name == "Aquavate-A3F2")
            #expect(await connection.mtu() == 247)

            // GATT: UUIDs compared case-insensitively; write with type=request.
            #expect(connection.characteristic(Characteristic.syncControl.uuid.uppercased()) != nil)
            let command = mock.characteristicPath(device, .command)
            try await connection.write(Characteristic.command.uuid, [0x02, 0, 0, 0])
            let writes = try await mock.calls(command, "WriteValue")
            #expect(writes.first?.first?.bytes == [0x02, 0, 0, 0])
            #expect(writes.first?.last?.stringDictionary?["type"]?.string == "request")
            #expect(try await connection.read(Characteristic.currentState.uuid) == [0, 0, 0, 0, 0, 0])

            await connection.disconnect()
            #expect(try await mock.calls(device, "Disconnect").count == 1)
            _ = try await client.waitUntil("Connected=false", timeout: .seconds(5)) { $0.device(device)?.connected == false ? true : nil }
            #expect(connection.lostReason == .local)
            await client.close()
        }
    }

    @Test func adoptsADeviceBlueZAlreadyConnected() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            try await mock.connectDevice(MockBlueZ.bottleAddress)
            try await mock.update(device, "org.bluez.Device1", ["ServicesResolved": .bool(true)])
            let client = try await mock.client()
            let connection = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            #expect(try await mock.calls(device, "Connect").isEmpty)  // F4: adopted, not connected again
            await connection.close()
            await client.close()
        }
    }

    @Test func retriesAfterAbortByLocalOnceConnectedGoesFalse() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            // F1 as bluetoothd does it: Connected=true, the error reply, then Connected=false
            // (here 400 ms later, longer than the retry back-off: only waiting for it is safe).
            try await mock.scriptConnect(device, connect: """
                self.n = getattr(self, 'n', 0) + 1
                if self.n <= 2:
                    self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(True, variant_level=1)})
                    \(Py.later(400, "[self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(False, variant_level=1)}), setattr(self, 'falses', getattr(self, 'falses', 0) + 1)]").replacingOccurrences(of: "\n", with: "\n    "))
                    raise dbus.exceptions.DBusException('le-connection-abort-by-local', name='org.bluez.Error.Failed')
                \(Py.connectAndResolve)
                """)
            let client = try await mock.client()
            let connection = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            #expect(try await mock.calls(device, "Connect").count == 3)
            // Had we retried before the false, that late false would drop the link: wait until the
            // mock has sent both, asking on the client's own connection (the reply comes after
            // every signal the mock sent before it), then the link must still stand.
            try await mock.setMethod(device, "org.aquavate.Test", "LateFalses", out: "u", code: "ret = getattr(self, 'falses', 0)")
            try await waitUntil(.seconds(10), "the mock's two late Connected=false") {
                try await client.call(device, "org.aquavate.Test", "LateFalses").first == .uint32(2)
            }
            #expect(connection.lostReason == nil)
            #expect(client.objects.device(device)?.connected == true)
            await connection.disconnect()
            await client.close()
        }
    }

    @Test func aVanishedDeviceIsNotFoundNotRetried() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            let client = try await mock.client()
            // RemoveDevice: InterfacesRemoved, and Connect answers UnknownObject.
            _ = try await mock.control.call(destination: "org.bluez", path: "/org/bluez/hci0", interface: "org.bluez.Adapter1",
                                            method: "RemoveDevice", arguments: [.objectPath(device)])
            _ = try await client.waitUntil("removal", timeout: .seconds(5)) { $0.device(device) == nil ? true : nil }
            await #expect(throws: DeviceVanished.self) {
                _ = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            }
            await client.close()
        }
    }

    @Test func unknownObjectFromConnectMeansTheDeviceVanished() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            let client = try await mock.client()
            // The object goes without an InterfacesRemoved: our cache still has it, BlueZ does not.
            try await mock.removeObjectSilently(device)
            #expect(client.objects.device(device) != nil)
            let error = await #expect(throws: DeviceVanished.self) {
                _ = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            }
            #expect(error?.description.contains(MockBlueZ.bottleAddress) == true)
            #expect(ConnectPolicy.standard.backoff(after: error) == .seconds(4))
            await client.close()
        }
    }

    @Test func aDisconnectDuringServiceDiscoveryFailsTheAttempt() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            // F6: Connected, then dropped before ServicesResolved.
            try await mock.scriptConnect(device, connect: """
                self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(True, variant_level=1)})
                \(Py.later(100, "self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(False, variant_level=1)})"))
                """)
            let client = try await mock.client()
            let error = await #expect(throws: ConnectFailed.self) {
                _ = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            }
            #expect(error?.reason.contains("disconnected during service discovery") == true)
            #expect(error?.attempts == 2)
            await client.close()
        }
    }

    @Test func aDeviceRemovedDuringServiceDiscoveryHasVanished() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            // 7.3: the object vanishes, with no Connected=false.
            try await mock.scriptConnect(device, connect: """
                self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(True, variant_level=1)})
                \(Py.later(100, "objects['/'].EmitSignal('org.freedesktop.DBus.ObjectManager', 'InterfacesRemoved', 'oas', [dbus.ObjectPath('\(device.rawValue)'), ['org.bluez.Device1']])"))
                """)
            let client = try await mock.client()
            await #expect(throws: DeviceVanished.self) {
                _ = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            }
            await client.close()
        }
    }

    @Test func waitsForGATTObjectsThatComeAfterServicesResolved() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.scriptConnect(device)
            let client = try await mock.client()
            // 7.4 (bluez/bluez#1489): ServicesResolved first, the objects 300 ms later.
            let adder = Task {
                _ = try await client.waitUntil("resolved", timeout: .seconds(10)) { $0.device(device)?.servicesResolved == true ? true : nil }
                try await Task.sleep(for: .milliseconds(300))
                try await mock.addBottleGATT(device)
            }
            let connection = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            try await adder.value
            #expect(connection.characteristic(Characteristic.drinkData.uuid) != nil)
            await connection.disconnect()
            await client.close()
        }
    }

    @Test func aStaleCacheIsRemovedSoTheDeviceIsFoundAgain() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device, only: [.currentState, .bottleConfig])  // no sync characteristics
            try await mock.scriptConnect(device)
            let client = try await mock.client()
            var policy = fastPolicy
            policy.gattObjectsTimeout = .milliseconds(300)
            let error = await #expect(throws: StaleGATTCache.self) {
                _ = try await Connector(client: client, policy: policy).connect(device, requiring: required)
            }
            #expect(error?.missing.count == 3)
            // F7: RemoveDevice wiped it.
            #expect(try await mock.calls("/org/bluez/hci0", "RemoveDevice").count == 1)
            _ = try await client.waitUntil("removal", timeout: .seconds(5)) { $0.device(device) == nil ? true : nil }
            await client.close()
        }
    }

    @Test func aConnectThatHangsIsCancelledWithDisconnect() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            // F18: the reply to Connect never comes in time.
            try await mock.scriptConnect(device, connect: "import time\ntime.sleep(1.5)")
            let client = try await mock.client()
            var policy = fastPolicy
            policy.attemptTimeout = .milliseconds(300)
            policy.maxAttempts = 1
            let error = await #expect(throws: ConnectFailed.self) {
                _ = try await Connector(client: client, policy: policy).connect(device, requiring: required)
            }
            #expect(error?.reason.contains("no reply to Connect") == true)
            #expect(try await mock.calls(device, "Disconnect").count >= 1)

            // The outer safety time-out bounds everything.
            policy.attemptTimeout = .seconds(10)
            policy.safetyTimeout = .milliseconds(500)
            await #expect(throws: ConnectTimedOut.self) {
                _ = try await Connector(client: client, policy: policy).connect(device, requiring: required)
            }
            await client.close()
        }
    }

    // MARK: GATT

    @Test func inProgressIsRetriedUntilTheOperationGoesThrough() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            try await mock.scriptConnect(device)
            let syncControl = mock.characteristicPath(device, .syncControl)
            // F2: three InProgress replies, then the value.
            try await mock.setMethod(syncControl, Py.characteristic, "ReadValue", in: "a{sv}", out: "ay", code: """
                self.reads = getattr(self, 'reads', 0) + 1
                if self.reads <= 3:
                    raise dbus.exceptions.DBusException('Operation already in progress', name='org.bluez.Error.InProgress')
                ret = dbus.Array([dbus.Byte(b) for b in [0, 0, 5, 0, 0, 0, 20, 0]], signature='y')
                """)
            try await mock.setMethod(syncControl, Py.characteristic, "WriteValue", in: "aya{sv}", code: """
                self.writes = getattr(self, 'writes', 0) + 1
                if self.writes <= 2:
                    raise dbus.exceptions.DBusException('Operation already in progress', name='org.bluez.Error.InProgress')
                """)
            let client = try await mock.client()
            let connection = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            #expect(try await connection.read(Characteristic.syncControl.uuid) == [0, 0, 5, 0, 0, 0, 20, 0])
            #expect(try await mock.calls(syncControl, "ReadValue").count == 4)
            try await connection.write(Characteristic.syncControl.uuid, SyncControl.ack.encoded())
            #expect(try await mock.calls(syncControl, "WriteValue").count == 3)
            await connection.disconnect()
            await client.close()
        }
    }

    @Test func aNotificationBeforeStartNotifyReturnsIsDelivered() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            try await mock.scriptConnect(device)
            let drinkData = mock.characteristicPath(device, .drinkData)
            // F10: the value is sent before the reply to StartNotify.
            try await mock.setMethod(drinkData, Py.characteristic, "StartNotify", code: """
                self.UpdateProperties('org.bluez.GattCharacteristic1', {'Notifying': dbus.Boolean(True, variant_level=1)})
                self.UpdateProperties('org.bluez.GattCharacteristic1', {'Value': dbus.Array([dbus.Byte(7), dbus.Byte(1)], signature='y', variant_level=1)})
                """)
            let client = try await mock.client()
            let connection = try await Connector(client: client, policy: fastPolicy).connect(device, requiring: required)
            try await connection.startNotify(Characteristic.drinkData.uuid)
            guard case .element(let event) = await connection.events.next(within: .seconds(5)) else {
                Issue.record("no event")
                return
            }
            #expect(event == .value(uuid: Characteristic.drinkData.uuid, [7, 1]))
            // Delivered once: nothing else is on the link.
            #expect(connection.events.nextIfAvailable() == nil)
            await connection.disconnect()
            await client.close()
        }
    }

    @Test func theLinkIsLostOnDisconnectAndOnAVanishedObject() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device)
            try await mock.scriptConnect(device)
            let client = try await mock.client()
            let connector = Connector(client: client, policy: fastPolicy)

            let first = try await connector.connect(device, requiring: required)
            try await mock.update(device, Py.device, ["Connected": .bool(false)])
            guard case .element(.linkLost(.disconnected)) = await first.events.next(within: .seconds(5)) else {
                Issue.record("expected a disconnect")
                return
            }
            await #expect(throws: LinkLost.self) { _ = try await first.read(Characteristic.syncControl.uuid) }
            await first.close()

            // 7.3: the object is removed with no Connected=false.
            let second = try await connector.connect(device, requiring: required)
            try await mock.removeObject(device, interfaces: [Py.device])
            guard case .element(.linkLost(.vanished)) = await second.events.next(within: .seconds(5)) else {
                Issue.record("expected the device to vanish")
                return
            }
            await second.close()
            await client.close()
        }
    }

    @Test func batteryFromBattery1OrFromTheBatteryService() async throws {
        try await MockBlueZ.with { mock in
            let device = try await mock.addBottle()
            try await mock.addBottleGATT(device, batteryService: true)
            try await mock.scriptConnect(device)
            let client = try await mock.client()
            let connector = Connector(client: client, policy: fastPolicy)
            let gatt = try await connector.connect(device, requiring: required)
            #expect(try await gatt.startBatteryReports() == 77)
            await gatt.disconnect()

            // BlueZ's battery plugin: org.bluez.Battery1 on the device.
            try await mock.addProperties(device, "org.bluez.Battery1", ["Percentage": .byte(64)])
            try await mock.emit(from: "/", "org.freedesktop.DBus.ObjectManager", "InterfacesAdded", "oa{sa{sv}}", [
                .objectPath(device),
                .dict(key: "s", value: "a{sv}", [DBusDictEntry(key: .string("org.bluez.Battery1"),
                                                               value: .variantDictionary(["Percentage": .byte(64)]))]),
            ])
            _ = try await client.waitUntil("Battery1", timeout: .seconds(5)) { $0.device(device)?.batteryPercentage }
            let plugin = try await connector.connect(device, requiring: required)
            #expect(try await plugin.startBatteryReports() == 64)
            try await mock.update(device, "org.bluez.Battery1", ["Percentage": .byte(63)])
            guard case .element(.battery(63)) = await plugin.events.next(within: .seconds(5)) else {
                Issue.record("expected a battery change")
                return
            }
            await plugin.disconnect()
            await client.close()
        }
    }
}

@Suite(.timeLimit(.minutes(2))) struct DiscoveryEndTests {
    @Test func sightingsEndWhenTheAdapterIsPoweredOffOrRemoved() async throws {
        try await MockBlueZ.with { mock in
            let adapterPath = try await mock.addAdapter()
            let client = try await mock.client()
            let discovery = Discovery(client: client, adapter: try client.chooseAdapter(named: nil))
            let sightings = discovery.sightings()
            try await discovery.start()
            // The sightings stream exists before the power goes: the end is queued for the waiter
            // whenever it starts waiting.
            async let waited = sightings.next(within: .seconds(10))
            try await mock.update(adapterPath, "org.bluez.Adapter1", ["Powered": .bool(false)])
            #expect(await waited == nil)
            #expect(sightings.ended == .adapterPoweredOff)
            sightings.cancel()

            try await mock.update(adapterPath, "org.bluez.Adapter1", ["Powered": .bool(true)])
            let again = discovery.sightings()
            _ = try await mock.control.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock",
                                            method: "RemoveAdapter", arguments: [.string("hci0")])
            #expect(await again.next(within: .seconds(10)) == nil)
            #expect(again.ended == .adapterRemoved)
            again.cancel()
            await client.close()
        }
    }
}
