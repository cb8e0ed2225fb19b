// A bottle's GATT objects on the dbusmock BlueZ: the Aquavate service with its characteristics
// (paths and properties shaped as BlueZ's, docs/bluez.md 7.6), and scripted Device1 methods.

import BusTestSupport
import AquavateProtocol
import BlueZ
import DBus
import Foundation

enum Py {
    static let characteristic = "org.bluez.GattCharacteristic1"
    static let device = "org.bluez.Device1"

    /// ReadValue: the stored Value, echoed as a PropertiesChanged like BlueZ (7.2).
    static let readValue = """
        ret = self.props['org.bluez.GattCharacteristic1']['Value']
        self.UpdateProperties('org.bluez.GattCharacteristic1', {'Value': ret})
        """
    static let startNotify = "self.UpdateProperties('org.bluez.GattCharacteristic1', {'Notifying': dbus.Boolean(True, variant_level=1)})"
    static let stopNotify = "self.UpdateProperties('org.bluez.GattCharacteristic1', {'Notifying': dbus.Boolean(False, variant_level=1)})"

    /// Connect as BlueZ does it for a device whose services are cached.
    static let connectAndResolve = "self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(True, variant_level=1), 'ServicesResolved': dbus.Boolean(True, variant_level=1)})"
    /// Disconnect: ServicesResolved goes false before Connected (7.8).
    static let disconnect = """
        self.UpdateProperties('org.bluez.Device1', {'ServicesResolved': dbus.Boolean(False, variant_level=1)})
        self.UpdateProperties('org.bluez.Device1', {'Connected': dbus.Boolean(False, variant_level=1)})
        """

    /// Runs `code` (one line, using `self`) later, from dbusmock's GLib main loop. `self` is
    /// bound as a default argument: the method's locals are not visible inside a lambda.
    static func later(_ milliseconds: Int, _ code: String) -> String {
        "from gi.repository import GLib\nGLib.timeout_add(\(milliseconds), lambda self=self: (\(code)) and False)"
    }
}

extension MockBlueZ {
    static let bottleAddress = "F4:12:FA:00:A3:F4"

    /// An adapter and a bottle device on it.
    func addBottle(name: String = "Aquavate-A3F2") async throws -> DBusObjectPath {
        try await addAdapter()
        return try await addDevice(Self.bottleAddress, name: name)
    }

    /// The Aquavate service and its characteristics under `device` (and the Battery service
    /// unless BlueZ's battery plugin hides it).
    func addBottleGATT(_ device: DBusObjectPath, mtu: UInt16? = 247, batteryService: Bool = true,
                       only: [Characteristic]? = nil) async throws {
        let service = device.appending("service0010")
        try await addObject(service, "org.bluez.GattService1", [
            "UUID": .string(AquavateUUID.service), "Primary": .bool(true), "Device": .objectPath(device),
        ])
        let wanted = only ?? [.currentState, .bottleConfig, .syncControl, .drinkData, .command]
        for (index, characteristic) in wanted.enumerated() {
            try await addCharacteristic(characteristic, at: service.appending(String(format: "char%04x", 0x11 + index * 2)),
                                        service: service, mtu: mtu)
        }
        if batteryService {
            let battery = device.appending("service0030")
            try await addObject(battery, "org.bluez.GattService1", [
                "UUID": .string(AquavateUUID.batteryService), "Primary": .bool(true), "Device": .objectPath(device),
            ])
            try await addCharacteristic(.batteryLevel, at: battery.appending("char0031"), service: battery, mtu: mtu, value: [77])
        }
    }

    func addCharacteristic(_ characteristic: Characteristic, at path: DBusObjectPath, service: DBusObjectPath,
                           mtu: UInt16?, value: [UInt8] = [0, 0, 0, 0, 0, 0]) async throws {
        var properties: [String: DBusValue] = [
            "UUID": .string(characteristic.uuid), "Service": .objectPath(service),
            "Flags": .strings(["read", "write", "notify"]), "Notifying": .bool(false), "Value": .bytes(value),
        ]
        if let mtu { properties["MTU"] = .uint16(mtu) }
        try await addObject(path, Py.characteristic, properties, methods: [
            ("ReadValue", "a{sv}", "ay", Py.readValue),
            ("WriteValue", "aya{sv}", "", ""),
            ("StartNotify", "", "", Py.startNotify),
            ("StopNotify", "", "", Py.stopNotify),
        ])
    }

    func characteristicPath(_ device: DBusObjectPath, _ characteristic: Characteristic) -> DBusObjectPath {
        if characteristic == .batteryLevel { return device.appending("service0030").appending("char0031") }
        let order: [Characteristic] = [.currentState, .bottleConfig, .syncControl, .drinkData, .command]
        let index = order.firstIndex(of: characteristic) ?? 0
        return device.appending("service0010").appending(String(format: "char%04x", 0x11 + index * 2))
    }

    /// Replaces Connect and Disconnect with scripts that behave like BlueZ with cached services.
    func scriptConnect(_ device: DBusObjectPath, connect: String = Py.connectAndResolve) async throws {
        try await setMethod(device, Py.device, "Connect", code: connect)
        try await setMethod(device, Py.device, "Disconnect", code: Py.disconnect)
    }
}
