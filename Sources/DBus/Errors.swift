// The errors of the DBus module. Each type names what happened; each `description` is one line
// saying what was wrong and what was expected.
//
// `DBusFailure` is the D-Bus error reply itself (named so to stay clear of libdbus's C struct
// `DBusError`, docs/swift-linux.md P12). A call that gets no reply in time is NOT a `DBusFailure` but a
// `DBusCallTimedOut`, so that `catch let failure as DBusFailure` only sees what the peer said.

/// An error reply on the bus: received from a peer, or thrown by an exported method to reply with.
package struct DBusFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.bluez.Error.Failed`.
    package var name: String
    /// The human-readable message (the first string argument of the error), e.g.
    /// `le-connection-abort-by-local`; empty when the error carried none.
    package var message: String

    package init(name: String, message: String = "") {
        self.name = name
        self.message = message
    }

    package var description: String {
        message.isEmpty ? "D-Bus error \(name)" : "D-Bus error \(name): \(message)"
    }

    // Standard error names of the bus and of object dispatch.
    package static let failedName = "org.freedesktop.DBus.Error.Failed"
    package static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    package static let unknownInterfaceName = "org.freedesktop.DBus.Error.UnknownInterface"
    package static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    package static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    package static let propertyReadOnlyName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    package static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    package static let serviceUnknownName = "org.freedesktop.DBus.Error.ServiceUnknown"
    package static let nameHasNoOwnerName = "org.freedesktop.DBus.Error.NameHasNoOwner"
    package static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    package static let accessDeniedName = "org.freedesktop.DBus.Error.AccessDenied"

    /// `org.freedesktop.DBus.Error.Failed` with a message.
    package static func failed(_ message: String) -> DBusFailure { DBusFailure(name: failedName, message: message) }
    /// `org.freedesktop.DBus.Error.InvalidArgs` with a message.
    package static func invalidArgs(_ message: String) -> DBusFailure {
        DBusFailure(name: invalidArgsName, message: message)
    }
}

/// A method call got no reply within its time-out.
package struct DBusCallTimedOut: Error, Hashable, Sendable, CustomStringConvertible {
    package var destination: String
    package var path: DBusObjectPath
    package var interface: String?
    package var member: String
    package var timeout: Duration

    package var description: String {
        let method = interface.map { "\($0).\(member)" } ?? member
        return "no reply to \(method) on \(path) at \(destination) within \(timeout); "
            + "the peer is busy or gone, retry or raise the time-out"
    }
}

/// The connection is closed or the bus went away; nothing more can be sent on it.
package struct DBusDisconnected: Error, Hashable, Sendable, CustomStringConvertible {
    package var reason: String
    package var description: String { "D-Bus connection is closed (\(reason)); open a new connection" }
}

/// Opening or registering a connection failed.
package struct DBusConnectFailed: Error, Hashable, Sendable, CustomStringConvertible {
    package var address: String
    package var name: String
    package var message: String
    package var description: String {
        "cannot connect to the D-Bus bus at \(address): \(message) (\(name)); "
            + "check that the bus runs and that DBUS_SYSTEM_BUS_ADDRESS / DBUS_SESSION_BUS_ADDRESS point at it"
    }
}

/// A bus name, interface, member, error name or object path that D-Bus does not allow.
package struct DBusInvalidName: Error, Hashable, Sendable, CustomStringConvertible {
    package var kind: String
    package var name: String
    package var description: String { "invalid D-Bus \(kind) \"\(name)\"; see the D-Bus specification's naming rules" }
}

/// A type signature that is not valid, or not the single complete type it must be.
package struct DBusInvalidSignature: Error, Hashable, Sendable, CustomStringConvertible {
    package var signature: String
    package var description: String { "invalid D-Bus type signature \"\(signature)\"" }
}

/// A value that cannot be encoded: it breaks a D-Bus rule (a NUL in a string, an array element
/// whose type is not the array's, nesting deeper than 64, …).
package struct DBusInvalidValue: Error, Hashable, Sendable, CustomStringConvertible {
    package var reason: String
    package var description: String { "cannot encode D-Bus value: \(reason)" }
}

/// A message whose content libdbus could not hand over (malformed bytes, a missing file
/// descriptor, an unknown type code).
package struct DBusMalformedMessage: Error, Hashable, Sendable, CustomStringConvertible {
    package var reason: String
    package var description: String { "malformed D-Bus message: \(reason)" }
}

/// A value (a reply, an argument, a property) does not have the type the caller expected.
package struct DBusTypeMismatch: Error, Hashable, Sendable, CustomStringConvertible {
    package var expected: String
    package var found: DBusSignature
    package var context: String
    package var description: String {
        "expected \(expected) but found a value of D-Bus type \"\(found)\"\(context.isEmpty ? "" : " in \(context)")"
    }
}

/// An operation on an exported object, interface or property that is not exported.
package struct DBusNotExported: Error, Hashable, Sendable, CustomStringConvertible {
    package var what: String
    package var description: String { "\(what) is not exported on this connection; export it first" }
}
