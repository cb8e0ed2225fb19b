// Drink Data chunks, docs/protocol.md 3.5 and 4.4, vectors TV13–TV17.

import AquavateProtocol
import Testing

@Suite("Drink Data chunk (TV13–TV17)")
struct DrinkDataChunkTests {
    static let tv13 = "00 00 01 00 02 00 " + Vectors.record42 + " " + Vectors.record44

    @Test("TV13: valid two-record chunk, the last one")
    func validChunk() throws {
        let bytes = try hex(Self.tv13)
        #expect(bytes.count == 34)
        let chunk = try DrinkDataChunk(decoding: bytes)
        #expect(chunk.chunkIndex == 0)
        #expect(chunk.totalChunks == 1)
        #expect(chunk.records.count == 2)
        #expect(chunk.records[0] == (try DrinkRecord(decoding: hex(Vectors.record42))))
        let second = chunk.records[1]
        #expect(second.recordID == 44)
        #expect(second.timestamp == 1_737_550_000)
        #expect(second.amountML == 35)
        #expect(second.bottleLevelML == 565)
        #expect(second.kind == .gulp)
        #expect(chunk.isLast)
        #expect(!chunk.isPlaceholder)
        #expect(chunk.trailingByteCount == 0)
        #expect(chunk.byteCount == 34)
        #expect(chunk.encoded() == bytes)
    }

    @Test("TV14: record_count larger than the payload is rejected")
    func countLargerThanPayload() throws {
        let bytes = try hex("01 00 03 00 03 00 " + Vectors.record42 + " " + Vectors.record44)
        #expect(bytes.count == 34)
        let error = #expect(throws: ProtocolError.self) { try DrinkDataChunk(decoding: bytes) }
        #expect(error == .truncatedChunk(declaredRecords: 3, neededBytes: 48, actualBytes: 34))
    }

    @Test("TV15: shorter than the header is rejected")
    func shorterThanHeader() throws {
        let bytes = try hex("00 00 01 00 02")
        let error = #expect(throws: ProtocolError.self) { try DrinkDataChunk(decoding: bytes) }
        #expect(error == .wrongLength(structure: "Drink Data chunk", expected: "at least 6", actual: 5))
        #expect(error?.description == "Drink Data chunk must be at least 6 bytes, got 5")
    }

    @Test("TV16: the boot placeholder decodes and means no chunk")
    func bootPlaceholder() throws {
        let bytes = try hex("00 00 00 00 00 00")
        let chunk = try DrinkDataChunk(decoding: bytes)
        #expect(chunk.totalChunks == 0)
        #expect(chunk.records.isEmpty)
        #expect(chunk.isPlaceholder)
        #expect(chunk == .placeholder)
        #expect(chunk.encoded() == bytes)
    }

    @Test("TV17: a 20-record chunk cut to 244 bytes by MTU 247 is rejected")
    func mtuTruncation() throws {
        let full = try hex("00 00 01 00 14 00" + String(repeating: " " + Vectors.record42, count: 20))
        #expect(full.count == 286)
        #expect(try DrinkDataChunk(decoding: full).records.count == 20)
        let delivered = Array(full.prefix(ChunkSizing.maxNotificationPayload(mtu: 247)))
        #expect(delivered.count == 244)
        let error = #expect(throws: ProtocolError.self) { try DrinkDataChunk(decoding: delivered) }
        #expect(error == .truncatedChunk(declaredRecords: 20, neededBytes: 286, actualBytes: 244))
    }

    @Test("TV17: a 17-record chunk is exactly 244 bytes and valid at MTU 247")
    func seventeenRecordsFit() throws {
        let bytes = try hex("00 00 03 00 11 00" + String(repeating: " " + Vectors.record42, count: 17))
        #expect(bytes.count == 244)
        let chunk = try DrinkDataChunk(decoding: bytes)
        #expect(chunk.chunkIndex == 0 && chunk.totalChunks == 3)
        #expect(chunk.records.count == 17)
        #expect(!chunk.isLast)
        #expect(chunk.encoded() == bytes)
    }

    @Test("Extra trailing bytes are ignored but counted (3.5)")
    func trailingBytes() throws {
        let bytes = try hex(Self.tv13 + " AA BB CC")
        let chunk = try DrinkDataChunk(decoding: bytes)
        #expect(chunk.records.count == 2)
        #expect(chunk.trailingByteCount == 3)
        #expect(chunk.encoded() == Array(bytes.prefix(34)))
    }

    @Test("Every length below 6 + 14 × declared is rejected", arguments: [1, 2, 3, 17, 20, 255])
    func everyShortLength(declared: Int) throws {
        var bytes: [UInt8] = [0, 0, 1, 0, UInt8(declared), 0]
        bytes += Array(repeating: 0x5A, count: 14 * declared)
        for length in 6..<bytes.count {
            #expect(throws: ProtocolError.truncatedChunk(declaredRecords: declared, neededBytes: bytes.count,
                                                         actualBytes: length)) {
                try DrinkDataChunk(decoding: Array(bytes.prefix(length)))
            }
        }
        #expect(try DrinkDataChunk(decoding: bytes).records.count == declared)
    }

    @Test("isLast follows chunk_index + 1 >= total_chunks")
    func isLast() {
        let cases: [(UInt16, UInt16, Bool)] = [(0, 1, true), (0, 3, false), (1, 3, false), (2, 3, true),
                                               (5, 3, true), (0, 0, true), (65535, 65535, true)]
        for (index, total, last) in cases {
            #expect(DrinkDataChunk(chunkIndex: index, totalChunks: total, records: []).isLast == last)
        }
    }

    @Test("The reserved byte is kept for an exact re-encode")
    func reservedByte() throws {
        let bytes = try hex("02 00 03 00 01 7E " + Vectors.record42)
        let chunk = try DrinkDataChunk(decoding: bytes)
        #expect(chunk.reserved == 0x7E)
        #expect(chunk.encoded() == bytes)
    }

    @Test("decodeRecords appends chunk after chunk and appends nothing on error")
    func fastPath() throws {
        var records: [DrinkRecord] = []
        let first = try DrinkDataChunk.decodeRecords(hex(Self.tv13), into: &records)
        #expect(first == DrinkDataChunk.Header(chunkIndex: 0, totalChunks: 1, recordCount: 2, reserved: 0,
                                               trailingByteCount: 0))
        try DrinkDataChunk.decodeRecords(hex("01 00 02 00 01 00 " + Vectors.record44 + " 00"), into: &records)
        #expect(records.map(\.recordID) == [42, 44, 44])
        let truncated = try hex("01 00 03 00 03 00 " + Vectors.record42)
        #expect(throws: ProtocolError.self) { try DrinkDataChunk.decodeRecords(truncated, into: &records) }
        #expect(records.count == 3)
    }

    @Test("Decoding from raw memory matches decoding from an array")
    func rawBuffer() throws {
        let bytes = try hex("FF " + Self.tv13 + " 01")
        let fromArray = try DrinkDataChunk(decoding: Array(bytes[1...]))
        let fromRaw = try bytes.withUnsafeBytes { raw in
            try DrinkDataChunk(decoding: UnsafeRawBufferPointer(rebasing: raw[1...]))
        }
        #expect(fromRaw == fromArray)
        #expect(fromRaw.trailingByteCount == 1)
    }
}
