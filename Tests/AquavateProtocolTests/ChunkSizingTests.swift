// Chunk arithmetic, docs/protocol.md 4.3–4.4; TV17, TV20 and the arithmetic of TV31/TV32.

import AquavateProtocol
import Testing

@Suite("Chunk sizing (4.4, TV20, TV31, TV32)")
struct ChunkSizingTests {
    @Test("Records per chunk from the MTU (4.4 table)",
          arguments: [(Int?.none, 1), (23, 1), (185, 12), (247, 17), (517, 17), (0, 1), (36, 1), (37, 2), (251, 17)])
    func recordsPerChunk(mtu: Int?, expected: Int) {
        #expect(ChunkSizing.recordsPerChunk(mtu: mtu) == expected)
    }

    @Test("The requested chunk always fits one notification", arguments: Array(23...600))
    func chunkFitsNotification(mtu: Int) {
        let records = ChunkSizing.recordsPerChunk(mtu: mtu)
        #expect(ChunkSizing.chunkByteCount(records: records) <= ChunkSizing.maxNotificationPayload(mtu: mtu))
        #expect(records == 17 || ChunkSizing.chunkByteCount(records: records + 1) > ChunkSizing.maxNotificationPayload(mtu: mtu))
    }

    @Test("Payload and chunk sizes (TV17)")
    func sizes() {
        #expect(ChunkSizing.maxNotificationPayload(mtu: 23) == 20)
        #expect(ChunkSizing.maxNotificationPayload(mtu: 247) == 244)
        #expect(ChunkSizing.chunkByteCount(records: 17) == 244)
        #expect(ChunkSizing.chunkByteCount(records: 20) == 286)
        #expect(ChunkSizing.chunkByteCount(records: 0) == 6)
        #expect(ChunkSizing.maxSyncCount == 600)
    }

    @Test("Effective chunk size: 1…20 kept, anything else 20 (TV20)",
          arguments: [(UInt16(0), 20), (1, 1), (17, 17), (20, 20), (21, 20), (300, 20), (65535, 20)])
    func effectiveChunkSize(requested: UInt16, expected: Int) {
        #expect(ChunkSizing.effectiveChunkSize(requested: requested) == expected)
    }

    @Test("Total chunks (TV20): 40→3, 18→2, 17→1, 0→0 at chunk size 17")
    func totalChunks() {
        #expect(ChunkSizing.totalChunks(records: 40, chunkSize: 17) == 3)
        #expect(ChunkSizing.totalChunks(records: 18, chunkSize: 17) == 2)
        #expect(ChunkSizing.totalChunks(records: 17, chunkSize: 17) == 1)
        #expect(ChunkSizing.totalChunks(records: 0, chunkSize: 17) == 0)
        #expect(ChunkSizing.totalChunks(records: 600, chunkSize: 1) == 600)
        #expect(ChunkSizing.totalChunks(records: 21, chunkSize: 0) == 2)
        #expect(ChunkSizing.totalChunks(records: 21, chunkSize: 300) == 2)
    }

    @Test("Records per chunk within a sync (TV20: 17 + 17 + 6)")
    func recordsInChunk() {
        let split = (0..<4).map { ChunkSizing.recordsInChunk(index: $0, records: 40, chunkSize: 17) }
        #expect(split == [17, 17, 6, 0])
        #expect(ChunkSizing.recordsInChunk(index: 0, records: 0, chunkSize: 17) == 0)
        #expect(ChunkSizing.recordsInChunk(index: -1, records: 5, chunkSize: 17) == 0)
    }

    @Test("Chunks add up for every record count and chunk size")
    func chunksAddUp() {
        for chunkSize in 1...20 {
            for records in 0...600 {
                let total = ChunkSizing.totalChunks(records: records, chunkSize: chunkSize)
                let sum = (0..<total).reduce(0) { $0 + ChunkSizing.recordsInChunk(index: $1, records: records, chunkSize: chunkSize) }
                #expect(sum == records)
                if total > 0 {
                    #expect(ChunkSizing.recordsInChunk(index: total - 1, records: records, chunkSize: chunkSize) > 0)
                }
            }
        }
    }

    @Test("TV31 arithmetic: 30 records at chunk size 17 are chunks of 17 and 13")
    func interruptedSyncArithmetic() {
        #expect(ChunkSizing.totalChunks(records: 30, chunkSize: 17) == 2)
        #expect(ChunkSizing.recordsInChunk(index: 0, records: 30, chunkSize: 17) == 17)
        #expect(ChunkSizing.recordsInChunk(index: 1, records: 30, chunkSize: 17) == 13)
        #expect(!DrinkDataChunk(chunkIndex: 0, totalChunks: 2, records: []).isLast)
        #expect(DrinkDataChunk(chunkIndex: 1, totalChunks: 2, records: []).isLast)
    }

    @Test("TV32 arithmetic: the wedge's chunk, empty START and Sync Control read")
    func wedgeArithmetic() throws {
        let record6 = DrinkRecord(recordID: 6, timestamp: 1_737_549_000, amountML: 100, bottleLevelML: 500,
                                  typeRaw: 1, flagsRaw: 0)
        let record7 = DrinkRecord(recordID: 7, timestamp: 1_737_549_100, amountML: 50, bottleLevelML: 450,
                                  typeRaw: 0, flagsRaw: 0)
        let sync1 = DrinkDataChunk(chunkIndex: 0, totalChunks: 1, records: [record6, record7])
        #expect(Array(sync1.encoded().prefix(6)) == (try hex("00 00 01 00 02 00")))
        #expect(sync1.isLast)
        // Sync 2: START count 1, but the only unsynced record is deleted: R = 0, no chunk at all.
        #expect(ChunkSizing.totalChunks(records: 0, chunkSize: 17) == 0)
        let read = try SyncControl(decoding: hex("00 00 01 00 00 01 11 00"))
        #expect(read.count == 1)
        #expect(read.status == .inProgress)
        #expect(read.chunkSize == 17)
        #expect(read == SyncControl.readValue(unsyncedCount: 1, status: .inProgress, chunkSize: 17))
    }
}
