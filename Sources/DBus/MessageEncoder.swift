// Writing `DBusValue`s into a libdbus message body through `DBusMessageIter` (the varargs
// `dbus_message_append_args` cannot be called from Swift, docs/swift-linux.md P2).
//
// Everything is checked in Swift first: libdbus treats a wrong argument as a programming error
// and aborts the process, and a body that breaks the D-Bus limits would get the whole
// connection dropped by the bus. So a value that cannot be sent throws `DBusInvalidValue` and
// the message is never touched.
import CDBus

enum MessageEncoder {
    /// D-Bus allows 2 × 32 levels of container nesting in a body (variants included); libdbus's
    /// validator counts a level each time it walks into a struct, dict entry, variant or the
    /// elements of a non-empty array of non-fixed types, and refuses level 65.
    static let maximumNesting = 64
    /// The largest array payload D-Bus allows (64 MiB).
    static let maximumArrayBytes = 64 * 1024 * 1024

    /// Checks `values` and appends them to the (empty) body of `message`.
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws {
        try validateBody(values)
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values { try write(value, into: &iter) }
    }

    /// Throws unless `values` form a body that libdbus will encode and every peer will accept.
    static func validateBody(_ values: [DBusValue]) throws {
        let signature = values.signature
        guard signature.isValid else {
            throw DBusInvalidValue(reason: "the body's type signature \"\(signature)\" is not valid "
                + "(longer than 255 characters or nested deeper than 32 arrays or structs)")
        }
        for value in values { try validate(value, depth: 0) }
    }

    /// Checks one value found at nesting level `depth` (0 for a body argument).
    private static func validate(_ value: DBusValue, depth: Int) throws {
        switch value {
        case .byte, .bool, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double:
            return
        case .string(let s):
            if s.utf8.contains(0) { throw DBusInvalidValue(reason: "a string contains a NUL character") }
        case .objectPath(let path):
            if !path.isValid { throw DBusInvalidValue(reason: "\"\(path)\" is not a valid object path") }
        case .signature(let sig):
            if !sig.isValid { throw DBusInvalidValue(reason: "\"\(sig)\" is not a valid type signature") }
        case .unixFD(let fd):
            if fd < 0 { throw DBusInvalidValue(reason: "file descriptor \(fd) is negative") }
        case .bytes(let bytes):
            if bytes.count > maximumArrayBytes {
                throw DBusInvalidValue(reason: "a byte array of \(bytes.count) bytes exceeds the 64 MiB limit")
            }
        case .array(let element, let items):
            guard element.isSingleCompleteType else {
                throw DBusInvalidValue(reason: "array element type \"\(element)\" is not a single complete type "
                    + "(use .dict for dictionaries)")
            }
            if !items.isEmpty && !element.isFixedType { try checkNesting(depth + 1) }
            for item in items {
                guard item.signatureText == element.rawValue else {
                    throw DBusInvalidValue(reason: "an element of type \"\(item.signature)\" "
                        + "in an array of \"\(element)\"")
                }
                try validate(item, depth: depth + 1)
            }
        case .dict(let key, let valueType, let entries):
            guard key.isBasicType else {
                throw DBusInvalidValue(reason: "dictionary key type \"\(key)\" is not a basic type")
            }
            guard valueType.isSingleCompleteType else {
                throw DBusInvalidValue(reason: "dictionary value type \"\(valueType)\" is not a single complete type")
            }
            if !entries.isEmpty { try checkNesting(depth + 2) }
            for entry in entries {
                guard entry.key.signatureText == key.rawValue, entry.value.signatureText == valueType.rawValue else {
                    throw DBusInvalidValue(reason: "an entry {\(entry.key.signature): \(entry.value.signature)} "
                        + "in a dictionary of {\(key): \(valueType)}")
                }
                try validate(entry.key, depth: depth + 2)
                try validate(entry.value, depth: depth + 2)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusInvalidValue(reason: "a struct has no fields") }
            try checkNesting(depth + 1)
            for field in fields { try validate(field, depth: depth + 1) }
        case .variant(let inner):
            guard inner.signature.isSingleCompleteType else {
                throw DBusInvalidValue(reason: "a variant holds a value of invalid type \"\(inner.signature)\"")
            }
            try checkNesting(depth + 1)
            try validate(inner, depth: depth + 1)
        }
    }

    private static func checkNesting(_ depth: Int) throws {
        if depth > maximumNesting {
            throw DBusInvalidValue(reason: "containers nest deeper than \(maximumNesting) levels")
        }
    }

