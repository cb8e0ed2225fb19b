// Hex text of characteristic values, as `.aqcap` files carry them (docs/design.md 3.3):
// either case on input, lower case on output, no separators, an empty string is zero bytes.

enum Hex {
    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lower-case hex of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Why a text is not a value.
    enum Problem: Error, Equatable {
        case notHex
        case oddLength(Int)
    }

    /// The bytes of `text`, or why it is not strict hex.
    static func decode(_ text: String) -> Result<[UInt8], Problem> {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode($0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode($0) }
    }

    private static func decode(_ text: UnsafeBufferPointer<UInt8>) -> Result<[UInt8], Problem> {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.count / 2)
        var high: UInt8? = nil
        for character in text {
            guard let nibble = nibble(character) else { return .failure(.notHex) }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        if high != nil { return .failure(.oddLength(text.count)) }
        return .success(bytes)
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
