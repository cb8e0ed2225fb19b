// Whole D-Bus messages as bytes (the wire format), for tests, fuzzing and captures: libdbus's
// `dbus_message_marshal` / `dbus_message_demarshal` around this module's encoder and decoder.
import CDBus

package enum DBusWire {
    /// The decoded body of the complete marshalled message in `bytes`.
    /// - Throws: `DBusMalformedMessage` when libdbus rejects the bytes or the body.
    package static func decodeBody(ofMessage bytes: [UInt8]) throws -> [DBusValue] {
        try demarshal(bytes).arguments()
    }

    /// The body signature and decoded body of the complete marshalled message in `bytes`.
    package static func decodeMessage(_ bytes: [UInt8]) throws -> (signature: DBusSignature, body: [DBusValue]) {
        let message = try demarshal(bytes)
        return (message.signature, try message.arguments())
    }

    /// A marshalled (little-endian) signal carrying `arguments`.
    package static func encodeSignal(
        path: DBusObjectPath = "/", interface: String = "org.example.Wire", member: String = "Value",
        arguments: [DBusValue]
    ) throws -> [UInt8] {
        let message = try Message.signal(
            path: path, interface: interface, member: member, arguments: arguments, destination: nil)
        // A serial is required to marshal; any will do.
        dbus_message_set_serial(message.pointer, 1)
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        guard dbus_message_marshal(message.pointer, &buffer, &length) != 0, let buffer else {
            throw DBusInvalidValue(reason: "libdbus ran out of memory")
        }
        defer { dbus_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }

    static func demarshal(_ bytes: [UInt8]) throws -> Message {
        guard bytes.count <= Int(Int32.max) else { throw DBusMalformedMessage(reason: "longer than 2 GiB") }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let raw = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    dbus_message_demarshal($0, Int32(buffer.count), &error)
                }
            }
        }
        guard let raw else {
            let reason = error.message.map { String(cString: $0) } ?? "empty input"
            throw DBusMalformedMessage(reason: reason)
        }
        return Message(adopting: raw)
    }
}
