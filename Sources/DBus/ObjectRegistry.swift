// The objects a connection exports, with the standard interfaces every D-Bus client expects:
// org.freedesktop.DBus.Properties (Get, GetAll, Set, PropertiesChanged),
// org.freedesktop.DBus.ObjectManager (GetManagedObjects, InterfacesAdded, InterfacesRemoved) and
// org.freedesktop.DBus.Introspectable (Introspect). org.freedesktop.DBus.Peer is answered by
// libdbus itself.
//
// The registry is locked rather than owned by the connection's thread, so a program can change
// its objects from anywhere and get errors back at once. Signals that a change causes are queued
// while the lock is held, so they leave in the order the changes were made.
//
// Like BlueZ, the interface lists of GetManagedObjects and InterfacesAdded include
// org.freedesktop.DBus.Introspectable and org.freedesktop.DBus.Properties (with no properties).
import Locking

enum StandardInterface {
    static let introspectable = "org.freedesktop.DBus.Introspectable"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let peer = "org.freedesktop.DBus.Peer"
    static let all: Set<String> = [introspectable, properties, objectManager, peer]
    /// Listed with every exported object, as BlueZ does.
    static let implicit = [introspectable, properties]
}

/// What to do with an incoming method call.
enum CallRoute {
    case reply([DBusValue])
    case failure(DBusFailure)
    case method(ExportedMethod)
    case setProperty(ExportedProperty, interface: String, value: DBusValue)
}

struct RegistryState {
    /// Interfaces per object, in the order they were exported.
    var objects: [DBusObjectPath: [ExportedInterface]] = [:]
    var managers: Set<DBusObjectPath> = []
}

final class ObjectRegistry: Sendable {
    private let state = Locked(RegistryState())

    // MARK: - Changing the tree

    /// Adds interfaces to the object at `path` (creating it) and announces them.
    func export(_ path: DBusObjectPath, _ interfaces: [ExportedInterface], send: (Message) -> Void) throws {
        try NameRules.requirePath(path)
        var names = Set<String>()
        for interface in interfaces {
            try interface.validate()
            if StandardInterface.all.contains(interface.name) {
                throw DBusInvalidName(kind: "interface to export (it is built in)", name: interface.name)
            }
            if !names.insert(interface.name).inserted {
                throw DBusInvalidName(kind: "interface to export (listed twice)", name: interface.name)
            }
        }
        try state.withLock { state in
            let existing = state.objects[path]
            if let clash = existing?.first(where: { names.contains($0.name) }) {
                throw DBusInvalidName(kind: "interface to export (already exported at \(path))", name: clash.name)
            }
            state.objects[path, default: []].append(contentsOf: interfaces)
            guard let manager = Self.manager(of: path, in: state) else { return }
            var added = existing == nil ? StandardInterface.implicit.map { ($0, Self.noProperties) } : []
            added += interfaces.map { ($0.name, Self.propertyDictionary($0)) }
            let payload = DBusValue.dict(key: "s", value: "a{sv}", added.map {
                DBusDictEntry(key: .string($0.0), value: $0.1)
            })
            send(try Message.signal(
                path: manager, interface: StandardInterface.objectManager, member: "InterfacesAdded",
                arguments: [.objectPath(path), payload], destination: nil))
        }
    }

    /// Removes some interfaces (nil: all, and the object with them) and announces it.
    func unexport(_ path: DBusObjectPath, interfaces names: [String]?, send: (Message) -> Void) throws {
        try state.withLock { state in
            guard let existing = state.objects[path] else {
                throw DBusNotExported(what: "object \(path)")
            }
            let removing = names ?? existing.map(\.name)
            for name in removing where !existing.contains(where: { $0.name == name }) {
                throw DBusNotExported(what: "interface \(name) at \(path)")
            }
            let remaining = existing.filter { !removing.contains($0.name) }
            state.objects[path] = remaining.isEmpty ? nil : remaining
            guard let manager = Self.manager(of: path, in: state) else { return }
            let announced = remaining.isEmpty ? StandardInterface.implicit + removing : removing
            send(try Message.signal(
                path: manager, interface: StandardInterface.objectManager, member: "InterfacesRemoved",
                arguments: [.objectPath(path), .strings(announced)], destination: nil))
        }
    }

    /// Forgets every object (when the connection ends).
    func removeAll() {
        state.withLock { $0 = RegistryState() }
    }

    func addObjectManager(_ path: DBusObjectPath) throws {
        try NameRules.requirePath(path)
        _ = state.withLock { $0.managers.insert(path) }
    }

