// Exported objects seen from another connection and from gdbus: Properties (Get, GetAll, Set,
// PropertiesChanged), ObjectManager (GetManagedObjects, InterfacesAdded/Removed), Introspect,
// deferred replies, name ownership and the peer-left notification.
import BusTestSupport
import DBus
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

let bottleInterface = "org.example.Bottle1"

/// An interface with one property of each access kind, an absent one and a guarded one.
func bottle(level: UInt16 = 100) -> ExportedInterface {
    ExportedInterface(bottleInterface, methods: [
        ExportedMethod("Fill", input: "qs", output: "b", inputNames: ["amount", "reason"], outputNames: ["ok"],
                       handler: .immediate { _ in [.bool(true)] }),
    ], properties: [
        ExportedProperty("Name", signature: "s", value: .string("Aquavate-A3F2")),
        ExportedProperty("Level", signature: "q", access: .readwrite, value: .uint16(level)),
        ExportedProperty("Secret", signature: "s", access: .write, value: .string("hidden")),
        ExportedProperty("Value", signature: "ay"),
        ExportedProperty("Goal", signature: "i", access: .readwrite, value: .int32(2500), onSet: { value, _ in
            if value.int32! < 0 { throw DBusFailure(name: "org.example.Error.Refused", message: "goal must be positive") }
        }),
    ], signals: [ExportedSignal("Drank", signature: "qs", argumentNames: ["ml", "kind"])])
}

/// Calls `org.freedesktop.DBus.Properties` methods of `path` on `server` from `client`.
struct PropertiesClient {
    let client: BusConnection
    let server: String
    let path: DBusObjectPath

    func get(_ name: String, interface: String = bottleInterface) async throws -> DBusValue {
        try await client.call(destination: server, path: path, interface: "org.freedesktop.DBus.Properties",
                              method: "Get", arguments: [.string(interface), .string(name)])[0]
    }

    func getAll(_ interface: String = bottleInterface) async throws -> [String: DBusValue] {
        try await client.call(destination: server, path: path, interface: "org.freedesktop.DBus.Properties",
                              method: "GetAll", arguments: [.string(interface)]).decode(0)
    }

    func set(_ name: String, _ value: DBusValue) async throws {
        _ = try await client.call(destination: server, path: path, interface: "org.freedesktop.DBus.Properties",
                                  method: "Set", arguments: [.string(bottleInterface), .string(name), .variant(value)])
    }
}

@Suite struct ExportedObjectTests {
    @Test func propertiesGetGetAllSetAndChanged() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try server.export("/bottle", [bottle()])
            let props = PropertiesClient(client: client, server: server.uniqueName, path: "/bottle")
            let changes = try await client.subscribe(MatchRule(
                sender: server.uniqueName, path: "/bottle", interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged", arguments: [0: bottleInterface]))

            #expect(try await props.get("Name") == .variant(.string("Aquavate-A3F2")))
            let all = try await props.getAll()
            #expect(Set(all.keys) == ["Name", "Level", "Goal"])  // not the write-only, not the absent one
            #expect(all["Level"]?.uint16 == 100)

            let absent = await #expect(throws: DBusFailure.self) { try await props.get("Value") }
            #expect(absent == .invalidArgs("No such property 'Value'"))
            let writeOnly = await #expect(throws: DBusFailure.self) { try await props.get("Secret") }
            #expect(writeOnly?.name == DBusFailure.invalidArgsName)
            let noInterface = await #expect(throws: DBusFailure.self) { try await props.getAll("org.example.None") }
            #expect(noInterface == .invalidArgs("No such interface 'org.example.None'"))

            // A peer's Set: stored, announced before the reply, readable.
            try await props.set("Level", .uint16(40))
            let changed = try #require(changes.nextIfAvailable())
            #expect(changed.arguments == [
                .string(bottleInterface), .variantDictionary(["Level": .uint16(40)]), .strings([]),
            ])
            #expect(try await props.get("Level") == .variant(.uint16(40)))
            #expect(server.propertyValue("/bottle", interface: bottleInterface, name: "Level") == .uint16(40))

