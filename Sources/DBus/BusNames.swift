// Talking to the bus itself: owning well-known names (the simulator owns `org.bluez`), looking
// owners up, and hearing when a peer leaves (BlueZ ends a connection's notify sessions then).

/// What `RequestName` did.
package enum NameRequestReply: UInt32, Sendable {
    case primaryOwner = 1
    case inQueue = 2
    case exists = 3
    case alreadyOwner = 4
}

/// What `ReleaseName` did.
package enum NameReleaseReply: UInt32, Sendable {
    case released = 1
    case nonExistent = 2
    case notOwner = 3
}

/// `RequestName` flags.
package struct NameRequestFlags: OptionSet, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package static let allowReplacement = NameRequestFlags(rawValue: 0x1)
    package static let replaceExisting = NameRequestFlags(rawValue: 0x2)
    package static let doNotQueue = NameRequestFlags(rawValue: 0x4)
}

/// One `NameOwnerChanged` signal.
package struct NameOwnerChange: Hashable, Sendable {
    package var name: String
    /// Nil when the name had no owner.
    package var oldOwner: String?
    /// Nil when the name has no owner now.
    package var newOwner: String?

    /// True when a connection left the bus (its unique name lost its owner).
    package var isPeerDeparture: Bool { name.hasPrefix(":") && newOwner == nil }
}

/// `NameOwnerChanged` signals, decoded.
package struct NameOwnerChanges: AsyncSequence, Sendable {
    package typealias Element = NameOwnerChange
    package typealias Failure = Never
    package let subscription: SignalSubscription

    package func makeAsyncIterator() -> Iterator { Iterator(base: subscription.makeAsyncIterator()) }

    package struct Iterator: AsyncIteratorProtocol {
        var base: SignalSubscription.Iterator
        package mutating func next() async -> NameOwnerChange? {
            while let signal = await base.next() {
                let args = signal.arguments
                guard args.count == 3, let name = args[0].string, let old = args[1].string, let new = args[2].string
                else { continue }
                return NameOwnerChange(name: name, oldOwner: old.isEmpty ? nil : old, newOwner: new.isEmpty ? nil : new)
            }
            return nil
        }
    }
}

extension BusConnection {
    static let bus = "org.freedesktop.DBus"
    static let busPath: DBusObjectPath = "/org/freedesktop/DBus"

    private func callBus(_ method: String, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        try await call(destination: Self.bus, path: Self.busPath, interface: Self.bus, method: method, arguments: arguments)
    }

    /// Asks the bus for a well-known name (e.g. `org.bluez`).
    package func requestName(_ name: String, flags: NameRequestFlags = [.doNotQueue]) async throws -> NameRequestReply {
        try NameRules.requireBusName(name)
        let reply = try await callBus("RequestName", [.string(name), .uint32(flags.rawValue)])
        let code = try reply.decode(0, as: UInt32.self)
        guard let result = NameRequestReply(rawValue: code) else {
            throw DBusTypeMismatch(expected: "a RequestName reply code 1-4", found: "u", context: "code \(code)")
        }
        return result
    }

    /// Gives a well-known name back.
    package func releaseName(_ name: String) async throws -> NameReleaseReply {
        try NameRules.requireBusName(name)
        let reply = try await callBus("ReleaseName", [.string(name)])
        let code = try reply.decode(0, as: UInt32.self)
        guard let result = NameReleaseReply(rawValue: code) else {
            throw DBusTypeMismatch(expected: "a ReleaseName reply code 1-3", found: "u", context: "code \(code)")
        }
        return result
    }

    /// The unique name owning `name`, or nil when nobody does.
    package func nameOwner(_ name: String) async throws -> String? {
        try NameRules.requireBusName(name)
        do {
            return try await callBus("GetNameOwner", [.string(name)]).decode(0, as: String.self)
        } catch let failure as DBusFailure where failure.name == DBusFailure.nameHasNoOwnerName {
            return nil
        }
    }

    /// `NameOwnerChanged` signals of the bus, for one name or all.
    package func nameOwnerChanges(for name: String? = nil) async throws -> NameOwnerChanges {
        if let name { try NameRules.requireBusName(name) }
        let rule = MatchRule(
            sender: Self.bus, path: Self.busPath, interface: Self.bus, member: "NameOwnerChanged",
            arguments: name.map { [0: $0] } ?? [:])
        return NameOwnerChanges(subscription: try await subscribe(rule))
    }

    /// Returns once `name` has no owner (at once if it has none now); for a unique name, once
    /// that peer has left the bus.
    package func waitUntilNameVanishes(_ name: String) async throws {
        let changes = try await nameOwnerChanges(for: name)
        defer { Task { await changes.subscription.cancel() } }
        // Subscribed first, then asked: a departure between the two is not missed.
        if try await nameOwner(name) == nil { return }
        for await change in changes where change.newOwner == nil { return }
        throw DBusDisconnected(reason: "the connection closed while waiting for \(name) to vanish")
    }

    /// The `a{oa{sa{sv}}}` tree of an ObjectManager (BlueZ: destination `org.bluez`, path `/`).
    package func managedObjects(
        destination: String, path: DBusObjectPath = .root, timeout: Duration = .seconds(25)
    ) async throws -> [DBusObjectPath: [String: [String: DBusValue]]] {
        let reply = try await call(
            destination: destination, path: path, interface: "org.freedesktop.DBus.ObjectManager",
            method: "GetManagedObjects", timeout: timeout)
        return try reply.decode(0)
    }
}
