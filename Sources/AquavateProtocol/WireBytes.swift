// Little-endian reading and writing (docs/protocol.md 0: every integer is LE, every structure packed).
//
// Readers index a `[UInt8]` whose length the caller has already checked, so they stay bounds-
// checked but never fail in practice. The drink-data hot path does not use them: it loads
// straight from the buffer (see DrinkDataChunk).

extension Array where Element == UInt8 {
    func u16LE(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    func i16LE(at offset: Int) -> Int16 {
        Int16(bitPattern: u16LE(at: offset))
    }

    func u32LE(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8
            | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }

    func i32LE(at offset: Int) -> Int32 {
        Int32(bitPattern: u32LE(at: offset))
    }

    func f32LE(at offset: Int) -> Float {
        Float(bitPattern: u32LE(at: offset))
    }
}

/// Appends little-endian fields to a byte array of known final size.
struct WireWriter {
    private(set) var bytes: [UInt8]

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func i16(_ value: Int16) { u16(UInt16(bitPattern: value)) }

    mutating func u32(_ value: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value >> 16))
        bytes.append(UInt8(truncatingIfNeeded: value >> 24))
    }

    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }

    /// Writes the float's exact bit pattern, so NaN payloads and -0.0 survive a round trip.
    mutating func f32(_ value: Float) { u32(value.bitPattern) }
}

extension Sequence where Element == UInt8 {
    /// The bytes as lower-case hex, two digits each and nothing between ("10b0e890"): how the
    /// history, the household's messages and the JSON events write raw records, digests and marks.
    package var lowercaseHex: String {
        let digits: [Character] = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }
}

/// Hex formatting for error messages and logs: "10 B0 E8 90".
public enum Hex {
    public static func format(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789ABCDEF")
        var text = ""
        text.reserveCapacity(bytes.count * 3)
        for (index, byte) in bytes.enumerated() {
            if index > 0 { text.append(" ") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return text
    }

    /// Parses hex written the way docs/protocol-vectors.md writes it ("B0 E8 90 67", spaces optional).
    /// Returns nil on an odd digit count or a non-hex character.
    public static func parse(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var high: UInt8?
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" || scalar == "\n" { continue }
            guard let nibble = nibbleValue(scalar) else { return nil }
            if let pending = high {
                bytes.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }

    private static func nibbleValue(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar.value {
        case 0x30...0x39: return UInt8(scalar.value - 0x30)
        case 0x41...0x46: return UInt8(scalar.value - 0x41 + 10)
        case 0x61...0x66: return UInt8(scalar.value - 0x61 + 10)
        default: return nil
        }
    }
}
