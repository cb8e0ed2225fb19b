// The object-manager cache of `org.bluez` as a value: the `GetManagedObjects` tree, kept current
// by `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged`, with typed views of the
// adapters, devices and GATT characteristics in it.

import DBus

/// Every object BlueZ exports, with its interfaces and their properties.
package struct BlueZObjects: Sendable {
    package typealias Interfaces = [String: [String: DBusValue]]

    package private(set) var objects: [DBusObjectPath: Interfaces]

    package init(_ objects: [DBusObjectPath: Interfaces] = [:]) {
        self.objects = objects
    }

    // MARK: Keeping current

    /// `InterfacesAdded`: merges the interfaces (and their properties) into the object.
    package mutating func add(_ path: DBusObjectPath, _ interfaces: Interfaces) {
        var current = objects[path] ?? [:]
        for (name, properties) in interfaces {
            current[name, default: [:]].merge(properties) { $1 }
        }
        objects[path] = current
    }

    /// `InterfacesRemoved`: drops the interfaces, and the object once it has none left.
    package mutating func remove(_ path: DBusObjectPath, interfaces: [String]) {
        guard var current = objects[path] else { return }
        for name in interfaces { current[name] = nil }
        objects[path] = current.isEmpty ? nil : current
    }

    /// `PropertiesChanged`. A change for an object or interface not in the tree is ignored:
    /// BlueZ announces objects before it changes them, so it can only be a late echo.
    package mutating func change(
        _ path: DBusObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String]
    ) {
        guard objects[path]?[interface] != nil else { return }
        objects[path]![interface]!.merge(changed) { $1 }
        for name in invalidated { objects[path]![interface]![name] = nil }
    }

    /// Drops everything (bluetoothd left the bus).
    package mutating func removeAll() {
        objects.removeAll()
    }

    // MARK: Views

    package func properties(_ path: DBusObjectPath, _ interface: String) -> [String: DBusValue]? {
        objects[path]?[interface]
    }

    /// The adapters, in name order (hci0, hci1, … hci10).
    package var adapters: [BlueZAdapter] {
        objects.compactMap { path, interfaces in
            interfaces[BlueZNames.adapterInterface].map { BlueZAdapter(path: path, properties: $0) }
        }.sorted { $0.sortKey < $1.sortKey }
    }

    package func adapter(_ path: DBusObjectPath) -> BlueZAdapter? {
        properties(path, BlueZNames.adapterInterface).map { BlueZAdapter(path: path, properties: $0) }
    }

    package func device(_ path: DBusObjectPath) -> BlueZDevice? {
        guard let interfaces = objects[path], let device = interfaces[BlueZNames.deviceInterface] else { return nil }
        return BlueZDevice(path: path, properties: device, battery: interfaces[BlueZNames.batteryInterface])
    }

    /// Devices below `adapter` (all adapters when nil), in path order.
    package func devices(on adapter: DBusObjectPath? = nil) -> [BlueZDevice] {
        objects.keys.filter { adapter?.isAncestor(of: $0) ?? true }.sorted().compactMap(device)
    }

    /// GATT characteristics below `device`, in path order.
    ///
    /// The paths below the device are picked out before they are sorted: the cache holds every
    /// object BlueZ knows (adapters, other devices, services, descriptors), and this runs for
    /// every read and write of a session.
    package func characteristics(of device: DBusObjectPath) -> [GATTCharacteristicInfo] {
        objects.compactMap { path, interfaces in
            guard device.isAncestor(of: path), let properties = interfaces[BlueZNames.characteristicInterface] else { return nil }
            return GATTCharacteristicInfo(path: path, properties: properties)
        }.sorted { $0.path < $1.path }
    }

    /// The characteristic of `device` with `uuid`, compared case-insensitively (BlueZ reports
    /// lower case, docs/protocol.md 2 writes upper case). With several, the first in path order.
    ///
    /// One pass, nothing sorted and one description built: every GATT operation asks this.
    package func characteristic(of device: DBusObjectPath, uuid: String) -> GATTCharacteristicInfo? {
        let wanted = uuid.lowercased()
        var found: (path: DBusObjectPath, properties: [String: DBusValue])?
        for (path, interfaces) in objects where device.isAncestor(of: path) {
            guard let properties = interfaces[BlueZNames.characteristicInterface],
                  properties["UUID"]?.string?.lowercased() == wanted else { continue }
            if let earlier = found, earlier.path < path { continue }
            found = (path, properties)
        }
        return found.map { GATTCharacteristicInfo(path: $0.path, properties: $0.properties) }
    }

    /// UUIDs of the GATT services below `device`, lower case, in path order.
    package func serviceUUIDs(of device: DBusObjectPath) -> [String] {
        objects.compactMap { path, interfaces -> (DBusObjectPath, String)? in
            guard device.isAncestor(of: path), let uuid = interfaces[BlueZNames.serviceInterface]?["UUID"]?.string else { return nil }
            return (path, uuid.lowercased())
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// An adapter (`org.bluez.Adapter1`).
package struct BlueZAdapter: Sendable, Equatable {
    package var path: DBusObjectPath
    /// The last path element, e.g. `hci0`.
    package var name: String
    package var address: String?
    package var powered: Bool
    package var discovering: Bool
    /// `Roles` (BlueZ ≥ 5.59); nil when the adapter does not say.
    package var roles: [String]?

    package init(path: DBusObjectPath, properties: [String: DBusValue]) {
        self.path = path
        self.name = String(path.rawValue.split(separator: "/").last ?? "")
        self.address = properties["Address"]?.string
        self.powered = properties["Powered"]?.bool ?? false
        self.discovering = properties["Discovering"]?.bool ?? false
        self.roles = properties["Roles"]?.strings
    }

    /// Whether it can connect to a peripheral: says "central", or does not say (older BlueZ).
    package var canBeCentral: Bool { roles.map { $0.contains("central") } ?? true }

    /// hciN sorts by N.
    var sortKey: (Int, String) {
        let digits = name.reversed().prefix { $0.isNumber }
        return (Int(String(digits.reversed())) ?? Int.max, name)
    }
}

/// A device (`org.bluez.Device1`, and `org.bluez.Battery1` when the battery plugin is active).
package struct BlueZDevice: Sendable, Equatable {
    package var path: DBusObjectPath
    package var address: String
    package var name: String?
    package var alias: String?
    /// Present only while discovery sees the device (docs/bluez.md 7.5).
    package var rssi: Int?
    package var connected: Bool
    package var servicesResolved: Bool
    package var uuids: [String]
    package var adapter: DBusObjectPath?
    /// `org.bluez.Battery1.Percentage`, when BlueZ's battery plugin hides the Battery service.
    package var batteryPercentage: Int?

    package init(path: DBusObjectPath, properties: [String: DBusValue], battery: [String: DBusValue]? = nil) {
        self.path = path
        self.address = properties["Address"]?.string ?? Self.address(fromPath: path)
        self.name = properties["Name"]?.string
        self.alias = properties["Alias"]?.string
        self.rssi = properties["RSSI"]?.int16.map(Int.init)
        self.connected = properties["Connected"]?.bool ?? false
        self.servicesResolved = properties["ServicesResolved"]?.bool ?? false
        self.uuids = (properties["UUIDs"]?.strings ?? []).map { $0.lowercased() }
        self.adapter = properties["Adapter"]?.objectPath
        self.batteryPercentage = battery?["Percentage"]?.byte.map(Int.init)
    }

    /// The advertised name, else the alias unless it is only the address BlueZ puts there.
    package var displayName: String? {
        if let name, !name.isEmpty { return name }
        if let alias, !alias.isEmpty, String(alias.map { $0 == "-" ? ":" : $0 }) != address { return alias }
        return nil
    }

    /// `…/dev_AA_BB_CC_DD_EE_FF` → `AA:BB:CC:DD:EE:FF`.
    static func address(fromPath path: DBusObjectPath) -> String {
        let last = path.rawValue.split(separator: "/").last ?? ""
        return last.hasPrefix("dev_") ? String(last.dropFirst(4).map { $0 == "_" ? ":" : $0 }) : String(last)
    }
}

/// A GATT characteristic (`org.bluez.GattCharacteristic1`) as the cache knows it.
package struct GATTCharacteristicInfo: Sendable, Equatable {
    package var path: DBusObjectPath
    package var uuid: String
    package var service: DBusObjectPath?
    package var flags: [String]
    /// `MTU` (BlueZ ≥ 5.62): present only while connected (docs/bluez.md 7.8).
    package var mtu: Int?
    package var notifying: Bool

    package init(path: DBusObjectPath, properties: [String: DBusValue]) {
        self.path = path
        self.uuid = (properties["UUID"]?.string ?? "").lowercased()
        self.service = properties["Service"]?.objectPath
        self.flags = properties["Flags"]?.strings ?? []
        self.mtu = properties["MTU"]?.uint16.map(Int.init)
        self.notifying = properties["Notifying"]?.bool ?? false
    }
}
