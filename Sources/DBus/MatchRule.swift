// Match rules: which signals a subscription wants.
//
// The rule is sent to the bus (AddMatch) so that the bus forwards those signals, and it is also
// evaluated here, because one connection receives the union of all its subscriptions' signals
// and each subscription must get only its own.

/// A signal received on a subscription.
package struct DBusSignal: Hashable, Sendable {
    /// The sender's unique name (`:1.42`), or `org.freedesktop.DBus` for the bus itself.
    package var sender: String
    package var path: DBusObjectPath
    package var interface: String
    package var member: String
    /// Set for a unicast signal.
    package var destination: String?
    package var arguments: [DBusValue]

    package init(
        sender: String, path: DBusObjectPath, interface: String, member: String,
        destination: String? = nil, arguments: [DBusValue]
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.destination = destination
        self.arguments = arguments
    }
}

/// A D-Bus match rule for signals (`type='signal'` is implied).
package struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    /// A unique name or a well-known name (then the signals of its current owner match).
    package var sender: String?
    package var path: DBusObjectPath?
    /// The path itself or anything below it.
    package var pathNamespace: DBusObjectPath?
    package var interface: String?
    package var member: String?
    /// `argN='…'`: argument N is a string (or object path) equal to the value.
    package var arguments: [Int: String]
    /// `argNpath='…'`: argument N is a path-like string equal to the value, or one of the two is a
    /// `/`-terminated prefix of the other (BlueZ clients use `arg0path='/org/bluez/'`).
    package var argumentPaths: [Int: String]
    /// `arg0namespace='…'`: argument 0 is that dotted name or lies below it.
    package var arg0Namespace: String?

    package init(
        sender: String? = nil, path: DBusObjectPath? = nil, pathNamespace: DBusObjectPath? = nil,
        interface: String? = nil, member: String? = nil, arguments: [Int: String] = [:],
        argumentPaths: [Int: String] = [:], arg0Namespace: String? = nil
    ) {
        self.sender = sender
        self.path = path
        self.pathNamespace = pathNamespace
        self.interface = interface
        self.member = member
        self.arguments = arguments
        self.argumentPaths = argumentPaths
        self.arg0Namespace = arg0Namespace
    }

    /// The rule as the bus reads it, e.g. `type='signal',sender='org.bluez',member='InterfacesAdded'`.
    package var text: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            if let value { parts.append("\(key)=\(Self.quote(value))") }
        }
        add("sender", sender)
        add("path", path?.rawValue)
        add("path_namespace", pathNamespace?.rawValue)
        add("interface", interface)
        add("member", member)
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        for (index, value) in argumentPaths.sorted(by: { $0.key < $1.key }) { add("arg\(index)path", value) }
        add("arg0namespace", arg0Namespace)
        return parts.joined(separator: ",")
    }

    package var description: String { text }

    /// Quotes a value; an apostrophe is written as `'\''` (close, escaped quote, reopen).
    private static func quote(_ value: String) -> String {
        "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// Throws unless every field is something the bus accepts.
    func validate() throws {
        if let sender { try NameRules.requireBusName(sender) }
        if let path { try NameRules.requirePath(path) }
        if let pathNamespace { try NameRules.requirePath(pathNamespace) }
        if path != nil && pathNamespace != nil {
            throw DBusInvalidName(kind: "match rule (path and path_namespace together)", name: text)
        }
        if let interface { try NameRules.requireInterface(interface) }
        if let member { try NameRules.requireMember(member) }
        for index in Array(arguments.keys) + Array(argumentPaths.keys) where !(0...63).contains(index) {
            throw DBusInvalidName(kind: "match rule argument index", name: String(index))
        }
        for value in Array(arguments.values) + Array(argumentPaths.values) + [arg0Namespace ?? ""]
        where value.utf8.contains(0) {
            throw DBusInvalidName(kind: "match rule value", name: value)
        }
    }

    /// The header part of the match. `owner` resolves a well-known sender to its current owner.
    func matchesHeader(
        sender messageSender: String?, path messagePath: DBusObjectPath?, interface messageInterface: String?,
        member messageMember: String?, owner: (String) -> String?
    ) -> Bool {
        if let sender {
            guard let messageSender else { return false }
            if messageSender != sender && owner(sender) != messageSender { return false }
        }
        if let path, messagePath != path { return false }
        if let pathNamespace {
            guard let messagePath else { return false }
            if pathNamespace != messagePath && !pathNamespace.isAncestor(of: messagePath) { return false }
        }
        if let interface, messageInterface != interface { return false }
        if let member, messageMember != member { return false }
        return true
    }

    /// True when the rule looks at arguments, so they must be decoded to decide.
    var needsArguments: Bool { !arguments.isEmpty || !argumentPaths.isEmpty || arg0Namespace != nil }

    /// The argument part of the match.
    func matchesArguments(_ values: [DBusValue]) -> Bool {
        func text(at index: Int) -> String? {
            guard values.indices.contains(index) else { return nil }
            switch values[index] {
            case .string(let s): return s
            case .objectPath(let p): return p.rawValue
            default: return nil
            }
        }
        for (index, expected) in arguments where text(at: index) != expected { return false }
        for (index, expected) in argumentPaths {
            guard let actual = text(at: index) else { return false }
            let related = actual == expected
                || (expected.hasSuffix("/") && actual.hasPrefix(expected))
                || (actual.hasSuffix("/") && expected.hasPrefix(actual))
            if !related { return false }
        }
        if let arg0Namespace {
            guard case .string(let actual)? = values.first else { return false }
            if actual != arg0Namespace && !actual.hasPrefix(arg0Namespace + ".") { return false }
        }
        return true
    }
}