            let readOnly = await #expect(throws: DBusFailure.self) { try await props.set("Name", .string("x")) }
            #expect(readOnly?.name == DBusFailure.propertyReadOnlyName)
            let wrongType = await #expect(throws: DBusFailure.self) { try await props.set("Level", .string("x")) }
            #expect(wrongType?.name == DBusFailure.invalidArgsName)
            let refused = await #expect(throws: DBusFailure.self) { try await props.set("Goal", .int32(-1)) }
            #expect(refused == DBusFailure(name: "org.example.Error.Refused", message: "goal must be positive"))
            #expect(try await props.get("Goal") == .variant(.int32(2500)))
            try await props.set("Goal", .int32(3000))
            #expect(try await changes.next(within: .seconds(5)).arguments[1] == .variantDictionary(["Goal": .int32(3000)]))

            // The program's own changes: one signal with changed and invalidated lists.
            try server.setProperties("/bottle", interface: bottleInterface, changed: ["Value": .bytes([1, 0xDB])],
                                     invalidated: ["Level"])
            let own = try await changes.next(within: .seconds(5))
            #expect(own.arguments == [
                .string(bottleInterface), .variantDictionary(["Value": .bytes([1, 0xDB])]), .strings(["Level"]),
            ])
            #expect(try await props.get("Value") == .variant(.bytes([1, 0xDB])))
            await #expect(throws: DBusFailure.self) { try await props.get("Level") }

            #expect(throws: DBusTypeMismatch.self) {
                try server.setProperties("/bottle", interface: bottleInterface, changed: ["Level": .uint32(1)])
            }
            #expect(throws: DBusNotExported.self) {
                try server.setProperties("/bottle", interface: bottleInterface, changed: ["Nope": .uint32(1)])
            }
            #expect(throws: DBusNotExported.self) {
                try server.setProperties("/elsewhere", interface: bottleInterface, changed: [:])
            }
            await client.close()
            await server.close()
        }
    }

    @Test func objectManagerListsAndAnnouncesObjects() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try server.addObjectManager(at: "/")
            try server.export("/org/example", [ExportedInterface("org.example.Manager1")])
            let announcements = try await client.subscribe(MatchRule(
                sender: server.uniqueName, interface: "org.freedesktop.DBus.ObjectManager",
                argumentPaths: [0: "/org/example/"]))

            let device: DBusObjectPath = "/org/example/dev_C0_FF_EE_A3_F2_01"
            try server.export(device, [bottle(level: 77)])
            let added = try await announcements.next(within: .seconds(5))
            #expect(added.member == "InterfacesAdded")
            #expect(added.path == "/")
            #expect(added.arguments[0] == .objectPath(device))
            let interfaces: [String: [String: DBusValue]] = try added.arguments.decode(1)
            #expect(Set(interfaces.keys) == [
                "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties", bottleInterface,
            ])
            #expect(interfaces[bottleInterface]?["Level"]?.uint16 == 77)

            let tree = try await client.managedObjects(destination: server.uniqueName)
            #expect(Set(tree.keys) == ["/org/example", device])
            #expect(tree[device]?[bottleInterface]?["Name"]?.string == "Aquavate-A3F2")
            #expect(tree["/org/example"]?["org.example.Manager1"] == [:])

            // A second interface on the same object is announced alone.
            try server.export(device, [ExportedInterface("org.example.Battery1", properties: [
                ExportedProperty("Percentage", signature: "y", value: .byte(80)),
            ])])
            let second = try await announcements.next(within: .seconds(5))
            #expect(try Set(second.arguments.decode(1, as: [String: DBusValue].self).keys) == ["org.example.Battery1"])

            try server.unexport(device, interfaces: ["org.example.Battery1"])
            let removedOne = try await announcements.next(within: .seconds(5))
            #expect(removedOne.member == "InterfacesRemoved")
            #expect(removedOne.arguments == [.objectPath(device), .strings(["org.example.Battery1"])])

            try server.unexport(device)
            let removedAll = try await announcements.next(within: .seconds(5))
            #expect(removedAll.arguments == [.objectPath(device), .strings([
                "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties", bottleInterface,
            ])])
            #expect(try await client.managedObjects(destination: server.uniqueName).keys.sorted() == ["/org/example"])
            #expect(throws: DBusNotExported.self) { try server.unexport(device) }
            #expect(throws: DBusInvalidName.self) { try server.export("/org/example", [ExportedInterface("org.example.Manager1")]) }
            #expect(throws: DBusInvalidName.self) {
                try server.export("/x", [ExportedInterface("org.freedesktop.DBus.Properties")])
            }
            await client.close()
            await server.close()
        }
    }

    @Test func introspectionDescribesInterfacesAndChildren() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try server.addObjectManager(at: "/")
            try server.export("/org/example/bottle", [bottle()])
            func introspect(_ path: DBusObjectPath) async throws -> IntrospectedNode {
                let reply = try await client.call(
                    destination: server.uniqueName, path: path, interface: "org.freedesktop.DBus.Introspectable",
                    method: "Introspect")
                return try IntrospectedNode(xml: reply.decode(0))
            }
            let root = try await introspect("/")
            #expect(root.children == ["org"])
            #expect(root.interfaces.keys.contains("org.freedesktop.DBus.ObjectManager"))
            #expect(try await introspect("/org").children == ["example"])
            let node = try await introspect("/org/example/bottle")
            #expect(node.children.isEmpty)
            #expect(Set(node.interfaces.keys) == [
                "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
                "org.freedesktop.DBus.Properties", bottleInterface,
            ])
            let described = try #require(node.interfaces[bottleInterface])
            #expect(described.methods["Fill"] == ["in amount q", "in reason s", "out ok b"])
            #expect(described.signals["Drank"] == ["ml q", "kind s"])
            #expect(described.properties["Level"] == "q readwrite")
            #expect(described.properties["Secret"] == "s write")
            #expect(described.properties["Value"] == "ay read")
            let missing = await #expect(throws: DBusFailure.self) { try await introspect("/nowhere") }
            #expect(missing?.name == DBusFailure.unknownObjectName)

            // gdbus (GLib's parser) reads the whole tree.
            let gdbus = try await bus.run("/usr/bin/gdbus", [
                "introspect", "--system", "--dest", server.uniqueName, "--object-path", "/", "--recurse",
            ])
            #expect(gdbus.status == 0, "\(gdbus.error)")
            #expect(gdbus.output.contains("node /org/example/bottle"))
            #expect(gdbus.output.contains("interface \(bottleInterface)"))
            #expect(gdbus.output.contains("readwrite q Level = 100;"))
            #expect(gdbus.output.contains("Fill(in  q amount,"))
            await client.close()
            await server.close()
        }
    }

    @Test func gdbusCallsMethodsAndProperties() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            try server.export("/bottle", [bottle()])
            let call = try await bus.run("/usr/bin/gdbus", [
                "call", "--system", "--dest", server.uniqueName, "--object-path", "/bottle",
                "--method", "\(bottleInterface).Fill", "250", "drink",
            ])
            #expect(call.status == 0, "\(call.error)")
            #expect(call.output.trimmingCharacters(in: .whitespacesAndNewlines) == "(true,)")
            let get = try await bus.run("/usr/bin/gdbus", [
                "call", "--system", "--dest", server.uniqueName, "--object-path", "/bottle",
                "--method", "org.freedesktop.DBus.Properties.Get", bottleInterface, "Name",
            ])
            #expect(get.output.trimmingCharacters(in: .whitespacesAndNewlines) == "(<'Aquavate-A3F2'>,)")
            let set = try await bus.run("/usr/bin/gdbus", [
                "call", "--system", "--dest", server.uniqueName, "--object-path", "/bottle",
                "--method", "org.freedesktop.DBus.Properties.Set", bottleInterface, "Level", "<uint16 12>",
            ])
            #expect(set.status == 0, "\(set.error)")
            #expect(server.propertyValue("/bottle", interface: bottleInterface, name: "Level") == .uint16(12))
            await server.close()
        }
    }

    /// A handler that answers later, after signals, as BlueZ's Disconnect does.
    @Test func deferredRepliesComeAfterTheSignalsEmittedBeforeThem() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let client = try await connect(bus)
            try server.export("/device", [ExportedInterface("org.example.Device1", methods: [
                ExportedMethod("Disconnect", handler: .deferred { _, responder in
                    Task {
                        try await Task.sleep(for: .milliseconds(200))
                        try server.setProperties("/device", interface: "org.example.Device1",
                                                 changed: ["ServicesResolved": .bool(false)])
                        responder.reply([])
                        try server.setProperties("/device", interface: "org.example.Device1",
                                                 changed: ["Connected": .bool(false)])
                    }
                }),
                ExportedMethod("Forget", handler: .deferred { _, _ in }),  // drops the responder
            ], properties: [
                ExportedProperty("Connected", signature: "b", value: .bool(true)),
                ExportedProperty("ServicesResolved", signature: "b", value: .bool(true)),
            ])])
            let changes = try await client.subscribe(MatchRule(member: "PropertiesChanged"))
            _ = try await client.call(destination: server.uniqueName, path: "/device",
                                      interface: "org.example.Device1", method: "Disconnect")
            #expect(changes.nextIfAvailable()?.arguments[1] == .variantDictionary(["ServicesResolved": .bool(false)]))
            #expect(try await changes.next(within: .seconds(5)).arguments[1] == .variantDictionary(["Connected": .bool(false)]))

            let dropped = await #expect(throws: DBusFailure.self) {
                _ = try await client.call(destination: server.uniqueName, path: "/device",
                                          interface: "org.example.Device1", method: "Forget", timeout: .seconds(10))
            }
            #expect(dropped?.name == DBusFailure.failedName)
            await client.close()
            await server.close()
        }
    }

    @Test func owningNames() async throws {
        try await withPrivateBus { bus in
            let first = try await connect(bus)
            let second = try await connect(bus)
            #expect(try await first.requestName("org.bluez") == .primaryOwner)
            #expect(try await first.requestName("org.bluez") == .alreadyOwner)
            #expect(try await second.requestName("org.bluez") == .exists)
            #expect(try await second.requestName("org.bluez", flags: []) == .inQueue)
            #expect(try await second.nameOwner("org.bluez") == first.uniqueName)
            #expect(try await second.releaseName("org.example.Unknown") == .nonExistent)
            #expect(try await first.releaseName("org.bluez") == .released)
            // The queued second connection takes over.
            try await waitUntil(.seconds(5), "the queued owner to take over") {
                try await first.nameOwner("org.bluez") == second.uniqueName
            }
            #expect(try await first.releaseName("org.bluez") == .notOwner)
            #expect(try await first.nameOwner("org.example.Unknown") == nil)
            await #expect(throws: DBusInvalidName.self) { _ = try await first.requestName("no dots") }
            await first.close()
            await second.close()
        }
    }

    @Test func aPeerLeavingIsNoticed() async throws {
        try await withPrivateBus { bus in
            let server = try await connect(bus)
            let departures = try await server.nameOwnerChanges()
            let client = try await connect(bus)
            let clientName = client.uniqueName
            let watcher = Task { try await server.waitUntilNameVanishes(clientName) }
            try await waitUntil(.seconds(5), "the client to be known") { try await server.nameOwner(clientName) != nil }
            await client.close()
            _ = try await within(.seconds(5), "waitUntilNameVanishes to return") { try await watcher.value }
            let change = try await within(.seconds(5), "the departure") {
                for await change in departures where change.isPeerDeparture && change.name == clientName {
                    return change
                }
                throw HarnessFailure(description: "stream ended")
            }
            #expect(change.oldOwner == clientName)
            #expect(change.newOwner == nil)
            // Waiting for a name that is already gone returns at once.
            try await within(.seconds(5), "an immediate return") { try await server.waitUntilNameVanishes(clientName) }
            await server.close()
        }
    }
}

