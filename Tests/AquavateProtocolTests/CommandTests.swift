// Command characteristic, docs/protocol.md 3.6 and section 6, vectors TV22–TV25.

import AquavateProtocol
import Testing

@Suite("Command (TV22–TV25)")
struct CommandTests {
    @Test("TV22: SET_TIME is 5 bytes; 4 and 6 bytes are ignored")
    func setTime() throws {
        let bytes = try hex("10 B0 E8 90 67")
        #expect(Command.parse(bytes) == .setTime(1_737_550_000))
        #expect(Command.setTime(1_737_550_000).encoded() == bytes)
        #expect(Command.parse(try hex("10 B0 E8 90")) == nil)
        #expect(Command.parse(try hex("10 B0 E8 90 67 00")) == nil)
        let error = #expect(throws: ProtocolError.self) { try Command(decoding: hex("10 B0 E8 90")) }
        #expect(error == .ignoredCommand(bytes: [0x10, 0xB0, 0xE8, 0x90]))
        #expect(error?.description.hasPrefix("Command [10 B0 E8 90] (4 bytes) is not one the bottle acts on") == true)
    }

    @Test("TV23: DELETE_DRINK_RECORD")
    func deleteRecord() throws {
        #expect(Command.parse(try hex("12 2A 00 00 00")) == .deleteDrinkRecord(42))
        #expect(Command.parse(try hex("12 04 03 02 01")) == .deleteDrinkRecord(16_909_060))
        #expect(Command.deleteDrinkRecord(16_909_060).encoded() == (try hex("12 04 03 02 01")))
    }

    @Test("TV24: CAL_SET_DATA accepted, swapped points dispatched but not accepted")
    func calSetData() throws {
        let bytes = try hex("04 A0 86 01 00 8C 95 06 00 E4 B2 C7 43")
        let command = try #require(Command.parse(bytes))
        guard case let .calSetData(empty, full, scale) = command else {
            Issue.record("expected CAL_SET_DATA, got \(command)")
            return
        }
        #expect(empty == 100_000)
        #expect(full == 431_500)
        #expect(scale.bitPattern == 0x43C7_B2E4)
        #expect(abs(scale - 399.39758) < 0.0001)
        #expect(command.isAcceptedByBottle)
        #expect(command.encoded() == bytes)
        #expect(Command.calSetData(CalibrationPoints(emptyADC: 100_000, fullADC: 431_500)).encoded() == bytes)

        let swapped = try #require(Command.parse(try hex("04 8C 95 06 00 A0 86 01 00 E4 B2 C7 43")))
        #expect(swapped == .calSetData(emptyADC: 431_500, fullADC: 100_000, scale: scale))
        #expect(!swapped.isAcceptedByBottle)
        #expect(!Command.calSetData(emptyADC: 1, fullADC: 2, scale: 0).isAcceptedByBottle)
        #expect(!Command.calSetData(emptyADC: 1, fullADC: 2, scale: .nan).isAcceptedByBottle)
    }

    @Test("TV25: 4-byte commands and the 3-byte SET_DAILY_TOTAL")
    func fourByteCommands() throws {
        #expect(Command.parse(try hex("02 00 00 00")) == .ping)
        #expect(Command.parse(try hex("31 01 00 00")) == .getMotionChunk(1))
        #expect(Command.parse(try hex("20 00 00 00")) == .startCalibration)
        #expect(Command.parse(try hex("11 E8 03")) == .setDailyTotal(1000))
        #expect(Command.ping.encoded() == (try hex("02 00 00 00")))
        #expect(Command.getMotionChunk(1).encoded() == (try hex("31 01 00 00")))
        #expect(Command.startCalibration.encoded() == (try hex("20 00 00 00")))
        #expect(Command.setDailyTotal(1000).encoded() == (try hex("11 E8 03")))
    }

    static let table: [(Command, String)] = [
        (.setTime(0), "10 00 00 00 00"),
        (.setDailyTotal(65535), "11 FF FF"),
        (.calSetData(emptyADC: -1, fullADC: .max, scale: 1.0), "04 FF FF FF FF FF FF FF 7F 00 00 80 3F"),
        (.deleteDrinkRecord(.max), "12 FF FF FF FF"),
        (.tareNow, "01 00 00 00"),
        (.ping, "02 00 00 00"),
        (.calMeasurePoint(0), "03 00 00 00"),
        (.calMeasurePoint(1), "03 01 00 00"),
        (.resetDaily, "05 00 00 00"),
        (.clearHistory, "06 00 00 00"),
        (.startCalibration, "20 00 00 00"),
        (.cancelCalibration, "21 00 00 00"),
        (.getActivitySummary, "30 00 00 00"),
        (.getMotionChunk(9), "31 09 00 00"),
        (.getBackpackChunk(3), "32 03 00 00"),
    ]

    @Test("Every command encodes as section 3.6 says and parses back")
    func everyCommand() throws {
        for (command, text) in Self.table {
            let bytes = try hex(text)
            #expect(command.encoded() == bytes, "\(command)")
            #expect(Command.parse(bytes) == command, "\(text)")
            #expect(try Command(decoding: bytes) == command)
            #expect(command.code == bytes[0])
        }
    }

    @Test("Exactly ten codes are dispatched in 4-byte form; 0x04, 0x10, 0x11, 0x12 are not")
    func fourByteDispatch() {
        let dispatched = (0...255).filter { Command.parse([UInt8($0), 0, 0, 0]) != nil }
        #expect(dispatched == [0x01, 0x02, 0x03, 0x05, 0x06, 0x20, 0x21, 0x30, 0x31, 0x32])
    }

    @Test("Only the documented lengths dispatch, and only with their codes")
    func lengthFirstDispatch() {
        for length in 1...20 where length != 4 {
            let codes = (0...255).filter { Command.parse([UInt8($0)] + Array(repeating: 0, count: length - 1)) != nil }
            switch length {
            case 3: #expect(codes == [0x11])
            case 5: #expect(codes == [0x10, 0x12])
            case 13: #expect(codes == [0x04])
            default: #expect(codes.isEmpty, "length \(length)")
            }
        }
        #expect(Command.parse([]) == nil)
    }

    @Test("param2 (and param1 where unused) is ignored, as the bottle ignores it")
    func unusedParameters() {
        #expect(Command.parse([0x02, 0x07, 0x05, 0x00]) == .ping)
        #expect(Command.parse([0x31, 0x02, 0xFF, 0xFF]) == .getMotionChunk(2))
    }

    @Test("Activity rule: every Command write except a valid SET_TIME (1.4)")
    func activity() throws {
        #expect(!Command.countsAsActivity(try hex("10 B0 E8 90 67")))
        #expect(Command.countsAsActivity(try hex("10 B0 E8 90")))
        #expect(Command.countsAsActivity(try hex("FF")))
        #expect(Command.countsAsActivity(try hex("02 00 00 00")))
        #expect(Command.countsAsActivity(try hex("11 E8 03")))
        #expect(!Command.setTime(5).countsAsActivity)
    }
}
