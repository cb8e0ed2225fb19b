// The .aqcap text of docs/design.md 3.3: the header line and each event's line, byte for byte,
// with the document's field names in its order and hex in lower case.

import AquavateProtocol
import Testing
@testable import AquavateCapture
import Timekeeping

@Suite("aqcap text")
struct CaptureFormatTests {
    @Test("the header of docs/design.md 3.3, byte for byte")
    func headerLine() {
        let header = CaptureHeader(created: "2026-11-21T08:00:00Z", source: "aquavate-bridge 0.1.0",
                                   deviceName: "Aquavate-A3F2", deviceAddress: "F4:12:FA:00:A3:F4", mtu: 247)
        #expect(header.jsonLine() == #"{"aqcap":1,"created":"2026-11-21T08:00:00Z","source":"aquavate-bridge 0.1.0","device":{"name":"Aquavate-A3F2","address":"F4:12:FA:00:A3:F4"},"mtu":247}"#)
        #expect(CaptureHeader().jsonLine() == #"{"aqcap":1}"#)
        #expect(CaptureHeader(deviceAddress: "AA").jsonLine() == #"{"aqcap":1,"device":{"address":"AA"}}"#)
    }

    @Test("event lines use docs/design.md's field names, in its order, hex in lower case")
    func eventLines() {
        #expect(CaptureEvent.connect(at: WallInstant(secondsSince1970: 1_763_712_000.125)).jsonLine() == #"{"t":1763712000.125,"op":"connect"}"#)
        #expect(CaptureEvent.read(at: WallInstant(secondsSince1970: 1_763_712_000.31), .syncControl, value: [0, 0, 3, 0, 0, 0, 0x14, 0]).jsonLine()
            == #"{"t":1763712000.31,"op":"read","char":"sync-control","value":"0000030000001400"}"#)
        #expect(CaptureEvent.notify(at: WallInstant(secondsSince1970: 2), .uuid("0000abcd-0000-1000-8000-00805f9b34fb"), value: [0xAB, 0xCD]).jsonLine()
            == #"{"t":2.0,"op":"notify","char":"0000abcd-0000-1000-8000-00805f9b34fb","value":"abcd"}"#)
        #expect(CaptureEvent.disconnect(at: WallInstant(secondsSince1970: 1_763_712_031.9), reason: "timeout").jsonLine() == #"{"t":1763712031.9,"op":"disconnect","reason":"timeout"}"#)
        #expect(CaptureEvent.note(at: WallInstant(secondsSince1970: 3), "a \"b\"\n\u{1}").jsonLine() == #"{"t":3.0,"op":"note","text":"a \"b\"\n\u0001"}"#)
        #expect(CaptureEvent.log(at: WallInstant(secondsSince1970: 4), type: "vitamin-d").jsonLine() == #"{"t":4.0,"op":"log","type":"vitamin-d"}"#)
        #expect(CaptureEvent.action(at: WallInstant(secondsSince1970: 5), notificationID: "n1", action: "did-this").jsonLine() == #"{"t":5.0,"op":"action","id":"n1","action":"did-this"}"#)
    }

    @Test("hex: either case in, lower case out, empty is zero bytes")
    func hex() {
        #expect(Hex.encode([0x00, 0xAB, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == .success([0x00, 0xAB, 0xFF]))
        #expect(Hex.decode("") == .success([]))
        #expect(Hex.decode("abc") == .failure(.oddLength(3)))
        #expect(Hex.decode("0x12") == .failure(.notHex))
        #expect(Hex.decode("12 34") == .failure(.notHex))
        #expect(Hex.decode("é1") == .failure(.notHex))
    }

    @Test("char: capture names and full UUIDs of either case; a known UUID is .known")
    func characteristicReferences() {
        #expect(CharacteristicRef(captureText: "drink-data") == .known(.drinkData))
        #expect(CharacteristicRef(captureText: "6F75616B-7661-7465-2D00-000000000004") == .known(.drinkData))
        #expect(CharacteristicRef(captureText: "0000180A-0000-1000-8000-00805F9B34FB") == .uuid("0000180a-0000-1000-8000-00805f9b34fb"))
        #expect(CharacteristicRef(captureText: "2a19") == nil)
        #expect(CharacteristicRef(captureText: "Drink-Data") == nil)
        #expect(CharacteristicRef(captureText: "0000180a_0000-1000-8000-00805f9b34fb") == nil)
    }

    @Test("validation per op")
    func validation() {
        #expect(CaptureEvent(time: WallInstant(secondsSince1970: 1), op: .read, characteristic: .known(.drinkData)).validationProblem() == "read event without value")
        #expect(CaptureEvent(time: WallInstant(secondsSince1970: 1), op: .write, value: []).validationProblem() == "write event without char")
        #expect(CaptureEvent(time: WallInstant(secondsSince1970: 1), op: .log).validationProblem() == "log event without type")
        #expect(CaptureEvent(time: WallInstant(secondsSince1970: 1), op: .action, action: "x").validationProblem() == "action event without id")
        #expect(CaptureEvent.connect(at: .init(secondsSince1970: .nan)).validationProblem() != nil)
        #expect(CaptureEvent.connect(at: WallInstant(secondsSince1970: -0.5)).validationProblem() != nil)
        #expect(CaptureEvent.note(at: WallInstant(secondsSince1970: 0), "ok").validationProblem() == nil)
        #expect(CaptureEvent(time: WallInstant(secondsSince1970: 0), op: .note).validationProblem() == nil)
    }

    @Test("a line error reads file:line: message")
    func lineErrorDescription() {
        let error = CaptureLineError(file: "capture.aqcap", line: 7, message: #"value is not hex: "0x12""#)
        #expect(error.description == #"capture.aqcap:7: value is not hex: "0x12""#)
    }
}
