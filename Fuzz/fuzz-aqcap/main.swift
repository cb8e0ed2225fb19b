// libFuzzer target for the `.aqcap` line reader (and, for inputs that start with the btsnoop
// magic, the btsnoop importer). Build and run with `Fuzz/run.sh fuzz-aqcap SECONDS`; the plain
// build gets a stub main so `swift build` still links (docs/swift-linux.md section 6).

#if FUZZING
import AquavateCapture
import Foundation
import FuzzDriver

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if bytes.starts(with: Array("btsnoop".utf8) + [0]) {
        checkBtsnoop(bytes)
    } else {
        checkCapture(bytes)
    }
    return 0
}

/// Invariants of the line reader: one item per non-blank line, in line order, for any block
/// size; every header and event written back out reads back equal.
func checkCapture(_ bytes: [UInt8]) {
    let items = Array(CaptureReader(data: bytes, name: "fuzz.aqcap"))
    let nonBlankLines = lines(of: bytes).filter { !isBlank($0) }
    precondition(items.count == nonBlankLines.count, "\(items.count) items for \(nonBlankLines.count) non-blank lines")
    var previousLine = 0
    for item in items {
        let line: Int
        switch item {
        case .header(let header):
            line = 1
            let again = Array(CaptureReader(data: Array((header.jsonLine() + "\n").utf8), name: "again"))
            precondition(again == [.header(header)], "header did not survive a round trip: \(header.jsonLine())")
        case .event(let event, let number):
            line = number
            precondition(event.validationProblem() == nil)
            let text = CaptureHeader().jsonLine() + "\n" + event.jsonLine() + "\n"
            let again = Array(CaptureReader(data: Array(text.utf8), name: "again"))
            precondition(again == [.header(CaptureHeader()), .event(event, line: 2)], "event did not survive a round trip: \(event.jsonLine()) -> \(again)")
        case .error(let error):
            line = error.line
            precondition(!error.message.contains("\n"), "multi-line message")
        }
        precondition(line > previousLine || (line == 1 && previousLine == 0), "items out of line order")
        previousLine = line
    }
    // A different block size must not change anything.
    let small = Array(CaptureReader(data: bytes, name: "fuzz.aqcap", blockSize: 7))
    precondition(small == items, "block size changed the result")
}

func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var result = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if bytes.last == UInt8(ascii: "\n") || bytes.isEmpty { result.removeLast() }
    return result
}

func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
    var body = line
    if body.starts(with: [0xEF, 0xBB, 0xBF]) && line.startIndex == 0 { body = body.dropFirst(3) }
    return body.allSatisfy { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }
}

/// Invariants of the importer: no crash, events in time order, each fit to be written.
func checkBtsnoop(_ bytes: [UInt8]) {
    guard let result = try? BtsnoopImporter(handleMap: [0x0019: .drinkData]).importData(bytes, name: "fuzz.btsnoop") else { return }
    var last = -Double.infinity
    for event in result.events {
        precondition(event.validationProblem() == nil, "importer made an invalid event")
        precondition(event.time.secondsSince1970 >= last, "importer events out of time order")
        last = event.time.secondsSince1970
    }
    precondition(result.errors.allSatisfy { $0.line >= 1 && $0.line <= result.recordCount + 1 })
}

/// Sample lines for the corpus: a header, every op, and typical mistakes.
func writeSeeds(to directory: String) throws {
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let header = #"{"aqcap":1,"created":"2026-11-21T08:00:00Z","source":"aquavate-bridge 0.1.0","device":{"name":"Aquavate-A3F2","address":"F4:12:FA:00:A3:F4"},"mtu":247}"#
    let events = [
        #"{"t":1763712000.125,"op":"connect"}"#,
        #"{"t":1763712000.310,"op":"read","char":"sync-control","value":"0000030000001400"}"#,
        #"{"t":1763712000.402,"op":"write","char":"sync-control","value":"0000030001001100"}"#,
        #"{"t":1763712000.431,"op":"notify","char":"drink-data","value":"000001000300AbCd"}"#,
        #"{"t":1763712000.5,"op":"notify","char":"6f75616b-7661-7465-2d00-000000000001","value":""}"#,
        #"{"t":1763712001,"op":"note","text":"tab\there \u00e9 \"quoted\""}"#,
        #"{"t":1763712002,"op":"log","type":"vitamin-d"}"#,
        #"{"t":1763712003,"op":"action","id":"n-42","action":"did-this","extra":[1,{"a":null}]}"#,
        #"{"t":1763712031.900,"op":"disconnect","reason":"timeout"}"#,
        #"{"t":"1","op":"connect"}"#,
        #"{"t":-1,"op":"connect"}"#,
        #"{"t":1,"op":"read","char":"drink-data","value":"0x12"}"#,
        #"[1,2,3]"#,
        #"not json"#,
    ]
    let samples: [String: String] = [
        "whole": ([header] + events).joined(separator: "\n") + "\n",
        "crlf": ([header] + events.prefix(3)).joined(separator: "\r\n"),
        "blank": header + "\n\n   \n" + events[0] + "\n",
        "no-header": events.joined(separator: "\n"),
    ]
    for (name, text) in samples {
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent("seed-\(name)"))
    }
    try Data(btsnoopSeed()).write(to: URL(fileURLWithPath: directory).appendingPathComponent("seed-btsnoop"))
}

/// A btmon file with a connection, a fragmented notification on handle 0x0019 and a disconnect.
func btsnoopSeed() -> [UInt8] {
    func be32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    func be64(_ v: Int64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: v) >> (56 - 8 * $0)) } }
    var file = Array("btsnoop".utf8) + [0] + be32(1) + be32(2001)
    var time: Int64 = 0x00DC_DDB3_0F2F_8000 + 1_763_712_000_000_000
    func record(_ flags: UInt32, _ data: [UInt8]) {
        file += be32(UInt32(data.count)) + be32(UInt32(data.count)) + be32(flags) + be32(0) + be64(time) + data
        time += 1000
    }
    record(3, [0x3E, 0x13, 0x01, 0x00, 0x40, 0x00, 0x00, 0x00, 0xF4, 0xA3, 0x00, 0xFA, 0x12, 0xF4, 0x18, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00])
    let pdu: [UInt8] = [0x1B, 0x19, 0x00] + (0..<40).map { UInt8($0) }
    let frame: [UInt8] = [UInt8(pdu.count), 0x00, 0x04, 0x00] + pdu
    record(5, [0x40, 0x20, 27, 0] + frame[0..<27])
    record(5, [0x40, 0x10, UInt8(frame.count - 27), 0] + frame[27...])
    record(4, [0x40, 0x00, 9, 0, 5, 0, 4, 0, 0x52, 0x1C, 0x00, 0x02, 0x00])
    record(3, [0x05, 0x04, 0x00, 0x40, 0x00, 0x08])
    return file
}

@main
struct FuzzAqcap {
    static func main() throws {
        let arguments = CommandLine.arguments
        if arguments.count == 3, arguments[1] == "--write-seeds" {
            try writeSeeds(to: arguments[2])
            return
        }
        runLibFuzzer(fuzzOne)
    }
}
#else
@main
struct FuzzAqcap {
    static func main() {
        print("fuzz-aqcap: build with Fuzz/run.sh fuzz-aqcap SECONDS")
    }
}
#endif
