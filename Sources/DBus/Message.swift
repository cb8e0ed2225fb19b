// One libdbus message, owned by Swift (one reference, dropped on deinit), and the builders of the
// four message kinds. Messages are independent of connections, so they may be built and read on
// any thread; only sending them goes through the connection's owner thread.
import CDBus

/// A retained `DBusMessage*`.
final class Message: @unchecked Sendable {
    // @unchecked: the pointer is only read after construction, and libdbus message reference
    // counts are atomic; a message is never mutated after it has been handed to another thread.
    let pointer: OpaquePointer

    /// Takes over one reference (from a `dbus_message_new*` call or a stolen reply).
    init(adopting pointer: OpaquePointer) { self.pointer = pointer }

    /// Adds a reference to a message libdbus lends (e.g. inside a filter).
    init(retaining pointer: OpaquePointer) {
        self.pointer = dbus_message_ref(pointer)
    }

    deinit { dbus_message_unref(pointer) }

    var type: Int32 { dbus_message_get_type(pointer) }
    var path: DBusObjectPath? { dbus_message_get_path(pointer).map { DBusObjectPath(String(cString: $0)) } }
    var interface: String? { dbus_message_get_interface(pointer).map { String(cString: $0) } }
    var member: String? { dbus_message_get_member(pointer).map { String(cString: $0) } }
    var sender: String? { dbus_message_get_sender(pointer).map { String(cString: $0) } }
    var destination: String? { dbus_message_get_destination(pointer).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(pointer).map { String(cString: $0) } }
    var signature: DBusSignature {
        DBusSignature(dbus_message_get_signature(pointer).map { String(cString: $0) } ?? "")
    }
    var expectsReply: Bool { dbus_message_get_no_reply(pointer) == 0 }

    /// The decoded body.
    func arguments() throws -> [DBusValue] { try MessageDecoder.values(of: pointer) }

    /// Checks this message against a header triple without decoding anything.
    func isSignal(interface: String, member: String) -> Bool {
        dbus_message_is_signal(pointer, interface, member) != 0
    }

    // MARK: - Building

    static func methodCall(
        destination: String?, path: DBusObjectPath, interface: String?, method: String, arguments: [DBusValue]
    ) throws -> Message {
        if let destination { try NameRules.requireBusName(destination) }
        try NameRules.requirePath(path)
        if let interface { try NameRules.requireInterface(interface) }
        try NameRules.requireMember(method)
        guard let raw = dbus_message_new_method_call(destination, path.rawValue, interface, method) else {
            throw DBusInvalidValue(reason: "libdbus ran out of memory")
        }
        let message = Message(adopting: raw)
        try MessageEncoder.append(arguments, to: raw)
        return message
    }

    static func signal(
        path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue], destination: String?
    ) throws -> Message {
        try NameRules.requirePath(path)
        try NameRules.requireInterface(interface)
        try NameRules.requireMember(member)
        if let destination { try NameRules.requireBusName(destination) }
        guard let raw = dbus_message_new_signal(path.rawValue, interface, member) else {
            throw DBusInvalidValue(reason: "libdbus ran out of memory")
        }
        let message = Message(adopting: raw)
        if let destination, dbus_message_set_destination(raw, destination) == 0 {
            throw DBusInvalidValue(reason: "libdbus ran out of memory")
        }
        try MessageEncoder.append(arguments, to: raw)
        return message
    }

    /// The method return for `call`, or nil when libdbus is out of memory.
    static func methodReturn(to call: Message, arguments: [DBusValue]) throws -> Message {
        guard let raw = dbus_message_new_method_return(call.pointer) else {
            throw DBusInvalidValue(reason: "libdbus ran out of memory")
        }
        let message = Message(adopting: raw)
        try MessageEncoder.append(arguments, to: raw)
        return message
    }

    /// The error reply for `call`. An invalid error name (which libdbus would abort on) is
    /// replaced by `org.freedesktop.DBus.Error.Failed`, keeping the original name in the text.
    static func errorReply(to call: Message, _ failure: DBusFailure) -> Message? {
        var name = failure.name
        var text = failure.message
        if !NameRules.isValidErrorName(name) {
            text = "\(name): \(text)"
            name = DBusFailure.failedName
        }
        text = text.split(separator: "\0", omittingEmptySubsequences: false).joined()
        guard let raw = dbus_message_new_error(call.pointer, name, text) else { return nil }
        return Message(adopting: raw)
    }
}
