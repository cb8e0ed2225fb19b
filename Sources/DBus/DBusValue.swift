// A D-Bus value of any type, with its type signature.
//
// Containers carry their element types explicitly (an empty `as` and an empty `ao` differ on the
// wire), so every value knows its own signature. Byte arrays have their own case because BlueZ
// moves every characteristic value as `ay`; the decoder always produces `.bytes` for `ay`, and
// encoding `.array("y", [.byte(…)])` gives the same bytes on the wire.

/// One D-Bus value.
package enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(DBusObjectPath)
    case signature(DBusSignature)
    /// A file descriptor. Encoding duplicates it (the caller keeps its own); a decoded one is a
    /// fresh duplicate that the receiver owns and must close (a signal is decoded once, so
    /// several subscriptions receiving it share that one descriptor).
    case unixFD(Int32)
    /// `ay`.
    case bytes([UInt8])
    /// An array whose elements all have the type `element` (a single complete type).
    case array(element: DBusSignature, [DBusValue])
    /// An array of dict entries, `a{KV}`: `key` is a basic type, `value` a single complete type.
    /// Entries keep their order (D-Bus allows duplicates; lookups take the first).
    case dict(key: DBusSignature, value: DBusSignature, [DBusDictEntry])
    /// A struct, `(…)`: one or more fields.
    case structure([DBusValue])
    /// A variant, `v`: any single value, carrying its own signature on the wire.
    indirect case variant(DBusValue)

    /// The value's D-Bus type signature, e.g. `a{sv}`.
    package var signature: DBusSignature {
        DBusSignature(signatureText)
    }

    var signatureText: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element.rawValue
        case .dict(let key, let value, _): "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): "(" + fields.map(\.signatureText).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One entry of a `.dict`.
package struct DBusDictEntry: Hashable, Sendable {
    package var key: DBusValue
    package var value: DBusValue
    package init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == DBusValue {
    /// The signature of a message body holding these values in order.
    package var signature: DBusSignature { DBusSignature(map(\.signatureText).joined()) }
}

// MARK: - Building values

extension DBusValue {
    /// `as`.
    package static func strings(_ values: [String]) -> DBusValue {
        .array(element: "s", values.map(DBusValue.string))
    }

    /// `ao`.
    package static func objectPaths(_ values: [DBusObjectPath]) -> DBusValue {
        .array(element: "o", values.map(DBusValue.objectPath))
    }

    /// `a{sv}`, keys sorted so the encoding is deterministic. Each value is wrapped in a variant
    /// unless it already is one.
    package static func variantDictionary(_ values: [String: DBusValue]) -> DBusValue {
        .dict(key: "s", value: "v", values.sorted { $0.key < $1.key }.map {
            DBusDictEntry(key: .string($0.key), value: $0.value.asVariant)
        })
    }

    /// The value wrapped in a variant, unless it already is one.
    package var asVariant: DBusValue {
        if case .variant = self { return self }
        return .variant(self)
    }
}
