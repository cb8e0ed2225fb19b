import AquavateProtocol

/// The `char` of a capture event: one of the bottle's characteristics, or any other
/// characteristic by its full UUID (docs/design.md 3.3).
package enum CharacteristicRef: Sendable, Hashable, CustomStringConvertible {
    case known(Characteristic)
    /// A full 128-bit UUID, lower case, of a characteristic the bridge has no name for.
    case uuid(String)

    /// Reads a `char` field: a capture name (`drink-data`) or a full UUID in either case.
    /// A UUID of a known characteristic becomes `.known`; anything else is nil.
    package init?(captureText text: String) {
        if let known = Characteristic(nameOrUUID: text) {
            self = .known(known)
        } else if Self.isFullUUID(text) {
            self = .uuid(text.lowercased())
        } else {
            return nil
        }
    }

    /// The text written in the `char` field.
    package var captureText: String {
        switch self {
        case .known(let characteristic): return characteristic.captureName
        case .uuid(let uuid): return uuid
        }
    }

    package var description: String { captureText }

    /// `8-4-4-4-12` hex digits.
    static func isFullUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != UInt8(ascii: "-") { return false }
            } else if !isHexDigit(byte) {
                return false
            }
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
