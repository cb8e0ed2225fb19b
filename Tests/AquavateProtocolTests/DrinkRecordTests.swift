// Drink Record, docs/protocol.md 3.4, vectors TV8–TV12.

import AquavateProtocol
import Testing

@Suite("Drink Record (TV8–TV12)")
struct DrinkRecordTests {
    @Test("TV8: ordinary pour")
    func ordinaryPour() throws {
        let bytes = try hex(Vectors.record42)
        let record = try DrinkRecord(decoding: bytes)
        #expect(record.recordID == 42)
        #expect(record.timestamp == 1_737_549_000)
        #expect(utc(record.timestamp) == "2025-01-22T12:30:00Z")
        #expect(record.amountML == 150)
        #expect(record.bottleLevelML == 600)
        #expect(record.typeRaw == 1 && record.kind == .pour)
        #expect(record.flagsRaw == 0 && record.flags.isEmpty)
        #expect(record.isIntake && !record.isDeleted)
        #expect(record.encoded() == bytes)
    }

    @Test("TV9: refill has a negative amount and is not intake")
    func refill() throws {
        let bytes = try hex("2B 00 00 00 20 E7 90 67 06 FF 3E 03 00 00")
        let record = try DrinkRecord(decoding: bytes)
        #expect(record.recordID == 43)
        #expect(record.timestamp == 1_737_549_600)
        #expect(utc(record.timestamp) == "2025-01-22T12:40:00Z")
        #expect(record.amountML == -250)
        #expect(record.bottleLevelML == 830)
        #expect(record.kind == .gulp && record.typeRaw == 0)
        #expect(record.flagsRaw == 0)
        #expect(!record.isIntake)
        #expect(record.encoded() == bytes)
    }

    @Test("TV10: synced and deleted record is a tombstone")
    func syncedAndDeleted() throws {
        let bytes = try hex("07 00 00 00 60 25 90 67 2D 00 2C 01 00 05")
        let record = try DrinkRecord(decoding: bytes)
        #expect(record.recordID == 7)
        #expect(record.timestamp == 1_737_500_000)
        #expect(utc(record.timestamp) == "2025-01-21T22:53:20Z")
        #expect(record.amountML == 45)
        #expect(record.bottleLevelML == 300)
        #expect(record.kind == .gulp)
        #expect(record.flags == [.synced, .deleted])
        #expect(record.isDeleted && !record.isIntake)
        #expect(record.encoded() == bytes)
    }

    @Test("TV11: all bytes at maximum")
    func maxima() throws {
        let bytes = try hex("FF FF FF FF FF FF FF FF FF 7F FF FF FF FF")
        let record = try DrinkRecord(decoding: bytes)
        #expect(record.recordID == 4_294_967_295)
        #expect(record.timestamp == 4_294_967_295)
        #expect(utc(record.timestamp) == "2106-02-07T06:28:15Z")
        #expect(record.amountML == 32767)
        #expect(record.bottleLevelML == -1)
        #expect(record.bottleLevelRawU16 == 0xFFFF)
        #expect(record.typeRaw == 255 && record.kind == .gulp)
        #expect(record.flagsRaw == 0xFF)
        #expect(record.flags.isSuperset(of: [.synced, .dayBoundary, .deleted]))
        #expect(record.isDeleted)
        #expect(record.encoded() == bytes)
    }

    @Test("TV12: minimum amount, negative level, last second of the day")
    func minimumAndNegativeLevel() throws {
        let bytes = try hex("01 00 00 00 7F 86 91 67 00 80 FC FF 00 00")
        let record = try DrinkRecord(decoding: bytes)
        #expect(record.recordID == 1)
        #expect(record.timestamp == 1_737_590_399)
        #expect(utc(record.timestamp) == "2025-01-22T23:59:59Z")
        #expect(utc(record.timestamp + 1) == "2025-01-23T00:00:00Z")
        #expect(record.timestamp / 86_400 != (record.timestamp + 1) / 86_400)
        #expect(record.amountML == -32768)
        #expect(record.bottleLevelML == -4)
        #expect(record.bottleLevelRawU16 == 65532)
        #expect(!record.isIntake)
        #expect(record.encoded() == bytes)
    }

    @Test("Wrong lengths are rejected", arguments: [0, 1, 13, 15, 28])
    func wrongLength(length: Int) throws {
        let bytes = Array(try hex(Vectors.record42 + " " + Vectors.record42).prefix(length))
        #expect(throws: ProtocolError.wrongLength(structure: "Drink Record", expected: "exactly 14", actual: length)) {
            try DrinkRecord(decoding: bytes)
        }
    }
}