/// What an introspection document says, reduced to comparable strings.
struct IntrospectedNode {
    struct Interface {
        var methods: [String: [String]] = [:]     // "in name type" / "out name type"
        var signals: [String: [String]] = [:]     // "name type"
        var properties: [String: String] = [:]    // "type access"
    }

    var interfaces: [String: Interface] = [:]
    var children: [String] = []

    init(xml: String) throws {
        let collector = Collector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        guard parser.parse() else {
            throw HarnessFailure(description: "introspection XML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        interfaces = collector.interfaces
        children = collector.children
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var interfaces: [String: Interface] = [:]
        var children: [String] = []
        var depth = 0
        var interface: String?
        var member: (kind: String, name: String)?

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            depth += 1
            let name = attributes["name"] ?? ""
            switch element {
            case "node" where depth == 2: children.append(name)
            case "interface":
                interface = name
                interfaces[name] = Interface()
            case "method", "signal":
                member = (element, name)
                if element == "method" { interfaces[interface!]?.methods[name] = [] } else { interfaces[interface!]?.signals[name] = [] }
            case "arg":
                guard let interface, let member else { break }
                let type = attributes["type"] ?? ""
                if member.kind == "method" {
                    interfaces[interface]?.methods[member.name]?.append("\(attributes["direction"] ?? "in") \(name) \(type)")
                } else {
                    interfaces[interface]?.signals[member.name]?.append("\(name) \(type)")
                }
            case "property":
                if let interface {
                    interfaces[interface]?.properties[name] = "\(attributes["type"] ?? "") \(attributes["access"] ?? "")"
                }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if element == "interface" { interface = nil }
            if element == "method" || element == "signal" { member = nil }
        }
    }
}
