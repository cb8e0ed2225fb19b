// Sync Control, docs/protocol.md 3.3 and 4.3, vectors TV18–TV21.

import AquavateProtocol
import Testing

@Suite("Sync Control (TV18–TV21)")
struct SyncControlTests {
    @Test("TV18: START as the bridge sends it")
    func bridgeStart() throws {
        let bytes = try hex("00 00 05 00 01 00 11 00")
        let value = try SyncControl(decoding: bytes)
        #expect(value.startIndex == 0)
        #expect(value.count == 5)
        #expect(value.command == .start)
        #expect(value.status == .idle)
        #expect(value.chunkSize == 17)
        #expect(value.encoded() == bytes)
        #expect(SyncControl.start(count: 5, chunkSize: ChunkSizing.recordsPerChunk(mtu: 247)).encoded() == bytes)
    }

    @Test("TV19: START as iOS sends it")
    func iosStart() throws {
        let bytes = try hex("00 00 19 00 01 00 14 00")
        let value = try SyncControl(decoding: bytes)
        #expect(value.count == 25)
        #expect(value.command == .start)
        #expect(value.chunkSize == 20)
        #expect(value.effectiveChunkSize == 20)
        #expect(value.encoded() == bytes)
    }

    @Test("TV20: chunk sizes 0 and 300 run as 20", arguments: ["00 00 07 00 01 00 00 00", "00 00 07 00 01 00 2C 01"])
    func chunkSizeClamping(text: String) throws {
        let bytes = try hex(text)
        let value = try SyncControl(decoding: bytes)
        #expect(value.count == 7)
        #expect(value.command == .start)
        #expect(value.effectiveChunkSize == 20)
        #expect(value.encoded() == bytes)
    }

    @Test("TV20: the read after START")
    func readAfterStart() throws {
        let bytes = try hex("00 00 07 00 00 01 14 00")
        let value = try SyncControl(decoding: bytes)
        #expect(value.count == 7)
        #expect(value.command == .query)
        #expect(value.status == .inProgress)
        #expect(value.chunkSize == 20)
        #expect(SyncControl.readValue(unsyncedCount: 7, status: .inProgress, chunkSize: 20) == value)
        #expect(value.encoded() == bytes)
    }

    @Test("TV21: ACK and QUERY")
    func ackAndQuery() throws {
        let ack = try hex("00 00 00 00 02 00 00 00")
        let query = try hex("00 00 00 00 00 00 00 00")
        #expect(SyncControl.ack.encoded() == ack)
        #expect(SyncControl.query.encoded() == query)
        #expect(try SyncControl(decoding: ack) == .ack)
        #expect(try SyncControl(decoding: query) == .query)
    }

    @Test("TV21: a 7-byte write is rejected")
    func sevenBytes() throws {
        let bytes = try hex("00 00 00 00 02 00 00")
        #expect(throws: ProtocolError.wrongLength(structure: "Sync Control", expected: "exactly 8", actual: 7)) {
            try SyncControl(decoding: bytes)
        }
        #expect(throws: ProtocolError.wrongLength(structure: "Sync Control", expected: "exactly 8", actual: 9)) {
            try SyncControl(decoding: bytes + [0, 0])
        }
    }

    @Test("START clamps count to 600 (B15) and chunk size to 1…20")
    func startClamps() {
        #expect(SyncControl.start(count: 5000, chunkSize: 17).count == 600)
        #expect(SyncControl.start(count: -3, chunkSize: 17).count == 0)
        #expect(SyncControl.start(count: 10, chunkSize: 0).chunkSize == 1)
        #expect(SyncControl.start(count: 10, chunkSize: 300).chunkSize == 20)
    }

    @Test("Unknown command and status bytes are kept")
    func unknownBytes() throws {
        let bytes = try hex("01 00 02 00 07 09 03 00")
        let value = try SyncControl(decoding: bytes)
        #expect(value.startIndex == 1)
        #expect(value.command == .unknown(7))
        #expect(value.status == .unknown(9))
        #expect(SyncStatus(rawValue: 2) == .complete)
        #expect(value.encoded() == bytes)
    }
}
