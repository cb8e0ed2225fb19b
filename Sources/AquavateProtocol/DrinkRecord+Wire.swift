// Drink Record wire format, 14 bytes (docs/protocol.md 3.4):
//   u32 record_id | u32 timestamp | i16 amount_ml | u16→i16 bottle_level_ml | u8 type | u8 flags
// Note the order type-then-flags (the flash layout differs; it never crosses the air).

extension DrinkRecord: WireValue {
    public static let structureName = "Drink Record"

    /// Decodes exactly 14 bytes.
    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        try Self.requireLength(bytes, exactly: Self.byteCount)
        self = bytes.withUnsafeBytes { DrinkRecord(unchecked: $0, at: 0) }
    }

    /// Reads a record at `offset` without a bounds check; the caller guarantees
    /// `offset + 14 <= raw.count`. This is the drink-data hot path: unaligned loads, no copies.
    @inline(__always)
    init(unchecked raw: UnsafeRawBufferPointer, at offset: Int) {
        self.init(
            recordID: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
            timestamp: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)),
            amountML: Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 8, as: Int16.self)),
            bottleLevelML: Int16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 10, as: Int16.self)),
            typeRaw: raw[offset + 12],
            flagsRaw: raw[offset + 13])
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: Self.byteCount)
        write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout WireWriter) {
        writer.u32(recordID)
        writer.u32(timestamp)
        writer.i16(amountML)
        writer.i16(bottleLevelML)
        writer.u8(typeRaw)
        writer.u8(flagsRaw)
    }

    /// `bottle_level_ml` as the bytes carry it (u16); prefer `bottleLevelML`, the i16 reading (B11).
    public var bottleLevelRawU16: UInt16 { UInt16(bitPattern: bottleLevelML) }
}
