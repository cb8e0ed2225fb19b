// python-dbusmock's `bluez5` template as an independent peer: a fake org.bluez written by other
// people, driven through its org.bluez.Mock interface. Our GetManagedObjects parsing reads its
// tree; our subscriptions (with the well-known sender `org.bluez`) follow its signals.
import BusTestSupport
import DBus
import Foundation
import ProcessSupport
import Testing

private let mockInterface = "org.bluez.Mock"
private let objectManager = "org.freedesktop.DBus.ObjectManager"

/// Starts dbusmock's bluez5 template on `bus` and waits until it owns `org.bluez`.
@discardableResult
func startBlueZMock(on bus: PrivateBus, watching client: BusConnection) async throws -> ChildProcess {
    let owners = try await client.nameOwnerChanges(for: "org.bluez")
    defer { Task { await owners.subscription.cancel() } }
    let mock = try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "bluez5"], logName: "dbusmock")
    if try await client.nameOwner("org.bluez") != nil { return mock }
    _ = try await within(.seconds(30), "dbusmock to own org.bluez (log: \(bus.log("dbusmock")))") {
        for await change in owners where change.newOwner != nil { return change }
        throw HarnessFailure(description: "owner stream ended")
    }
    return mock
}

@Suite struct DBusMockBlueZTests {
    @Test func followsTheMockBlueZTree() async throws {
        try await withPrivateBus { bus in
            let client = try await connect(bus)
            try await startBlueZMock(on: bus, watching: client)
            let bluezOwner = try #require(try await client.nameOwner("org.bluez"))

            let announcements = try await client.subscribe(MatchRule(
                sender: "org.bluez", interface: objectManager, argumentPaths: [0: "/org/bluez/"]))
            let properties = try await client.subscribe(MatchRule(
                sender: "org.bluez", pathNamespace: "/org/bluez", interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged"))

            let adapter = try await client.call(
                destination: "org.bluez", path: "/", interface: mockInterface, method: "AddAdapter",
                arguments: [.string("hci0"), .string("aquavate-hub")])
            #expect(adapter == [.string("/org/bluez/hci0")])
            let adapterAdded = try await announcements.next(within: .seconds(5))
            #expect(adapterAdded.member == "InterfacesAdded")
            #expect(adapterAdded.sender == bluezOwner)
            #expect(adapterAdded.arguments[0] == .objectPath("/org/bluez/hci0"))
            let adapterInterfaces: [String: [String: DBusValue]] = try adapterAdded.arguments.decode(1)
            #expect(adapterInterfaces["org.bluez.Adapter1"]?["Powered"]?.bool == true)

            let device = try await client.call(
                destination: "org.bluez", path: "/", interface: mockInterface, method: "AddDevice",
                arguments: [.string("hci0"), .string("C0:FF:EE:A3:F2:01"), .string("Aquavate-A3F2")])
            let devicePath: DBusObjectPath = "/org/bluez/hci0/dev_C0_FF_EE_A3_F2_01"
            #expect(device == [.string(devicePath.rawValue)])
            let deviceAdded = try await announcements.next(within: .seconds(5))
            #expect(deviceAdded.arguments[0] == .objectPath(devicePath))

            // GetManagedObjects, a{oa{sa{sv}}}, parsed into Swift dictionaries.
            let tree = try await client.managedObjects(destination: "org.bluez")
            #expect(tree["/org/bluez"]?.keys.contains("org.bluez.AgentManager1") == true)
            let adapterProps = try #require(tree["/org/bluez/hci0"]?["org.bluez.Adapter1"])
            #expect(adapterProps["Address"]?.string == "00:01:02:03:04:05")
            #expect(adapterProps["Alias"]?.string == "aquavate-hub")
            #expect(adapterProps["Class"]?.uint32 == 268)
            #expect(adapterProps["UUIDs"]?.strings?.contains("00001801-0000-1000-8000-00805f9b34fb") == true)
            let deviceProps = try #require(tree[devicePath]?["org.bluez.Device1"])
            #expect(deviceProps["Name"]?.string == "Aquavate-A3F2")
            #expect(deviceProps["Address"]?.string == "C0:FF:EE:A3:F2:01")
            #expect(deviceProps["RSSI"]?.int16 == -79)
            #expect(deviceProps["Appearance"]?.uint16 == 0)
            #expect(deviceProps["Connected"]?.bool == false)
            #expect(deviceProps["ServicesResolved"]?.bool == false)
            #expect(deviceProps["Adapter"]?.objectPath == "/org/bluez/hci0")
            #expect(deviceProps["UUIDs"]?.strings == [])

            // Connect: PropertiesChanged(Connected=true) comes before the reply.
            _ = try await client.call(destination: "org.bluez", path: devicePath, interface: "org.bluez.Device1",
                                      method: "Connect")
            let connected = try #require(properties.nextIfAvailable())
            #expect(connected.path == devicePath)
            #expect(connected.arguments[0] == .string("org.bluez.Device1"))
            #expect(connected.arguments[1].stringDictionary?["Connected"]?.bool == true)
            let again = await #expect(throws: DBusFailure.self) {
                _ = try await client.call(destination: "org.bluez", path: devicePath, interface: "org.bluez.Device1",
                                          method: "Connect")
            }
            #expect(again == DBusFailure(name: "org.bluez.Error.AlreadyConnected", message: "Already Connected"))

            // The adapter goes away: InterfacesRemoved, devices left behind (the template's edge case).
            _ = try await client.call(destination: "org.bluez", path: "/", interface: mockInterface,
                                      method: "RemoveAdapter", arguments: [.string("hci0")])
            let removed = try await announcements.next(within: .seconds(5))
            #expect(removed.member == "InterfacesRemoved")
            #expect(removed.arguments == [.objectPath("/org/bluez/hci0"), .strings(["org.bluez.Adapter1"])])
            let after = try await client.managedObjects(destination: "org.bluez")
            #expect(after["/org/bluez/hci0"] == nil)
            #expect(after[devicePath] != nil)

            // An unknown object is BlueZ's UnknownObject-style error from the mock.
            let unknown = await #expect(throws: DBusFailure.self) {
                _ = try await client.call(destination: "org.bluez", path: "/org/bluez/hci9", interface: "org.bluez.Adapter1",
                                          method: "StartDiscovery")
            }
            #expect(unknown?.name.hasPrefix("org.freedesktop.DBus.Error.") == true)
            await client.close()
        }
    }

    /// BlueZ ends notify sessions when their connection leaves; the same signal tells us here
    /// that the mock process died.
    @Test func theMockLeavingIsNoticed() async throws {
        try await withPrivateBus { bus in
            let client = try await connect(bus)
            let mock = try await startBlueZMock(on: bus, watching: client)
            let owner = try #require(try await client.nameOwner("org.bluez"))
            let departures = try await client.nameOwnerChanges()
            kill(mock.processIdentifier, SIGKILL)
            try await within(.seconds(10), "waitUntilNameVanishes") { try await client.waitUntilNameVanishes(owner) }
            let departure = try await within(.seconds(10), "the departure signal") {
                for await change in departures where change.isPeerDeparture { return change }
                throw HarnessFailure(description: "stream ended")
            }
            #expect(departure.name == owner)
            #expect(try await client.nameOwner("org.bluez") == nil)
            await client.close()
        }
    }
}
