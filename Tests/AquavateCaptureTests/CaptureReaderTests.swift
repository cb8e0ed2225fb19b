// Reading .aqcap (docs/design.md 3.3): the header and every op; a bad line is one error at its
// line number and the lines around it are read; CRLF, a byte order mark, lines over the limit, and
// a 5 MB capture streamed through a small buffer.

import AquavateProtocol
import Foundation
import Testing
@testable import AquavateCapture

private func items(_ text: String, blockSize: Int = CaptureReader.defaultBlockSize) -> [CaptureItem] {
    Array(CaptureReader(data: Array(text.utf8), name: "capture.aqcap", blockSize: blockSize))
}

private let headerLine = #"{"aqcap":1,"source":"test","mtu":247}"#
private let header = CaptureHeader(source: "test", mtu: 247)

@Suite("aqcap reader")
struct CaptureReaderTests {
    @Test("header and events of docs/design.md 3.3")
    func designExample() {
        let text = """
        {"aqcap":1,"created":"2026-11-21T08:00:00Z","source":"aquavate-bridge 0.1.0","device":{"name":"Aquavate-A3F2","address":"F4:12:FA:00:A3:F4"},"mtu":247}
        {"t":1763712000.125,"op":"connect"}
        {"t":1763712000.310,"op":"read","char":"sync-control","value":"0000030000001400"}
        {"t":1763712000.402,"op":"write","char":"sync-control","value":"0000030001001100"}
        {"t":1763712000.431,"op":"notify","char":"drink-data","value":"000001000300"}
        {"t":1763712031.900,"op":"disconnect","reason":"timeout"}

        """
        #expect(items(text) == [
            .header(CaptureHeader(created: "2026-11-21T08:00:00Z", source: "aquavate-bridge 0.1.0",
                                  deviceName: "Aquavate-A3F2", deviceAddress: "F4:12:FA:00:A3:F4", mtu: 247)),
            .event(.connect(at: 1_763_712_000.125), line: 2),
            .event(.read(at: 1_763_712_000.310, .syncControl, value: [0, 0, 3, 0, 0, 0, 0x14, 0]), line: 3),
            .event(.write(at: 1_763_712_000.402, .syncControl, value: [0, 0, 3, 0, 1, 0, 0x11, 0]), line: 4),
            .event(.notify(at: 1_763_712_000.431, .drinkData, value: [0, 0, 1, 0, 3, 0]), line: 5),
            .event(.disconnect(at: 1_763_712_031.9, reason: "timeout"), line: 6),
        ])
    }

    /// Each bad line between two good ones: exactly one error at its line, the good lines kept.
    @Test("a bad line is one error at its line number; the lines around it are used", arguments: [
        ("not json", "not JSON"),
        ("[1,2]", "JSON but not an object: expected {\"t\":…,\"op\":…}"),
        ("42", "JSON but not an object: expected {\"t\":…,\"op\":…}"),
        (#"{"t":15}"#, "missing op; expected one of connect, disconnect, read, write, notify, note, log, action"),
        (#"{"t":15,"op":"jump"}"#, #"unknown op "jump"; expected one of connect, disconnect, read, write, notify, note, log, action"#),
        (#"{"t":15,"op":1}"#, "op is not a string: 1; expected one of connect, disconnect, read, write, notify, note, log, action"),
        (#"{"t":15,"op":"read","char":"water","value":"00"}"#, #"unknown char "water"; expected a capture name (current-state, bottle-config, sync-control, drink-data, command, device-settings, activity-stats, calibration-state, battery-level) or a full UUID"#),
        (#"{"t":15,"op":"read","char":"drink-data","value":"0x12"}"#, #"value is not hex: "0x12""#),
        (#"{"t":15,"op":"read","char":"drink-data","value":"12 34"}"#, #"value is not hex: "12 34""#),
        (#"{"t":15,"op":"read","char":"drink-data","value":"abc"}"#, #"value has an odd number of hex digits (3): "abc""#),
        (#"{"t":15,"op":"read","char":"drink-data","value":12}"#, "value is not a string: 12"),
        (#"{"op":"connect"}"#, "missing t (UTC seconds since 1970)"),
        (#"{"t":"15","op":"connect"}"#, #"t is not a number: "15"; expected UTC seconds since 1970"#),
        (#"{"t":true,"op":"connect"}"#, "t is not a number: true; expected UTC seconds since 1970"),
        (#"{"t":null,"op":"connect"}"#, "t is not a number: null; expected UTC seconds since 1970"),
        (#"{"t":-1,"op":"connect"}"#, "t must be a finite number ≥ 0, got -1.0"),
        // A t of 1e13 (milliseconds, or a crafted file) made `replay --reminders` tick for ever;
        // capture times end at 2100.
        (#"{"t":1e13,"op":"connect"}"#, "t 10000000000000.0 is after 2100-01-01T00:00:00Z (4102444800): expected UTC seconds since 1970, not milliseconds"),
        (#"{"t":4102444800.5,"op":"connect"}"#, "t 4102444800.5 is after 2100-01-01T00:00:00Z (4102444800): expected UTC seconds since 1970, not milliseconds"),
        (#"{"t":5,"op":"connect"}"#, "out of time order: t 5.0 is earlier than 10.0 on line 2"),
        (#"{"t":15,"op":"read","char":"drink-data"}"#, "read event without value"),
        (#"{"t":15,"op":"notify","value":"00"}"#, "notify event without char"),
        (#"{"t":15,"op":"write","char":"command"}"#, "write event without value"),
        (#"{"t":15,"op":"log"}"#, "log event without type"),
        (#"{"t":15,"op":"action","id":"n1"}"#, "action event without action"),
        (#"{"t":15,"op":"action","action":"did-this"}"#, "action event without id"),
        (#"{"t":15,"op":"note","text":5}"#, "text is not a string: 5"),
    ])
    func badLine(line: String, message: String) throws {
        let result = items([headerLine, #"{"t":10,"op":"connect"}"#, line, #"{"t":20,"op":"disconnect"}"#].joined(separator: "\n"))
        try #require(result.count == 4)
        #expect(result[0] == .header(header))
        #expect(result[1] == .event(.connect(at: 10), line: 2))
        guard case .error(let error) = result[2] else {
            Issue.record("expected an error, got \(result[2])")
            return
        }
        #expect(error.file == "capture.aqcap")
        #expect(error.line == 3)
        #expect(error.message.hasPrefix(message))
        if message != "not JSON" { #expect(error.message == message) }
        #expect(result[3] == .event(.disconnect(at: 20), line: 4))
    }

    @Test("an error at line 7 reads capture.aqcap:7: …")
    func lineSeven() {
        var lines = [headerLine] + (1...5).map { #"{"t":\#($0),"op":"connect"}"# }
        lines.append(#"{"t":6,"op":"write","char":"command","value":"0x12"}"#)
        let errors = items(lines.joined(separator: "\n")).compactMap { item -> String? in
            if case .error(let error) = item { return error.description }
            return nil
        }
        #expect(errors == [#"capture.aqcap:7: value is not hex: "0x12""#])
    }

    @Test("a bad header is an error at line 1 and the events after it are read", arguments: [
        ("not json", "first line is not an aqcap header: not JSON"),
        ("[1]", #"first line is not an aqcap header: JSON but not an object: expected {"aqcap":1,…}"#),
        (#"{"t":1,"op":"connect"}"#, #"first line is not an aqcap header: no "aqcap" key; expected {"aqcap":1,…}"#),
        (#"{"aqcap":2}"#, "unsupported aqcap version 2; this reader knows version 1"),
        (#"{"aqcap":"1"}"#, #"aqcap version is not an integer: "1"; expected 1"#),
        (#"{"aqcap":1,"mtu":"big"}"#, #"mtu is not an integer from 1 to 65535: "big""#),
        (#"{"aqcap":1,"mtu":0}"#, "mtu is not an integer from 1 to 65535: 0"),
        (#"{"aqcap":1,"device":"x"}"#, #"device is not an object: "x"; expected {"name":…,"address":…}"#),
        (#"{"aqcap":1,"device":{"name":7}}"#, "device.name is not a string: 7"),
        (#"{"aqcap":1,"created":false}"#, "created is not a string: false"),
    ])
    func badHeader(line: String, message: String) throws {
        let result = items(line + "\n" + #"{"t":10,"op":"connect"}"#)
        try #require(result.count == 2)
        guard case .error(let error) = result[0] else {
            Issue.record("expected an error, got \(result[0])")
            return
        }
        #expect(error.line == 1)
        #expect(error.message.hasPrefix(message))
        #expect(result[1] == .event(.connect(at: 10), line: 2))
    }

    @Test("unknown keys are ignored, in the header and in events")
    func unknownKeys() {
        let result = items(#"{"aqcap":1,"future":{"x":[1]}}"# + "\n" + #"{"t":1,"op":"connect","rssi":-60,"device":null}"#)
        #expect(result == [.header(CaptureHeader()), .event(.connect(at: 1), line: 2)])
    }

    @Test("an equal time is in order")
    func equalTimes() {
        let result = items([headerLine, #"{"t":1,"op":"connect"}"#, #"{"t":1,"op":"note"}"#].joined(separator: "\n"))
        #expect(result.count == 3)
        #expect(result[2] == .event(CaptureEvent(time: 1, op: .note), line: 3))
    }

    @Test("a rejected event does not move the time order")
    func rejectedEventsDoNotCount() {
        let result = items([headerLine, #"{"t":1,"op":"connect"}"#, #"{"t":9,"op":"jump"}"#, #"{"t":2,"op":"note"}"#].joined(separator: "\n"))
        #expect(result.last == .event(CaptureEvent(time: 2, op: .note), line: 4))
    }

    @Test("CRLF, a missing final newline, blank lines, a byte order mark", arguments: [1, 3, 64, 65536])
    func lineEndings(blockSize: Int) {
        let text = "\u{FEFF}" + headerLine + "\r\n\r\n" + #"{"t":1,"op":"connect"}"# + "\r\n   \n\t\n" + #"{"t":2,"op":"log","type":"vitamin-d"}"#
        #expect(items(text, blockSize: blockSize) == [
            .header(header),
            .event(.connect(at: 1), line: 3),
            .event(.log(at: 2, type: "vitamin-d"), line: 6),
        ])
    }

    @Test("empty input yields nothing; a file of only a header yields the header")
    func emptyInput() {
        #expect(items("") == [])
        #expect(items("\n\n") == [])
        #expect(items(headerLine) == [.header(header)])
    }

    @Test("char by UUID, and values in upper case")
    func uuidsAndCase() {
        let result = items(headerLine + "\n" + #"{"t":1,"op":"notify","char":"6F75616B-7661-7465-2D00-000000000001","value":"ABcd"}"# + "\n"
            + #"{"t":2,"op":"read","char":"00002A00-0000-1000-8000-00805F9B34FB","value":""}"#)
        #expect(result.dropFirst() == [
            .event(.notify(at: 1, .currentState, value: [0xAB, 0xCD]), line: 2),
            .event(.read(at: 2, .uuid("00002a00-0000-1000-8000-00805f9b34fb"), value: []), line: 3),
        ])
    }

    @Test("long decimal times are read exactly")
    func exactTimes() {
        let result = items(headerLine + "\n" + #"{"t":0.30000000000000004,"op":"connect"}"# + "\n" + #"{"t":1763712000.1234567,"op":"connect"}"#)
        #expect(result.dropFirst() == [.event(.connect(at: 0.30000000000000004), line: 2), .event(.connect(at: 1_763_712_000.1234567), line: 3)])
    }

    @Test("a line longer than the limit is one error, skipped without being held")
    func overlongLine() {
        let long = #"{"t":1,"op":"note","text":""# + String(repeating: "x", count: CaptureReader.maximumLineLength + 10) + #""}"#
        let reader = CaptureReader(data: Array((headerLine + "\n" + long + "\n" + #"{"t":2,"op":"connect"}"#).utf8), name: "capture.aqcap", blockSize: 4096)
        let result = Array(reader)
        #expect(result == [
            .header(header),
            .error(CaptureLineError(file: "capture.aqcap", line: 2, message: "line longer than \(CaptureReader.maximumLineLength) bytes; skipped")),
            .event(.connect(at: 2), line: 3),
        ])
        #expect(reader.largestBufferCount <= CaptureReader.maximumLineLength + 2 * 4096)
    }

    @Test("an unreadable path is a thrown error saying why")
    func unreadable() throws {
        #expect(throws: CaptureFileUnreadable(path: "/nonexistent/x.aqcap", reason: "No such file or directory")) {
            try CaptureReader(path: "/nonexistent/x.aqcap")
        }
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        #expect(throws: CaptureFileUnreadable(path: folder.path, reason: "is a directory, expected a capture file")) {
            try CaptureReader(path: folder.path)
        }
    }

    @Test("a 5 MB capture streams through a small buffer")
    func streamsLargeFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("big.aqcap")
        let chunk = Hex.encode((0..<244).map { UInt8(truncatingIfNeeded: $0) })
        var text = headerLine + "\n"
        let count = 10_000
        for index in 0..<count {
            text += #"{"t":\#(1_763_712_000 + index),"op":"notify","char":"drink-data","value":"\#(chunk)"}"# + "\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(text.utf8.count > 5_000_000)

        let reader = try CaptureReader(path: path, blockSize: 4096)
        var events = 0
        var lastLine = 0
        for item in reader {
            guard case .event(let event, let line) = item else {
                if case .header = item { continue }
                Issue.record("unexpected \(item)")
                return
            }
            #expect(event.value?.count == 244)
            events += 1
            lastLine = line
        }
        #expect(events == count)
        #expect(lastLine == count + 1)
        // The buffer holds at most one block plus the line being cut, never the file.
        #expect(reader.largestBufferCount < 4096 + 600)
    }

    /// JSONDecoder reads a string's escapes and a number's digits only when that value is asked
    /// for; the reader asks for every value, the unknown keys' too, so these are still refused.
    @Test("a line that is not JSON is refused whichever key holds the fault", arguments: [
        (#"{"t":01,"op":"connect"}"#, "not JSON (t: number with leading zero)"),
        (#"{"t":1e400,"op":"connect"}"#, "not JSON (t: number is not representable in swift)"),
        (#"{"t":15,"op":"note","text":"\ud800"}"#, "not JSON (text: expected low surrogate utf8 sequence after high surrogate)"),
        (#"{"t":15,"op":"note","text":"\x41"}"#, "not JSON (text: unexpected escaped character)"),
        (#"{"t":15,"op":"connect","extra":01}"#, "not JSON (extra: number with leading zero)"),
        (#"{"t":15,"op":"connect","extra":[1,{"a":"\ud800"}]}"#, "not JSON (extra: expected low surrogate utf8 sequence after high surrogate)"),
        (#"{"t":15,"op":"connect","extra":1e999}"#, "not JSON (extra: number is not representable in swift)"),
        ("null", #"JSON but not an object: expected {"t":…,"op":…}"#),
        (#"{"t":15,"op":"connect"} x"#, "not JSON"),
    ])
    func notJSONAnywhere(line: String, message: String) {
        let result = items([headerLine, line].joined(separator: "\n"))
        #expect(result.dropFirst() == [.error(CaptureLineError(file: "capture.aqcap", line: 2, message: message))])
    }

    /// Found by fuzz-aqcap: the unknown keys come from a dictionary, whose order changes from one
    /// decoding to the next, so a line with two faults named either one.
    @Test("a line with two faults is refused the same at every reading")
    func twoFaultsOneMessage() {
        let line = #"{"t":1,"op":"connect","z":{"y":01,"x":"\ud800"},"b":01,"a":"\ud800","c":1e999}"#
        let messages = Set((0..<50).map { _ in items(headerLine + "\n" + line).last.map { "\($0)" } ?? "" })
        #expect(messages == [#"error(capture.aqcap:2: not JSON (a: expected low surrogate utf8 sequence after high surrogate))"#])
    }

    @Test("a bad value in the header's device is refused as the header")
    func badDeviceValue() {
        let result = items(#"{"aqcap":1,"device":{"name":"a","x":01}}"#)
        #expect(result == [.error(CaptureLineError(file: "capture.aqcap", line: 1,
                                                   message: "first line is not an aqcap header: not JSON (x: number with leading zero)"))])
    }

    @Test("a key given twice counts the first time (docs/design.md 3.3)")
    func repeatedKey() {
        let result = items(#"{"aqcap":1,"aqcap":2}"# + "\n" + #"{"t":3,"t":4,"op":"log","type":"a","type":"b"}"#)
        #expect(result == [.header(CaptureHeader()), .event(.log(at: 3, type: "a"), line: 2)])
    }
}