    /// Sets and removes property values, then emits one PropertiesChanged (if `emit`).
    func setProperties(
        _ path: DBusObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String],
        emit: Bool, send: (Message) -> Void
    ) throws {
        try state.withLock { state in
            guard var interfaces = state.objects[path] else { throw DBusNotExported(what: "object \(path)") }
            guard let index = interfaces.firstIndex(where: { $0.name == interface }) else {
                throw DBusNotExported(what: "interface \(interface) at \(path)")
            }
            var properties = interfaces[index].properties
            // Check everything before changing anything.
            for name in Array(changed.keys) + invalidated where !properties.contains(where: { $0.name == name }) {
                throw DBusNotExported(what: "property \(name) of \(interface) at \(path)")
            }
            for (name, value) in changed {
                try ExportedInterface.check(value, isOf: properties.first { $0.name == name }!)
            }
            for i in properties.indices {
                if let value = changed[properties[i].name] { properties[i].value = value }
                if invalidated.contains(properties[i].name) { properties[i].value = nil }
            }
            interfaces[index].properties = properties
            state.objects[path] = interfaces
            guard emit, !changed.isEmpty || !invalidated.isEmpty else { return }
            send(try Self.propertiesChanged(
                path: path, interface: interface, changed: changed.sorted { $0.key < $1.key }, invalidated: invalidated))
        }
    }

    func property(_ path: DBusObjectPath, interface: String, name: String) -> DBusValue? {
        state.withLock { state in
            state.objects[path]?.first { $0.name == interface }?.properties.first { $0.name == name }?.value
        }
    }

    /// Stores a value a peer has set (after its `onSet` accepted it), then queues
    /// PropertiesChanged (if the value changed) and the reply, in that order.
    func commitSet(
        _ path: DBusObjectPath, interface: String, name: String, value: DBusValue, call: Message,
        send: (Message) -> Void
    ) {
        state.withLock { state in
            guard var interfaces = state.objects[path],
                let i = interfaces.firstIndex(where: { $0.name == interface }),
                let p = interfaces[i].properties.firstIndex(where: { $0.name == name })
            else {
                if let reply = Message.errorReply(to: call, .invalidArgs("No such property '\(name)'")) { send(reply) }
                return
            }
            let old = interfaces[i].properties[p].value
            interfaces[i].properties[p].value = value
            state.objects[path] = interfaces
            if old != value, let signal = try? Self.propertiesChanged(
                path: path, interface: interface, changed: [(name, value)], invalidated: [])
            {
                send(signal)
            }
            if call.expectsReply, let reply = try? Message.methodReturn(to: call, arguments: []) { send(reply) }
        }
    }

    // MARK: - Answering calls

    func route(_ call: DBusMethodCall, signature: DBusSignature) -> CallRoute {
        state.withLock { state in Self.route(call, signature: signature, in: state) }
    }

    private static func route(_ call: DBusMethodCall, signature: DBusSignature, in state: RegistryState) -> CallRoute {
        let path = call.path
        let object = state.objects[path]
        let member = call.member
        let unknownObject = CallRoute.failure(DBusFailure(
            name: DBusFailure.unknownObjectName, message: "No such object path '\(path)'"))

        func builtin(_ interface: String) -> CallRoute? {
            switch (interface, member) {
            case (StandardInterface.introspectable, "Introspect"):
                guard signature == "" else { return invalidSignature(expected: "", got: signature) }
                guard let xml = Introspection.xml(for: path, in: state) else { return unknownObject }
                return .reply([.string(xml)])
            case (StandardInterface.properties, _):
                guard let object else { return unknownObject }
                return routeProperties(call, signature: signature, object: object)
            case (StandardInterface.objectManager, "GetManagedObjects") where state.managers.contains(path):
                guard signature == "" else { return invalidSignature(expected: "", got: signature) }
                return .reply([managedObjects(below: path, in: state)])
            default:
                return nil
            }
        }

        if let interface = call.interface {
            if StandardInterface.all.contains(interface) {
                if let route = builtin(interface) { return route }
                return object == nil && !state.managers.contains(path) ? unknownObject : unknownMethod(call, signature)
            }
            guard let object else { return unknownObject }
            guard let exported = object.first(where: { $0.name == interface }) else {
                return .failure(DBusFailure(
                    name: DBusFailure.unknownInterfaceName,
                    message: "No such interface '\(interface)' at object path '\(path)'"))
            }
            guard let method = exported.methods.first(where: { $0.name == member }) else {
                return unknownMethod(call, signature)
            }
            return check(method, signature)
        }

        // No interface given: the first method of that name, then the standard ones.
        if let method = object?.lazy.flatMap(\.methods).first(where: { $0.name == member }) {
            return check(method, signature)
        }
        for interface in [StandardInterface.introspectable, StandardInterface.properties, StandardInterface.objectManager] {
            if interface == StandardInterface.properties && !["Get", "GetAll", "Set"].contains(member) { continue }
            if let route = builtin(interface) { return route }
        }
        return object == nil ? unknownObject : unknownMethod(call, signature)
    }

    private static func check(_ method: ExportedMethod, _ signature: DBusSignature) -> CallRoute {
        signature == method.inputSignature
            ? .method(method) : invalidSignature(expected: method.inputSignature, got: signature)
    }

    private static func invalidSignature(expected: DBusSignature, got: DBusSignature) -> CallRoute {
        .failure(.invalidArgs("Invalid arguments: expected signature '\(expected)', got '\(got)'"))
    }

    private static func unknownMethod(_ call: DBusMethodCall, _ signature: DBusSignature) -> CallRoute {
        .failure(DBusFailure(
            name: DBusFailure.unknownMethodName,
            message: "No such method '\(call.member)' in interface '\(call.interface ?? "")' "
                + "at object path '\(call.path)' (signature '\(signature)')"))
    }

    /// Properties.Get / GetAll / Set, with BlueZ's error names and texts.
    private static func routeProperties(
        _ call: DBusMethodCall, signature: DBusSignature, object: [ExportedInterface]
    ) -> CallRoute {
        let args = call.arguments
        func interface(_ name: String) -> ExportedInterface? { object.first { $0.name == name } }
        let noInterface = { (name: String) in CallRoute.failure(.invalidArgs("No such interface '\(name)'")) }
        let noProperty = { (name: String) in CallRoute.failure(.invalidArgs("No such property '\(name)'")) }

        switch call.member {
        case "Get":
            guard signature == "ss", let name = args[0].string, let propertyName = args[1].string else {
                return invalidSignature(expected: "ss", got: signature)
            }
            guard let exported = interface(name) else { return noInterface(name) }
            guard let property = exported.properties.first(where: { $0.name == propertyName }),
                property.access != .write, let value = property.value
            else { return noProperty(propertyName) }
            return .reply([.variant(value)])
        case "GetAll":
            guard signature == "s", let name = args[0].string else { return invalidSignature(expected: "s", got: signature) }
            guard let exported = interface(name) else { return noInterface(name) }
            return .reply([propertyDictionary(exported)])
        case "Set":
            guard signature == "ssv", let name = args[0].string, let propertyName = args[1].string,
                case .variant(let value) = args[2]
            else { return invalidSignature(expected: "ssv", got: signature) }
            guard let exported = interface(name) else { return noInterface(name) }
            guard let property = exported.properties.first(where: { $0.name == propertyName }) else {
                return noProperty(propertyName)
            }
            guard property.access != .read else {
                return .failure(DBusFailure(
                    name: DBusFailure.propertyReadOnlyName, message: "Property '\(propertyName)' is not writable"))
            }
            guard value.signature == property.signature else {
                return .failure(.invalidArgs("Invalid argument type: '\(value.signature)'"))
            }
            return .setProperty(property, interface: name, value: value)
        default:
            return unknownMethod(call, signature)
        }
    }

    // MARK: - Payloads

    private static let noProperties = DBusValue.dict(key: "s", value: "v", [])

    /// `a{sv}` of the readable properties that have a value, in declaration order.
    static func propertyDictionary(_ interface: ExportedInterface) -> DBusValue {
        .dict(key: "s", value: "v", interface.properties.compactMap { property in
            guard property.access != .write, let value = property.value else { return nil }
            return DBusDictEntry(key: .string(property.name), value: .variant(value))
        })
    }

    /// `a{oa{sa{sv}}}` of every object strictly below `root`, sorted by path.
    static func managedObjects(below root: DBusObjectPath, in state: RegistryState) -> DBusValue {
        let paths = state.objects.keys.filter { root.isAncestor(of: $0) }.sorted()
        return .dict(key: "o", value: "a{sa{sv}}", paths.map { path in
            let interfaces = state.objects[path] ?? []
            let entries = StandardInterface.implicit.map { DBusDictEntry(key: .string($0), value: noProperties) }
                + interfaces.map { DBusDictEntry(key: .string($0.name), value: propertyDictionary($0)) }
            return DBusDictEntry(key: .objectPath(path), value: .dict(key: "s", value: "a{sv}", entries))
        })
    }

    /// The closest ObjectManager strictly above `path`, which announces its changes.
    private static func manager(of path: DBusObjectPath, in state: RegistryState) -> DBusObjectPath? {
        state.managers.filter { $0.isAncestor(of: path) }.max { $0.rawValue.count < $1.rawValue.count }
    }

    private static func propertiesChanged(
        path: DBusObjectPath, interface: String, changed: [(String, DBusValue)], invalidated: [String]
    ) throws -> Message {
        try Message.signal(
            path: path, interface: StandardInterface.properties, member: "PropertiesChanged",
            arguments: [
                .string(interface),
                .dict(key: "s", value: "v", changed.map { DBusDictEntry(key: .string($0.0), value: .variant($0.1)) }),
                .strings(invalidated),
            ],
            destination: nil)
    }
}
