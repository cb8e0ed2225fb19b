/// Reads fixed-size fields from a byte array, never past its end: every read returns nil when
/// the bytes run out, so a short or corrupt packet can't crash the importer.
struct ByteCursor {
    private let bytes: [UInt8]
    private(set) var position: Int
    private let end: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
    }

    init(_ slice: ArraySlice<UInt8>) {
        self.init(Array(slice))
    }

    var remaining: Int { end - position }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16le() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    mutating func u32be() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { position += 4 }
        return (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[position + $1]) }
    }

    mutating func i64be() -> Int64? {
        guard remaining >= 8 else { return nil }
        defer { position += 8 }
        let raw = (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[position + $1]) }
        return Int64(bitPattern: raw)
    }

    mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func rest() -> [UInt8] {
        defer { position = end }
        return Array(bytes[position..<end])
    }
}

/// Bluetooth UUIDs as they travel in ATT PDUs (little-endian, 2 or 16 bytes), in the
/// lower-case 128-bit text form `Characteristic.uuid` uses.
enum BluetoothUUID {
    static func text(littleEndian bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 2:
            return text(uuid16: UInt16(bytes[0]) | UInt16(bytes[1]) << 8)
        case 16:
            let hex = Hex.encode(bytes.reversed())
            let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                         hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
            return parts.joined(separator: "-")
        default:
            return nil
        }
    }

    static func text(uuid16: UInt16) -> String {
        let hex = String(uuid16, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
    }

    /// The 16-bit form of a UUID given in 2 or 16 bytes, when it has one.
    static func uuid16(littleEndian bytes: [UInt8]) -> UInt16? {
        guard let text = text(littleEndian: bytes), text.hasPrefix("0000"),
              text.hasSuffix("-0000-1000-8000-00805f9b34fb") else { return nil }
        return UInt16(text.dropFirst(4).prefix(4), radix: 16)
    }
}
