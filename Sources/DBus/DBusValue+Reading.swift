// Reading values: optional accessors for quick looks, and `DBusDecodable` for typed decoding
// that throws `DBusTypeMismatch` when the content is not what the caller expected.
//
// Variants are transparent when reading: `props["Value"]?.bytes` works although the `a{sv}`
// value is `.variant(.bytes(…))`. Nothing here traps on unexpected content.

extension DBusValue {
    /// The value with any variant wrappers removed.
    package var unwrapped: DBusValue {
        var value = self
        while case .variant(let inner) = value { value = inner }
        return value
    }

    package var byte: UInt8? { if case .byte(let v) = unwrapped { v } else { nil } }
    package var bool: Bool? { if case .bool(let v) = unwrapped { v } else { nil } }
    package var int16: Int16? { if case .int16(let v) = unwrapped { v } else { nil } }
    package var uint16: UInt16? { if case .uint16(let v) = unwrapped { v } else { nil } }
    package var int32: Int32? { if case .int32(let v) = unwrapped { v } else { nil } }
    package var uint32: UInt32? { if case .uint32(let v) = unwrapped { v } else { nil } }
    package var int64: Int64? { if case .int64(let v) = unwrapped { v } else { nil } }
    package var uint64: UInt64? { if case .uint64(let v) = unwrapped { v } else { nil } }
    package var double: Double? { if case .double(let v) = unwrapped { v } else { nil } }
    package var string: String? { if case .string(let v) = unwrapped { v } else { nil } }
    package var objectPath: DBusObjectPath? { if case .objectPath(let v) = unwrapped { v } else { nil } }
    package var signatureValue: DBusSignature? { if case .signature(let v) = unwrapped { v } else { nil } }
    package var unixFD: Int32? { if case .unixFD(let v) = unwrapped { v } else { nil } }

    /// `ay` (or an `.array` of bytes).
    package var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let v): return v
        case .array(let element, let items) where element == "y":
            var out: [UInt8] = []
            out.reserveCapacity(items.count)
            for item in items {
                guard case .byte(let b) = item else { return nil }
                out.append(b)
            }
            return out
        default: return nil
        }
    }

    /// The elements of any array (`ay` gives `.byte` elements; a dict gives nil).
    package var arrayElements: [DBusValue]? {
        switch unwrapped {
        case .bytes(let v): v.map(DBusValue.byte)
        case .array(_, let items): items
        default: nil
        }
    }

    /// `as`.
    package var strings: [String]? {
        guard let items = arrayElements else { return nil }
        var out: [String] = []
        for item in items {
            guard let s = item.string else { return nil }
            out.append(s)
        }
        return out
    }

    /// `ao`.
    package var objectPaths: [DBusObjectPath]? {
        guard let items = arrayElements else { return nil }
        var out: [DBusObjectPath] = []
        for item in items {
            guard let p = item.objectPath else { return nil }
            out.append(p)
        }
        return out
    }

    /// The entries of an `a{KV}`.
    package var dictEntries: [DBusDictEntry]? {
        if case .dict(_, _, let entries) = unwrapped { entries } else { nil }
    }

    /// An `a{s…}` (typically `a{sv}`) as a Swift dictionary; values keep their variant wrapper,
    /// which the accessors see through. Of duplicate keys the first wins.
    package var stringDictionary: [String: DBusValue]? {
        guard let entries = dictEntries else { return nil }
        var out: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            if out[key] == nil { out[key] = entry.value }
        }
        return out
    }

    /// An `a{o…}` as a Swift dictionary. Of duplicate keys the first wins.
    package var objectPathDictionary: [DBusObjectPath: DBusValue]? {
        guard let entries = dictEntries else { return nil }
        var out: [DBusObjectPath: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.objectPath else { return nil }
            if out[key] == nil { out[key] = entry.value }
        }
        return out
    }

    /// The fields of a struct.
    package var structFields: [DBusValue]? {
        if case .structure(let fields) = unwrapped { fields } else { nil }
    }

    /// Decodes the value as `T`, throwing `DBusTypeMismatch` when it has another shape.
    package func decode<T: DBusDecodable>(_ type: T.Type = T.self) throws -> T {
        try T(dbus: self)
    }
}

extension Array where Element == DBusValue {
    /// Decodes argument `index` of a reply or call as `T`; throws `DBusTypeMismatch` when the
    /// argument is missing or has another type.
    package func decode<T: DBusDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard indices.contains(index) else {
            throw DBusTypeMismatch(
                expected: "\(T.self) as argument \(index)", found: signature,
                context: "a body of \(count) argument(s)")
        }
        return try T(dbus: self[index])
    }
}

/// A Swift type that can be read from a `DBusValue`.
package protocol DBusDecodable {
    init(dbus value: DBusValue) throws
}

extension DBusDecodable {
    static func mismatch(_ value: DBusValue) -> DBusTypeMismatch {
        DBusTypeMismatch(expected: "\(Self.self)", found: value.signature, context: "")
    }
}

extension DBusValue: DBusDecodable {
    package init(dbus value: DBusValue) { self = value }
}

extension Bool: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.bool else { throw Self.mismatch(value) }
        self = v
    }
}

extension UInt8: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.byte else { throw Self.mismatch(value) }
        self = v
    }
}

extension Int16: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.int16 else { throw Self.mismatch(value) }
        self = v
    }
}

extension UInt16: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.uint16 else { throw Self.mismatch(value) }
        self = v
    }
}

extension Int32: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.int32 else { throw Self.mismatch(value) }
        self = v
    }
}

extension UInt32: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.uint32 else { throw Self.mismatch(value) }
        self = v
    }
}

extension Int64: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.int64 else { throw Self.mismatch(value) }
        self = v
    }
}

extension UInt64: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.uint64 else { throw Self.mismatch(value) }
        self = v
    }
}

extension Double: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.double else { throw Self.mismatch(value) }
        self = v
    }
}

extension String: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.string else { throw Self.mismatch(value) }
        self = v
    }
}

extension DBusObjectPath: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.objectPath else { throw Self.mismatch(value) }
        self = v
    }
}

extension DBusSignature: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        guard let v = value.signatureValue else { throw Self.mismatch(value) }
        self = v
    }
}

extension Array: DBusDecodable where Element: DBusDecodable {
    package init(dbus value: DBusValue) throws {
        if Element.self == UInt8.self, let bytes = value.bytes, let same = bytes as? [Element] {
            self = same
            return
        }
        guard let items = value.arrayElements else { throw Self.mismatch(value) }
        self = try items.map { try Element(dbus: $0) }
    }
}

extension Dictionary: DBusDecodable where Key: DBusDecodable, Value: DBusDecodable {
    /// Of duplicate keys the first wins.
    package init(dbus value: DBusValue) throws {
        guard let entries = value.dictEntries else { throw Self.mismatch(value) }
        var out: [Key: Value] = [:]
        out.reserveCapacity(entries.count)
        for entry in entries {
            let key = try Key(dbus: entry.key)
            if out[key] == nil { out[key] = try Value(dbus: entry.value) }
        }
        self = out
    }
}