    // MARK: - Writing (values already validated)

    private static func write(_ value: DBusValue, into iter: inout DBusMessageIter) throws {
        switch value {
        case .byte(let v): try writeBasic(v, CDBUS_TYPE_BYTE, into: &iter)
        case .bool(let v): try writeBasic(dbus_bool_t(v ? 1 : 0), CDBUS_TYPE_BOOLEAN, into: &iter)
        case .int16(let v): try writeBasic(v, CDBUS_TYPE_INT16, into: &iter)
        case .uint16(let v): try writeBasic(v, CDBUS_TYPE_UINT16, into: &iter)
        case .int32(let v): try writeBasic(v, CDBUS_TYPE_INT32, into: &iter)
        case .uint32(let v): try writeBasic(v, CDBUS_TYPE_UINT32, into: &iter)
        case .int64(let v): try writeBasic(v, CDBUS_TYPE_INT64, into: &iter)
        case .uint64(let v): try writeBasic(v, CDBUS_TYPE_UINT64, into: &iter)
        case .double(let v): try writeBasic(v, CDBUS_TYPE_DOUBLE, into: &iter)
        case .unixFD(let v): try writeBasic(v, CDBUS_TYPE_UNIX_FD, into: &iter)
        case .string(let s): try writeString(s, CDBUS_TYPE_STRING, into: &iter)
        case .objectPath(let p): try writeString(p.rawValue, CDBUS_TYPE_OBJECT_PATH, into: &iter)
        case .signature(let g): try writeString(g.rawValue, CDBUS_TYPE_SIGNATURE, into: &iter)
        case .bytes(let bytes):
            try writeContainer(CDBUS_TYPE_ARRAY, contents: "y", into: &iter) { sub in
                guard !bytes.isEmpty else { return }
                let ok = bytes.withUnsafeBufferPointer { buffer -> dbus_bool_t in
                    var start = buffer.baseAddress
                    return dbus_message_iter_append_fixed_array(&sub, CDBUS_TYPE_BYTE, &start, Int32(buffer.count))
                }
                if ok == 0 { throw outOfMemory }
            }
        case .array(let element, let items):
            try writeContainer(CDBUS_TYPE_ARRAY, contents: element.rawValue, into: &iter) { sub in
                for item in items { try write(item, into: &sub) }
            }
        case .dict(let key, let valueType, let entries):
            let entrySignature = "{" + key.rawValue + valueType.rawValue + "}"
            try writeContainer(CDBUS_TYPE_ARRAY, contents: entrySignature, into: &iter) { sub in
                for entry in entries {
                    try writeContainer(CDBUS_TYPE_DICT_ENTRY, contents: nil, into: &sub) { pair in
                        try write(entry.key, into: &pair)
                        try write(entry.value, into: &pair)
                    }
                }
            }
        case .structure(let fields):
            try writeContainer(CDBUS_TYPE_STRUCT, contents: nil, into: &iter) { sub in
                for field in fields { try write(field, into: &sub) }
            }
        case .variant(let inner):
            try writeContainer(CDBUS_TYPE_VARIANT, contents: inner.signatureText, into: &iter) { sub in
                try write(inner, into: &sub)
            }
        }
    }

    private static var outOfMemory: DBusInvalidValue { DBusInvalidValue(reason: "libdbus ran out of memory") }

    private static func writeBasic<T: BitwiseCopyable>(
        _ value: T, _ type: Int32, into iter: inout DBusMessageIter
    ) throws {
        var copy = value
        if dbus_message_iter_append_basic(&iter, type, &copy) == 0 { throw outOfMemory }
    }

    private static func writeString(_ text: String, _ type: Int32, into iter: inout DBusMessageIter) throws {
        let ok = text.withCString { chars -> dbus_bool_t in
            var pointer: UnsafePointer<CChar>? = chars
            return dbus_message_iter_append_basic(&iter, type, &pointer)
        }
        if ok == 0 { throw outOfMemory }
    }

    private static func writeContainer(
        _ type: Int32, contents: String?, into iter: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws -> Void
    ) throws {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t
        if let contents {
            opened = contents.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) }
        } else {
            opened = dbus_message_iter_open_container(&iter, type, nil, &sub)
        }
        if opened == 0 { throw outOfMemory }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container_if_open(&iter, &sub)
            throw error
        }
        if dbus_message_iter_close_container(&iter, &sub) == 0 { throw outOfMemory }
    }
}
