// python-dbusmock's `bluez5` template on a private bus: a fake org.bluez written by other
// people, driven through its `org.bluez.Mock` interface, plus dbusmock's generic
// `org.freedesktop.DBus.Mock` methods to add GATT objects, replace methods with scripted ones
// (BlueZ's failure modes) and read the calls made to them.

import BusTestSupport
import AquavateProtocol
import BlueZ
import DBus
import Foundation
import Testing

/// A private bus with dbusmock's bluez5 on it, and a connection that drives the mock.
final class MockBlueZ: Sendable {
    let bus: PrivateBus
    let control: BusConnection
    static let mock = "org.freedesktop.DBus.Mock"

    private init(bus: PrivateBus, control: BusConnection) {
        self.bus = bus
        self.control = control
    }

    /// Starts the bus and the mock, and waits until the mock owns org.bluez.
    static func start() async throws -> MockBlueZ {
        let bus = try await PrivateBus.start()
        do {
            let control = try await BusConnection.connect(.address(bus.address))
            let owners = try await control.nameOwnerChanges(for: "org.bluez")
            _ = try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "bluez5"], logName: "dbusmock")
            if try await control.nameOwner("org.bluez") == nil {
                _ = try await within(.seconds(30), "dbusmock to own org.bluez (log: \(bus.log("dbusmock")))") {
                    for await change in owners where change.newOwner != nil { return change }
                    throw HarnessFailure(description: "owner stream ended")
                }
            }
            await owners.subscription.cancel()
            return MockBlueZ(bus: bus, control: control)
        } catch {
            bus.stop()
            throw error
        }
    }

    /// Runs `body` with a started mock, stopped afterwards whatever happens.
    static func with<T>(_ body: (MockBlueZ) async throws -> T) async throws -> T {
        let mock = try await start()
        do {
            let value = try await body(mock)
            await mock.control.close()
            mock.bus.stop()
            return value
        } catch {
            await mock.control.close()
            mock.bus.stop()
            throw error
        }
    }

    var address: BusAddress { .address(bus.address) }

    func client() async throws -> BlueZClient { try await BlueZClient.connect(bus: address) }

    // MARK: org.bluez.Mock

    @discardableResult
    func addAdapter(_ name: String = "hci0") async throws -> DBusObjectPath {
        let reply = try await control.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock",
                                           method: "AddAdapter", arguments: [.string(name), .string("aquavate-hub")])
        return DBusObjectPath(try reply.decode(0, as: String.self))
    }

    @discardableResult
    func addDevice(_ address: String, name: String, adapter: String = "hci0") async throws -> DBusObjectPath {
        let reply = try await control.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock",
                                           method: "AddDevice", arguments: [.string(adapter), .string(address), .string(name)])
        return DBusObjectPath(try reply.decode(0, as: String.self))
    }

    /// `ConnectDevice`: BlueZ already holds a connection (docs/bluez.md F4).
    func connectDevice(_ address: String, adapter: String = "hci0") async throws {
        _ = try await control.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock",
                                   method: "ConnectDevice", arguments: [.string(adapter), .string(address)])
    }

    // MARK: org.freedesktop.DBus.Mock

    /// Sets properties and emits PropertiesChanged.
    func update(_ path: DBusObjectPath, _ interface: String, _ properties: [String: DBusValue]) async throws {
        _ = try await control.call(destination: "org.bluez", path: path, interface: Self.mock, method: "UpdateProperties",
                                   arguments: [.string(interface), .variantDictionary(properties)])
    }

    /// Adds an interface with properties to an existing object (no signal).
    func addProperties(_ path: DBusObjectPath, _ interface: String, _ properties: [String: DBusValue]) async throws {
        _ = try await control.call(destination: "org.bluez", path: path, interface: Self.mock, method: "AddProperties",
                                   arguments: [.string(interface), .variantDictionary(properties)])
    }

    /// Replaces (or adds) a method with Python code (`args`, `ret`, `self`, `dbus` in scope).
    func setMethod(_ path: DBusObjectPath, _ interface: String, _ name: String, in input: String = "",
                   out output: String = "", code: String) async throws {
        _ = try await control.call(destination: "org.bluez", path: path, interface: Self.mock, method: "AddMethod",
                                   arguments: [.string(interface), .string(name), .string(input), .string(output), .string(code)])
    }

    /// Adds an object (with methods) and emits InterfacesAdded.
    func addObject(_ path: DBusObjectPath, _ interface: String, _ properties: [String: DBusValue],
                   methods: [(String, String, String, String)] = []) async throws {
        let methodList: DBusValue = .array(element: "(ssss)", methods.map {
            .structure([.string($0.0), .string($0.1), .string($0.2), .string($0.3)])
        })
        _ = try await control.call(destination: "org.bluez", path: "/", interface: Self.mock, method: "AddObject",
                                   arguments: [.string(path.rawValue), .string(interface), .variantDictionary(properties), methodList])
        // dbusmock's AddObject does not announce it; BlueZ would, from its own name.
        try await emit(from: "/", "org.freedesktop.DBus.ObjectManager", "InterfacesAdded", "oa{sa{sv}}", [
            .objectPath(path),
            .dict(key: "s", value: "a{sv}", [DBusDictEntry(key: .string(interface), value: .variantDictionary(properties))]),
        ])
    }

    /// Makes the mock emit a signal from `path`.
    func emit(from path: DBusObjectPath, _ interface: String, _ member: String, _ signature: String,
              _ arguments: [DBusValue]) async throws {
        _ = try await control.call(destination: "org.bluez", path: path, interface: Self.mock, method: "EmitSignal",
                                   arguments: [.string(interface), .string(member), .string(signature),
                                               .array(element: "v", arguments.map { .variant($0) })])
    }

    /// Removes an object and announces it with InterfacesRemoved.
    func removeObject(_ path: DBusObjectPath, interfaces: [String]) async throws {
        try await removeObjectSilently(path)
        try await emit(from: "/", "org.freedesktop.DBus.ObjectManager", "InterfacesRemoved", "oas",
                       [.objectPath(path), .strings(interfaces)])
    }

    /// Removes an object WITHOUT any signal (a peer whose object vanished unannounced).
    func removeObjectSilently(_ path: DBusObjectPath) async throws {
        _ = try await control.call(destination: "org.bluez", path: "/", interface: Self.mock, method: "RemoveObject",
                                   arguments: [.string(path.rawValue)])
    }

    /// The arguments of every call of `method` on `path`, oldest first.
    func calls(_ path: DBusObjectPath, _ method: String) async throws -> [[DBusValue]] {
        let reply = try await control.call(destination: "org.bluez", path: path, interface: Self.mock,
                                           method: "GetMethodCalls", arguments: [.string(method)])
        return (reply.first?.arrayElements ?? []).compactMap { $0.structFields?.last?.arrayElements?.map(\.unwrapped) }
    }
}
