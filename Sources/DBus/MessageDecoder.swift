// Reading a libdbus message body into `DBusValue`s through `DBusMessageIter`.
//
// libdbus validates every body it receives or demarshals, so the walk below meets only
// well-formed content; what it cannot hand over (a file descriptor the message does not carry,
// an unknown type code, text that is not UTF-8) throws `DBusMalformedMessage`, never traps.
import CDBus

enum MessageDecoder {
    /// All arguments of `message`'s body, in order.
    static func values(of message: OpaquePointer) throws -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            values.append(try read(&iter))
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    private static func read(_ iter: inout DBusMessageIter) throws -> DBusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(readBasic(&iter, as: UInt8.self))
        case CDBUS_TYPE_BOOLEAN: return .bool(readBasic(&iter, as: dbus_bool_t.self) != 0)
        case CDBUS_TYPE_INT16: return .int16(readBasic(&iter, as: Int16.self))
        case CDBUS_TYPE_UINT16: return .uint16(readBasic(&iter, as: UInt16.self))
        case CDBUS_TYPE_INT32: return .int32(readBasic(&iter, as: Int32.self))
        case CDBUS_TYPE_UINT32: return .uint32(readBasic(&iter, as: UInt32.self))
        case CDBUS_TYPE_INT64: return .int64(readBasic(&iter, as: Int64.self))
        case CDBUS_TYPE_UINT64: return .uint64(readBasic(&iter, as: UInt64.self))
        case CDBUS_TYPE_DOUBLE: return .double(readBasic(&iter, as: Double.self))
        case CDBUS_TYPE_STRING: return .string(try readString(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(DBusObjectPath(try readString(&iter)))
        case CDBUS_TYPE_SIGNATURE: return .signature(DBusSignature(try readString(&iter)))
        case CDBUS_TYPE_UNIX_FD:
            let fd = readBasic(&iter, as: Int32.self)
            guard fd >= 0 else {
                throw DBusMalformedMessage(reason: "a file descriptor argument refers to no descriptor the message carries")
            }
            return .unixFD(fd)
        case CDBUS_TYPE_ARRAY: return try readArray(&iter)
        case CDBUS_TYPE_STRUCT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let fields = try readAll(&sub)
            guard !fields.isEmpty else { throw DBusMalformedMessage(reason: "an empty struct") }
            return .structure(fields)
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            guard dbus_message_iter_get_arg_type(&sub) != CDBUS_TYPE_INVALID else {
                throw DBusMalformedMessage(reason: "an empty variant")
            }
            return .variant(try read(&sub))
        default:
            throw DBusMalformedMessage(reason: "unexpected type code \(type) in a message body")
        }
    }

    private static func readAll(_ iter: inout DBusMessageIter) throws -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != CDBUS_TYPE_INVALID {
            values.append(try read(&iter))
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func readArray(_ iter: inout DBusMessageIter) throws -> DBusValue {
        let elementType = dbus_message_iter_get_element_type(&iter)
        let arraySignature = try signature(at: &iter)
        guard arraySignature.count >= 2, arraySignature.first == "a" else {
            throw DBusMalformedMessage(reason: "array with signature \"\(arraySignature)\"")
        }
        let element = String(arraySignature.dropFirst())
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)

        if elementType == CDBUS_TYPE_BYTE {
            var start: UnsafeRawPointer? = nil
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&sub, &start, &count)
            guard count > 0, let start else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: Int(count))))
        }

        if elementType == CDBUS_TYPE_DICT_ENTRY {
            // element is "{KV}": K is one basic type code, V the rest.
            let inner = element.dropFirst().dropLast()
            guard element.first == "{", element.last == "}", let keyCode = inner.first else {
                throw DBusMalformedMessage(reason: "dictionary with element signature \"\(element)\"")
            }
            let key = DBusSignature(String(keyCode))
            let value = DBusSignature(String(inner.dropFirst()))
            var entries: [DBusDictEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                let parts = try readAll(&pair)
                guard parts.count == 2 else {
                    throw DBusMalformedMessage(reason: "a dictionary entry with \(parts.count) fields")
                }
                entries.append(DBusDictEntry(key: parts[0], value: parts[1]))
                dbus_message_iter_next(&sub)
            }
            return .dict(key: key, value: value, entries)
        }

        return .array(element: DBusSignature(element), try readAll(&sub))
    }

    private static func readBasic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, as type: T.Type) -> T {
        withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
            // 8 zeroed bytes are enough for every basic type; libdbus writes the value's width.
            let raw = UnsafeMutableRawPointer(buffer.baseAddress!)
            raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<T>.size)
            dbus_message_iter_get_basic(&iter, raw)
            return raw.load(as: T.self)
        }
    }

    private static func readString(_ iter: inout DBusMessageIter) throws -> String {
        var chars: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iter, &chars)
        guard let chars, let text = String(validatingCString: chars) else {
            throw DBusMalformedMessage(reason: "a string that is not valid UTF-8")
        }
        return text
    }

    /// The signature of the value under `iter` (libdbus allocates it; freed here).
    private static func signature(at iter: inout DBusMessageIter) throws -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else {
            throw DBusMalformedMessage(reason: "libdbus ran out of memory reading a signature")
        }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
