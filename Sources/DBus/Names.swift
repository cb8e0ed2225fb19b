// The small string types of D-Bus: type signatures and object paths.
//
// Both are plain wrappers so that they can be written as literals (`"a{sv}"`, `"/org/bluez"`);
// they are validated where they meet libdbus (encoding, exporting), because libdbus aborts the
// process on an invalid name or path (its "check failed" warnings are fatal by default).
import CDBus

/// What the string types share: written as a literal or from a `String`, shown and ordered as
/// their text.
package protocol DBusText: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible where RawValue == String, StringLiteralType == String {
    init(rawValue: String)
}

extension DBusText {
    package init(_ rawValue: String) { self.init(rawValue: rawValue) }
    package init(stringLiteral value: String) { self.init(rawValue: value) }
    package var description: String { rawValue }
    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A D-Bus type signature: zero or more complete types, e.g. `"a{oa{sa{sv}}}"` or `"sv"`.
package struct DBusSignature: DBusText {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let empty = DBusSignature("")

    /// True when libdbus accepts it as a sequence of complete types (the empty signature included).
    package var isValid: Bool {
        !rawValue.utf8.contains(0) && dbus_signature_validate(rawValue, nil) != 0
    }

    /// True when it is exactly one complete type (what an array element or a variant holds).
    package var isSingleCompleteType: Bool {
        !rawValue.utf8.contains(0) && dbus_signature_validate_single(rawValue, nil) != 0
    }

    /// The complete types it is made of, in order (`"sa{sv}as"` → `s`, `a{sv}`, `as`);
    /// throws if the signature is not valid.
    package func completeTypes() throws -> [DBusSignature] {
        guard isValid else { throw DBusInvalidSignature(signature: rawValue) }
        let bytes = Array(rawValue.utf8)
        var types: [DBusSignature] = []
        var start = 0
        while start < bytes.count {
            let end = Self.endOfCompleteType(bytes, from: start)
            types.append(DBusSignature(String(decoding: bytes[start..<end], as: UTF8.self)))
            start = end
        }
        return types
    }

    /// The index just past the complete type starting at `start` of an already validated signature.
    private static func endOfCompleteType(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while bytes[index] == UInt8(ascii: "a") { index += 1 }
        let first = bytes[index]
        guard first == UInt8(ascii: "(") || first == UInt8(ascii: "{") else { return index + 1 }
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "("), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
            index += 1
            if depth == 0 { break }
        }
        return index
    }

    /// True for the basic types that may key a dictionary.
    var isBasicType: Bool {
        rawValue.utf8.count == 1 && "ybnqiuxtdsogh".utf8.contains(rawValue.utf8.first!)
    }

    /// True for fixed-size types: arrays of these are not walked element by element by libdbus's
    /// validator, which matters for the nesting limit (see `DBusValue.maximumNesting`).
    var isFixedType: Bool {
        rawValue.utf8.count == 1 && "ybnqiuxtdh".utf8.contains(rawValue.utf8.first!)
    }
}

/// A D-Bus object path such as `/org/bluez/hci0`.
package struct DBusObjectPath: DBusText {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }

    package static let root = DBusObjectPath("/")

    /// True when it follows the D-Bus rules: `/`, or `/`-separated non-empty `[A-Za-z0-9_]` elements.
    package var isValid: Bool {
        !rawValue.utf8.contains(0) && dbus_validate_path(rawValue, nil) != 0
    }

    /// The path with one more element (`/org/bluez` + `hci0`).
    package func appending(_ element: String) -> DBusObjectPath {
        DBusObjectPath(rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }

    /// True when `other` lies strictly below this path.
    package func isAncestor(of other: DBusObjectPath) -> Bool {
        if rawValue == "/" { return other.rawValue != "/" && other.rawValue.hasPrefix("/") }
        return other.rawValue.hasPrefix(rawValue + "/")
    }

    /// The first element of `descendant` below this path (`/org` in `/org/bluez` seen from `/`).
    func childElement(toward descendant: DBusObjectPath) -> String? {
        guard isAncestor(of: descendant) else { return nil }
        let rest = descendant.rawValue.dropFirst(rawValue == "/" ? 1 : rawValue.count + 1)
        return rest.split(separator: "/", maxSplits: 1).first.map(String.init)
    }
}

/// Checks of bus, interface, member and error names, done in Swift before they reach libdbus
/// (which aborts on an invalid one).
enum NameRules {
    static func isValidInterface(_ name: String) -> Bool {
        !name.utf8.contains(0) && dbus_validate_interface(name, nil) != 0
    }

    static func isValidMember(_ name: String) -> Bool {
        !name.utf8.contains(0) && dbus_validate_member(name, nil) != 0
    }

    static func isValidBusName(_ name: String) -> Bool {
        !name.utf8.contains(0) && dbus_validate_bus_name(name, nil) != 0
    }

    static func isValidErrorName(_ name: String) -> Bool {
        !name.utf8.contains(0) && dbus_validate_error_name(name, nil) != 0
    }

    static func requireInterface(_ name: String) throws {
        guard isValidInterface(name) else { throw DBusInvalidName(kind: "interface", name: name) }
    }

    static func requireMember(_ name: String) throws {
        guard isValidMember(name) else { throw DBusInvalidName(kind: "member", name: name) }
    }

    static func requireBusName(_ name: String) throws {
        guard isValidBusName(name) else { throw DBusInvalidName(kind: "bus", name: name) }
    }

    static func requirePath(_ path: DBusObjectPath) throws {
        guard path.isValid else { throw DBusInvalidName(kind: "object path", name: path.rawValue) }
    }
}
