// The capture writer's lines are written by hand (JSONText), not by JSONEncoder, for two reasons
// said at `CaptureEvent.jsonLine`: docs/design.md 3.3's key order ("t" first, which JSONEncoder
// cannot keep: it sorts keys or hashes them), and the speed on the sync path. This holds the
// hand-written lines to the Codable encoding of the same values: for thousands of events and
// headers with odd strings and times, JSONDecoder reads back exactly the Codable struct of the
// event, and the line starts with the design's keys in the design's order.

import AquavateCapture
import AquavateProtocol
import BusTestSupport
import Foundation
import Testing

/// One event line of docs/design.md 3.3 as Codable writes and reads it.
private struct EventLine: Codable, Equatable {
    var t: Double
    var op: String
    var char: String?
    var value: String?
    var reason: String?
    var text: String?
    var type: String?
    var id: String?
    var action: String?

    enum CodingKeys: String, CodingKey { case t, op, char, value, reason, text, type, id, action }

    init(_ event: CaptureEvent) {
        t = event.time.secondsSince1970
        op = event.op.rawValue
        char = event.characteristic?.captureText
        value = event.value.map { $0.map { String(format: "%02x", $0) }.joined() }
        reason = event.reason
        text = event.text
        type = event.intakeType
        id = event.notificationID
        action = event.action
    }
}

/// The header line of docs/design.md 3.3 as Codable writes and reads it.
private struct HeaderLine: Codable, Equatable {
    struct Device: Codable, Equatable {
        var name: String?
        var address: String?
        enum CodingKeys: String, CodingKey { case name, address }
    }
    var aqcap: Int
    var created: String?
    var source: String?
    var device: Device?
    var mtu: Int?

    enum CodingKeys: String, CodingKey { case aqcap, created, source, device, mtu }

    init(_ header: CaptureHeader) {
        aqcap = header.version
        created = header.created
        source = header.source
        device = header.deviceName == nil && header.deviceAddress == nil
            ? nil : Device(name: header.deviceName, address: header.deviceAddress)
        mtu = header.mtu
    }
}

@Suite struct CaptureLineCodableTests {
    static let oddTexts = ["", "reconnected", "quote \" backslash \\ slash /", "tab\tnew\nline\rreturn", "\u{0}\u{1}\u{8}\u{c}\u{1f}\u{7f}",
                           "día señal 😀", "\u{2028}\u{2029}", "{\"t\":1}", String(repeating: "x", count: 300)]

    @Test("every hand-written event line reads back as the Codable struct of its event, keys in the design's order")
    func eventLines() throws {
        var generator = SeededGenerator(seed: 33)
        let decoder = JSONDecoder()
        let characteristics: [CharacteristicRef] = Characteristic.allCases.map { .known($0) }
            + [.uuid("00002a25-0000-1000-8000-00805f9b34fb")]
        for index in 0..<3_000 {
            let op = CaptureOp.allCases.randomElement(using: &generator)!
            let time: Double = switch index % 4 {
            case 0: Double(UInt32.random(in: 0...UInt32.max, using: &generator))  // whole seconds: "1763712000.0"
            case 1: Double.random(in: 0...4e9, using: &generator)
            case 2: [0, Double.leastNonzeroMagnitude, 1e-7, 0.1, 1e21, 1.7976931348623157e308].randomElement(using: &generator)!
            default: (Double(UInt32.random(in: 0...UInt32.max, using: &generator)) * 1000 + Double(index % 1000)) / 1000
            }
            func odd() -> String? { Bool.random(using: &generator) ? Self.oddTexts.randomElement(using: &generator) : nil }
            let event = CaptureEvent(
                time: .init(secondsSince1970: time), op: op, characteristic: Bool.random(using: &generator) ? characteristics.randomElement(using: &generator) : nil,
                value: Bool.random(using: &generator) ? (0..<Int.random(in: 0...244, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) } : nil,
                reason: odd(), text: odd(), intakeType: odd(), notificationID: odd(), action: odd())
            let line = event.jsonLine()
            let read = try decoder.decode(EventLine.self, from: Data(line.utf8))
            #expect(read == EventLine(event), "\(line)")
            #expect(line.hasPrefix("{\"t\":") && line.contains(",\"op\":\"\(op.rawValue)\""), "\(line)")
            let keys = ["\"char\":", "\"value\":", "\"reason\":", "\"text\":", "\"type\":", "\"id\":", "\"action\":"]
            // Each key's first place, in the design's order (values cannot hold an unescaped quote).
            let places = keys.compactMap { line.range(of: $0)?.lowerBound }
            #expect(places == places.sorted(), "\(line)")
        }
    }

    @Test("every hand-written header reads back as the Codable struct of its header")
    func headerLines() throws {
        var generator = SeededGenerator(seed: 34)
        for _ in 0..<1_000 {
            func odd() -> String? { Bool.random(using: &generator) ? Self.oddTexts.randomElement(using: &generator) : nil }
            let header = CaptureHeader(created: odd(), source: odd(), deviceName: odd(), deviceAddress: odd(),
                                       mtu: Bool.random(using: &generator) ? Int.random(in: 23...517, using: &generator) : nil)
            let line = header.jsonLine()
            #expect(try JSONDecoder().decode(HeaderLine.self, from: Data(line.utf8)) == HeaderLine(header), "\(line)")
            #expect(line.hasPrefix("{\"aqcap\":1"), "\(line)")
        }
    }

    @Test("a string the writer escapes is the bytes JSONEncoder writes for it")
    func stringsAreEncodersBytes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for text in Self.oddTexts + (0..<0x80).map({ String(UnicodeScalar(UInt8($0))) }) {
            let codable = String(decoding: try encoder.encode([text]), as: UTF8.self)
            #expect(codable == "[" + JSONText.quoted(text) + "]", "\(text.unicodeScalars.map(\.value))")
        }
    }
}
