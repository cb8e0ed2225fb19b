// Drink Data chunk (…0004), notify / read (docs/protocol.md 3.5, 4.4):
//   u16 chunk_index | u16 total_chunks | u8 record_count | u8 reserved | record_count × 14-byte records
//
// Length rules: reject fewer than 6 bytes; reject fewer than 6 + 14 × record_count (what MTU
// truncation produces, TV14/TV17); ignore extra trailing bytes, but report how many there were.
//
// This decoder is the one on the hot path of sync and replay, so it reads records straight from
// the buffer with unaligned little-endian loads into a pre-sized array: no per-record slices,
// no intermediate arrays.

public struct DrinkDataChunk: WireValue, Hashable {
    public static let structureName = "Drink Data chunk"
    public static let headerByteCount = 6
    /// `record_count` is one byte.
    public static let maxRecordCount = 255

    public var chunkIndex: UInt16
    public var totalChunks: UInt16
    /// Byte 5; 0 from every known firmware, kept so a chunk re-encodes exactly.
    public var reserved: UInt8
    /// Oldest first.
    public var records: [DrinkRecord]
    /// Bytes after the declared records that the decoder ignored (3.5); never encoded, but part of
    /// equality, so compare `records` when only the content matters.
    public var trailingByteCount: Int

    public init(chunkIndex: UInt16, totalChunks: UInt16, records: [DrinkRecord], reserved: UInt8 = 0,
                trailingByteCount: Int = 0) {
        self.chunkIndex = chunkIndex
        self.totalChunks = totalChunks
        self.records = records
        self.reserved = reserved
        self.trailingByteCount = trailingByteCount
    }

    /// The bottle's boot value, six zero bytes: "no chunk" (TV16).
    public static let placeholder = DrinkDataChunk(chunkIndex: 0, totalChunks: 0, records: [])

    /// The boot placeholder (total 0, no records): not a chunk, never ACK it (TV16).
    public var isPlaceholder: Bool { totalChunks == 0 && records.isEmpty }

    /// The last chunk of its sync (chunk_index + 1 ≥ total_chunks): ACK it too, then the sync is done.
    public var isLast: Bool { Int(chunkIndex) + 1 >= Int(totalChunks) }

    /// Wire length: 6 + 14 × records.
    public var byteCount: Int { ChunkSizing.chunkByteCount(records: records.count) }

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        let result = bytes.withUnsafeBytes { Self.decode($0) }
        self = try result.get()
    }

    /// Decodes straight from memory, e.g. a slice of a capture buffer, without copying it first.
    public init(decoding raw: UnsafeRawBufferPointer) throws(ProtocolError) {
        self = try Self.decode(raw).get()
    }

    public func encoded() -> [UInt8] {
        precondition(records.count <= Self.maxRecordCount,
                     "a Drink Data chunk carries at most 255 records, got \(records.count)")
        var writer = WireWriter(capacity: byteCount)
        writer.u16(chunkIndex)
        writer.u16(totalChunks)
        writer.u8(UInt8(records.count))
        writer.u8(reserved)
        for record in records { record.write(to: &writer) }
        return writer.bytes
    }

    // MARK: Fast path

    /// A validated chunk header: the declared records are all present in the payload.
    public struct Header: Sendable, Hashable {
        public var chunkIndex: UInt16
        public var totalChunks: UInt16
        public var recordCount: Int
        public var reserved: UInt8
        /// Bytes after the declared records.
        public var trailingByteCount: Int

        public init(chunkIndex: UInt16, totalChunks: UInt16, recordCount: Int, reserved: UInt8, trailingByteCount: Int) {
            self.chunkIndex = chunkIndex
            self.totalChunks = totalChunks
            self.recordCount = recordCount
            self.reserved = reserved
            self.trailingByteCount = trailingByteCount
        }
    }

    /// Validates one chunk and appends its records to `records`, without building a chunk value:
    /// the fastest way to collect the records of many chunks (replay, benchmarks). On error nothing
    /// is appended.
    @discardableResult
    public static func decodeRecords(_ raw: UnsafeRawBufferPointer,
                                     into records: inout [DrinkRecord]) throws(ProtocolError) -> Header {
        let header = try validatedHeader(raw).get()
        // Grow geometrically (reserving the exact size on every call would copy the array each
        // time), then fill the new slots in place rather than appending one by one.
        let start = records.count
        let needed = start + header.recordCount
        if records.capacity < needed { records.reserveCapacity(max(needed, 2 * records.capacity)) }
        records.append(contentsOf: repeatElement(Self.blankRecord, count: header.recordCount))
        records.withUnsafeMutableBufferPointer { buffer in
            var offset = headerByteCount
            for index in start..<needed {
                buffer[index] = DrinkRecord(unchecked: raw, at: offset)
                offset += DrinkRecord.byteCount
            }
        }
        return header
    }

    private static let blankRecord = DrinkRecord(recordID: 0, timestamp: 0, amountML: 0, bottleLevelML: 0,
                                                 typeRaw: 0, flagsRaw: 0)

    /// `decodeRecords` for a byte array.
    @discardableResult
    public static func decodeRecords(_ bytes: [UInt8],
                                     into records: inout [DrinkRecord]) throws(ProtocolError) -> Header {
        let result = bytes.withUnsafeBytes { raw -> Result<Header, ProtocolError> in
            do throws(ProtocolError) { return .success(try decodeRecords(raw, into: &records)) }
            catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Reads and checks the header against the payload length (3.5).
    public static func validatedHeader(_ raw: UnsafeRawBufferPointer) -> Result<Header, ProtocolError> {
        guard raw.count >= headerByteCount else {
            return .failure(.wrongLength(structure: structureName, expected: "at least \(headerByteCount)",
                                         actual: raw.count))
        }
        let recordCount = Int(raw[4])
        let needed = ChunkSizing.chunkByteCount(records: recordCount)
        guard raw.count >= needed else {
            return .failure(.truncatedChunk(declaredRecords: recordCount, neededBytes: needed, actualBytes: raw.count))
        }
        return .success(Header(
            chunkIndex: UInt16(raw[0]) | UInt16(raw[1]) << 8,
            totalChunks: UInt16(raw[2]) | UInt16(raw[3]) << 8,
            recordCount: recordCount,
            reserved: raw[5],
            trailingByteCount: raw.count - needed))
    }

    private static func decode(_ raw: UnsafeRawBufferPointer) -> Result<DrinkDataChunk, ProtocolError> {
        let header: Header
        switch validatedHeader(raw) {
        case .success(let valid): header = valid
        case .failure(let error): return .failure(error)
        }
        let records = [DrinkRecord](unsafeUninitializedCapacity: header.recordCount) { buffer, initialized in
            var offset = headerByteCount
            for index in 0..<header.recordCount {
                buffer.initializeElement(at: index, to: DrinkRecord(unchecked: raw, at: offset))
                offset += DrinkRecord.byteCount
            }
            initialized = header.recordCount
        }
        return .success(DrinkDataChunk(chunkIndex: header.chunkIndex, totalChunks: header.totalChunks,
                                       records: records, reserved: header.reserved,
                                       trailingByteCount: header.trailingByteCount))
    }
}
