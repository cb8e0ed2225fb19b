// Writing .aqcap: every op written is read back equal, with its line number; each line reaches the
// file when written; events a reader would refuse are refused; a path that cannot be created, or a
// symlink (`run --record`), is refused and its target left untouched.

import AquavateProtocol
import Foundation
import Testing
@testable import AquavateCapture
import Timekeeping

@Suite("aqcap writer")
struct CaptureWriterTests {
    static let everyOp: [CaptureEvent] = [
        .connect(at: WallInstant(secondsSince1970: 1_763_712_000.125)),
        .read(at: WallInstant(secondsSince1970: 1_763_712_000.31), .syncControl, value: [0, 0, 3, 0, 0, 0, 0x14, 0]),
        .write(at: WallInstant(secondsSince1970: 1_763_712_000.402), .syncControl, value: [0, 0, 3, 0, 1, 0, 0x11, 0]),
        .notify(at: WallInstant(secondsSince1970: 1_763_712_000.431), .drinkData, value: (0..<244).map { UInt8(truncatingIfNeeded: $0) }),
        .notify(at: WallInstant(secondsSince1970: 1_763_712_000.5), .uuid("0000abcd-0000-1000-8000-00805f9b34fb"), value: []),
        .note(at: WallInstant(secondsSince1970: 1_763_712_001), "quotes \" backslash \\ newline \n tab \t é ✓"),
        .log(at: WallInstant(secondsSince1970: 1_763_712_002), type: "vitamin-d"),
        .action(at: WallInstant(secondsSince1970: 1_763_712_003), notificationID: "reminder-7", action: "did-this"),
        .disconnect(at: WallInstant(secondsSince1970: 1_763_712_031.9), reason: "0x08 connection timeout"),
        .disconnect(at: WallInstant(secondsSince1970: 1_763_712_040)),
    ]

    @Test("every op written is read back equal, with its line number")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("round.aqcap")
        let header = CaptureHeader(created: "2026-11-21T08:00:00Z", source: "aquavate-bridge 0.1.0",
                                   deviceName: "Aquavate-A3F2", deviceAddress: "F4:12:FA:00:A3:F4", mtu: 247)
        let writer = try CaptureWriter(path: path, header: header)
        for event in Self.everyOp { try writer.write(event) }
        writer.close()

        let expected = [CaptureItem.header(header)] + Self.everyOp.enumerated().map { .event($0.element, line: $0.offset + 2) }
        #expect(Array(try CaptureReader(path: path)) == expected)
    }

    @Test("each line reaches the file when written, before flush or close")
    func linesAreNotBuffered() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("live.aqcap")
        let writer = try CaptureWriter(path: path, header: CaptureHeader())
        try writer.write(.connect(at: WallInstant(secondsSince1970: 1)))
        try writer.write(.notify(at: WallInstant(secondsSince1970: 2), .currentState, value: [1, 2]))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "{\"aqcap\":1}\n{\"t\":1.0,\"op\":\"connect\"}\n{\"t\":2.0,\"op\":\"notify\",\"char\":\"current-state\",\"value\":\"0102\"}\n")
        writer.flush()
        writer.close()
    }

    @Test("events a reader would refuse are refused")
    func refusesInvalidEvents() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = try CaptureWriter(path: folder.file("x.aqcap"), header: CaptureHeader())
        #expect(throws: CaptureEventRejected(problem: "read event without value")) {
            try writer.write(CaptureEvent(time: WallInstant(secondsSince1970: 1), op: .read, characteristic: .known(.drinkData)))
        }
        try writer.write(.connect(at: WallInstant(secondsSince1970: 5)))
        #expect(throws: CaptureEventRejected.self) { try writer.write(.connect(at: WallInstant(secondsSince1970: 4))) }
        #expect(throws: CaptureEventRejected.self) { try writer.write(.connect(at: .init(secondsSince1970: .infinity))) }
        writer.close()
        writer.close()
        #expect(throws: CaptureFileUnwritable.self) { try writer.write(.connect(at: WallInstant(secondsSince1970: 6))) }
        let lines = try String(contentsOfFile: folder.file("x.aqcap"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
    }

    @Test("a path that can't be created is a thrown error saying why")
    func unwritable() {
        #expect(throws: CaptureFileUnwritable(path: "/nonexistent/x.aqcap", reason: "No such file or directory")) {
            try CaptureWriter(path: "/nonexistent/x.aqcap", header: CaptureHeader())
        }
    }

    @Test("a btsnoop import written out reads back as the same events")
    func importThenWrite() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.leConnectionComplete()
        TestGATT.discover(&b)
        b.att(BtsnoopBuilder.notification(handle: TestGATT.drinkDataValue, TestGATT.fullChunk), .received)
        b.disconnectionComplete(reason: 0x08)
        let imported = try BtsnoopImporter().importData(b.bytes, name: "x.btsnoop")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let writer = try CaptureWriter(path: folder.file("imported.aqcap"), header: imported.header)
        for event in imported.events { try writer.write(event) }
        writer.close()
        let readBack = Array(try CaptureReader(path: folder.file("imported.aqcap")))
        #expect(readBack == [.header(imported.header)] + imported.events.enumerated().map { .event($0.element, line: $0.offset + 2) })
        #expect(imported.events.count == 3)
    }
}

@Suite("a recording never writes through a symlink")
struct RecordingSymlinkTests {
    @Test("run --record onto a symlink is refused and the link's target is untouched")
    func refusesSymlink() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aqcap-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("precious.txt").path
        try "keep me".write(toFile: target, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("session.aqcap").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: CaptureFileUnwritable.self) {
            _ = try CaptureWriter(path: link, header: CaptureHeader())
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
    }
}
