// btsnoop import (`aquavate-bridge import`): a Bluetooth HCI capture, built here record by record
// as btmon or a phone writes it, becomes the .aqcap events of the bottle's GATT traffic, whatever
// the datalink; ACL fragments are reassembled per connection and long reads joined; handles come
// from the capture's discovery or `--handle` options. A file that is not btsnoop is refused as a
// whole; a damaged or truncated record is reported with its number and the rest is used.

import AquavateProtocol
import Foundation
import Testing
@testable import AquavateCapture
import Timekeeping

/// The bottle's GATT layout used by these tests (handles as NimBLE would hand them out).
enum TestGATT {
    static let deviceNameValue: UInt16 = 0x0003
    static let currentStateValue: UInt16 = 0x0012
    static let currentStateCCCD: UInt16 = 0x0013
    static let syncControlValue: UInt16 = 0x0017
    static let drinkDataValue: UInt16 = 0x0019
    static let drinkDataCCCD: UInt16 = 0x001A
    static let commandValue: UInt16 = 0x001C

    static let gapDeclarations = [BtsnoopBuilder.Declaration(handle: 0x0002, properties: 0x02, valueHandle: deviceNameValue, uuid: "2a00")]
    static let aquavateDeclarations = [
        BtsnoopBuilder.Declaration(handle: 0x0011, properties: 0x12, valueHandle: currentStateValue, uuid: Characteristic.currentState.uuid),
        BtsnoopBuilder.Declaration(handle: 0x0014, properties: 0x0A, valueHandle: 0x0015, uuid: Characteristic.bottleConfig.uuid),
        BtsnoopBuilder.Declaration(handle: 0x0016, properties: 0x0A, valueHandle: syncControlValue, uuid: Characteristic.syncControl.uuid),
        BtsnoopBuilder.Declaration(handle: 0x0018, properties: 0x12, valueHandle: drinkDataValue, uuid: Characteristic.drinkData.uuid),
        BtsnoopBuilder.Declaration(handle: 0x001B, properties: 0x08, valueHandle: commandValue, uuid: Characteristic.command.uuid),
    ]

    /// A 17-record drink-data chunk: 6 + 14 × 17 = 244 bytes, the most one notification holds at MTU 247.
    static let fullChunk: [UInt8] = (0..<244).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    /// MTU exchange and characteristic discovery, as BlueZ does it after connecting.
    static func discover(_ b: inout BtsnoopBuilder, connection: UInt16 = 0x0040) {
        b.att(BtsnoopBuilder.mtuRequest(517), .sent, connection: connection)
        b.att(BtsnoopBuilder.mtuResponse(247), .received, connection: connection)
        b.att(BtsnoopBuilder.readByTypeRequest(start: 0x0001, end: 0xFFFF, type: 0x2803), .sent, connection: connection)
        b.att(BtsnoopBuilder.readByTypeResponse(gapDeclarations), .received, connection: connection)
        b.att(BtsnoopBuilder.readByTypeRequest(start: 0x0003, end: 0xFFFF, type: 0x2803), .sent, connection: connection)
        b.att(BtsnoopBuilder.readByTypeResponse(aquavateDeclarations), .received, connection: connection)
        b.att(BtsnoopBuilder.readByTypeRequest(start: 0x001C, end: 0xFFFF, type: 0x2803), .sent, connection: connection)
        b.att(BtsnoopBuilder.errorResponse(request: 0x08, handle: 0x001C, code: 0x0A), .received, connection: connection)
    }
}

private func importBytes(_ builder: BtsnoopBuilder, handleMap: [UInt16: Characteristic] = [:]) throws -> BtsnoopImport {
    try BtsnoopImporter(handleMap: handleMap).importData(builder.bytes, name: "test.btsnoop")
}

@Suite("btsnoop import")
struct BtsnoopImporterTests {
    /// A whole session: connect, MTU, discovery, device name, CCCD write, a write, a
    /// fragmented 244-byte notification, a write command, a supervision-timeout disconnect.
    @Test("every datalink gives the same events", arguments: [UInt32(1001), 1002, 2001])
    func session(datalink: UInt32) throws {
        var b = BtsnoopBuilder(datalink: datalink)
        b.leConnectionComplete(enhanced: datalink == 2001)
        let connectTime = b.lastRecordSeconds
        TestGATT.discover(&b)
        b.att(BtsnoopBuilder.readRequest(handle: TestGATT.deviceNameValue), .sent)
        b.att(BtsnoopBuilder.readResponse(Array("Aquavate-A3F2".utf8) + [0]), .received)
        let nameTime = b.lastRecordSeconds
        b.att(BtsnoopBuilder.writeRequest(handle: TestGATT.drinkDataCCCD, [0x01, 0x00]), .sent)
        b.att(BtsnoopBuilder.writeResponse, .received)
        let start: [UInt8] = [0x00, 0x00, 0x03, 0x00, 0x01, 0x00, 0x11, 0x00]
        b.att(BtsnoopBuilder.writeRequest(handle: TestGATT.syncControlValue, start), .sent)
        let writeTime = b.lastRecordSeconds
        b.att(BtsnoopBuilder.writeResponse, .received)
        b.att(BtsnoopBuilder.notification(handle: TestGATT.drinkDataValue, TestGATT.fullChunk), .received)
        let notifyTime = b.lastRecordSeconds
        b.att(BtsnoopBuilder.writeCommand(handle: TestGATT.commandValue, [0x02, 0x00, 0x00]), .sent)
        let commandTime = b.lastRecordSeconds
        b.disconnectionComplete(reason: 0x08)
        let disconnectTime = b.lastRecordSeconds

        let result = try importBytes(b)

        #expect(result.errors == [])
        #expect(result.unmappedHandles == [])
        #expect(result.events == [
            .connect(at: .init(secondsSince1970: connectTime)),
            .read(at: .init(secondsSince1970: nameTime), .uuid("00002a00-0000-1000-8000-00805f9b34fb"), value: Array("Aquavate-A3F2".utf8) + [0]),
            .write(at: .init(secondsSince1970: writeTime), .syncControl, value: start),
            .notify(at: .init(secondsSince1970: notifyTime), .drinkData, value: TestGATT.fullChunk),
            .write(at: .init(secondsSince1970: commandTime), .command, value: [0x02, 0x00, 0x00]),
            .disconnect(at: .init(secondsSince1970: disconnectTime), reason: "0x08 connection timeout"),
        ])
        #expect(result.header == CaptureHeader(
            created: "2025-11-21T08:00:00Z", source: "btsnoop import (datalink \(datalink))",
            deviceName: "Aquavate-A3F2", deviceAddress: "F4:12:FA:00:A3:F4", mtu: 247))
        #expect(result.recordCount == b.recordCount)
    }

    @Test("timestamps: btsnoop's year-0 microseconds become UTC seconds since 1970")
    func timestamps() throws {
        var b = BtsnoopBuilder(datalink: 2001, startTime: 1_763_712_000_125_000)
        b.leConnectionComplete()
        let result = try importBytes(b)
        #expect(result.events == [.connect(at: WallInstant(secondsSince1970: 1_763_712_000.125))])
    }

    @Test("a timestamp after 2100 is a skipped record with its number, like one before 1970")
    func timestampAfter2100() throws {
        var b = BtsnoopBuilder(datalink: 2001, startTime: 10_000_000_000_000_000)  // 1e10 s: the year 2286
        b.leConnectionComplete()
        let result = try importBytes(b)
        #expect(result.events == [])
        #expect(result.errors.map(\.line) == [1])
        #expect(result.errors.first?.message.hasPrefix("timestamp after 2100-01-01T00:00:00Z") == true, "\(result.errors)")
    }

    @Test("a 244-byte notification in 27-byte fragments is reassembled")
    func reassembly() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        let fragments = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, TestGATT.fullChunk))
        #expect(fragments.count == 10)  // 4 + 3 + 244 = 251 bytes
        b.att(BtsnoopBuilder.notification(handle: 0x0019, TestGATT.fullChunk), .received)
        let result = try importBytes(b, handleMap: [0x0019: .drinkData])
        #expect(result.errors == [])
        #expect(result.events.map(\.value) == [TestGATT.fullChunk])
    }

    @Test("fragments of two connections interleaved are kept apart")
    func interleavedConnections() throws {
        var b = BtsnoopBuilder(datalink: 1002)
        let first = (0..<100).map { UInt8($0) }
        let second = (0..<100).map { UInt8(200 - $0) }
        let a = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, first))
        let c = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, second))
        for index in 0..<max(a.count, c.count) {
            if index < a.count { b.aclFragment(connection: 0x0040, boundary: index == 0 ? 2 : 1, payload: a[index], direction: .received) }
            if index < c.count { b.aclFragment(connection: 0x0041, boundary: index == 0 ? 2 : 1, payload: c[index], direction: .received) }
        }
        let result = try importBytes(b, handleMap: [0x0019: .drinkData])
        #expect(result.errors == [])
        #expect(result.events.map(\.value) == [first, second])
    }

    @Test("the same connection handle on two btmon controllers is two connections")
    func controllersAreSeparate() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        let x = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, Array(repeating: 0xAA, count: 40)))
        let y = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, Array(repeating: 0xBB, count: 40)))
        b.aclFragment(connection: 0x0040, boundary: 2, payload: x[0], direction: .received, controller: 0)
        b.aclFragment(connection: 0x0040, boundary: 2, payload: y[0], direction: .received, controller: 1)
        b.aclFragment(connection: 0x0040, boundary: 1, payload: x[1], direction: .received, controller: 0)
        b.aclFragment(connection: 0x0040, boundary: 1, payload: y[1], direction: .received, controller: 1)
        let result = try importBytes(b, handleMap: [0x0019: .drinkData])
        #expect(result.errors == [])
        #expect(result.events.map(\.value) == [Array(repeating: 0xAA, count: 40), Array(repeating: 0xBB, count: 40)])
    }

    @Test("a start frame while buffering drops the partial packet and reports it")
    func unexpectedStartFrame() throws {
        var b = BtsnoopBuilder(datalink: 1001)
        let broken = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, Array(repeating: 1, count: 60)))
        b.aclFragment(connection: 0x0040, boundary: 2, payload: broken[0], direction: .received)  // record 1
        b.att(BtsnoopBuilder.notification(handle: 0x0019, [9, 9, 9]), .received)  // record 2
        let result = try importBytes(b, handleMap: [0x0019: .drinkData])
        try #require(result.errors.count == 1)
        #expect(result.errors[0].line == 2)
        #expect(result.errors[0].message.hasPrefix("unexpected start frame"))
        #expect(result.errors[0].message.contains("started at record 1"))
        #expect(result.events.map(\.value) == [[9, 9, 9]])
    }

    @Test("fragments that never complete are reported at the end, at their start record")
    func neverCompleting() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.att(BtsnoopBuilder.notification(handle: 0x0019, [1]), .received)  // record 1
        let fragments = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, Array(repeating: 2, count: 80)))
        b.aclFragment(connection: 0x0040, boundary: 2, payload: fragments[0], direction: .received)  // record 2
        b.aclFragment(connection: 0x0040, boundary: 1, payload: fragments[1], direction: .received)  // record 3
        let result = try importBytes(b, handleMap: [0x0019: .drinkData])
        try #require(result.errors.count == 1)
        #expect(result.errors[0].line == 2)
        #expect(result.errors[0].message == "ACL packet never completed: 54 of 87 bytes on connection 0x0040 (received) at end of file")
        #expect(result.events.map(\.value) == [[1]])
    }

    @Test("a disconnection drops the connection's unfinished fragments with an error")
    func fragmentsAtDisconnection() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        let fragments = BtsnoopBuilder.fragments(att: BtsnoopBuilder.notification(handle: 0x0019, Array(repeating: 2, count: 80)))
        b.aclFragment(connection: 0x0040, boundary: 2, payload: fragments[0], direction: .received)
        b.disconnectionComplete(reason: 0x13)
        let result = try importBytes(b, handleMap: [0x0019: .drinkData])
        try #require(result.errors.count == 1)
        #expect(result.errors[0].line == 1)
        #expect(result.errors[0].message.contains("before the disconnection at record 2"))
        #expect(result.events.map(\.reason) == ["0x13 remote user terminated connection"])
    }

    @Test("a continuation fragment without a start frame is reported")
    func orphanContinuation() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.aclFragment(connection: 0x0040, boundary: 1, payload: [1, 2, 3], direction: .received)
        let result = try importBytes(b)
        #expect(result.errors.map(\.line) == [1])
        #expect(result.errors.first?.message.hasPrefix("continuation fragment without a start frame") == true)
    }

    @Test("wrong magic is refused as a whole, saying what was found")
    func wrongMagic() {
        let b = BtsnoopBuilder(datalink: 1001, magic: Array("{\"aqcap\"".utf8))
        #expect(throws: BtsnoopFileRejected(file: "test.btsnoop", message:
            "not a btsnoop file: starts with 7b 22 61 71 63 61 70 22, expected 62 74 73 6e 6f 6f 70 00 (\"btsnoop\\0\")")) {
            try importBytes(b)
        }
    }

    @Test("a file shorter than the header is refused")
    func tooShort() {
        #expect(throws: BtsnoopFileRejected.self) {
            try BtsnoopImporter().importData(Array("btsnoop".utf8), name: "x")
        }
    }

    @Test("version 2 is refused")
    func wrongVersion() {
        let b = BtsnoopBuilder(datalink: 1001, version: 2)
        #expect(throws: BtsnoopFileRejected(file: "test.btsnoop", message: "btsnoop version 2 is not supported; supported: version 1")) {
            try importBytes(b)
        }
    }

    @Test("datalink 1003 (BCSP) is refused, listing the supported ones")
    func unsupportedDatalink() {
        let b = BtsnoopBuilder(datalink: 1003)
        #expect(throws: BtsnoopFileRejected(file: "test.btsnoop", message:
            "btsnoop datalink 1003 (HCI BCSP) is not supported; supported: 1001 (HCI), 1002 (HCI UART, H4), 2001 (Linux monitor, btmon -w)")) {
            try importBytes(b)
        }
    }

    @Test("a truncated record header at the end is reported; the records before it are used")
    func truncatedRecordHeader() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.leConnectionComplete()
        b.raw([0, 0, 0, 5, 0, 0, 0, 5, 0, 0])
        let result = try importBytes(b)
        #expect(result.events.map(\.op) == [.connect])
        #expect(result.errors == [CaptureLineError(file: "test.btsnoop", line: 2,
            message: "truncated record header at end of file: 10 of 24 bytes")])
    }

    @Test("a truncated record body at the end is reported")
    func truncatedRecord() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.leConnectionComplete()
        b.raw(BtsnoopBuilder.be32(30) + BtsnoopBuilder.be32(30) + BtsnoopBuilder.be32(5) + BtsnoopBuilder.be32(0) + BtsnoopBuilder.be64(0) + [1, 2, 3])
        let result = try importBytes(b)
        #expect(result.events.map(\.op) == [.connect])
        #expect(result.errors.map(\.message) == ["truncated record at end of file: 3 of 30 bytes"])
    }

    @Test("included_len above 1490 stops the import with an error")
    func oversizedRecord() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.leConnectionComplete()
        b.record(flags: 5, data: [UInt8](repeating: 0, count: 1491))
        b.leConnectionComplete()
        let result = try importBytes(b)
        #expect(result.events.map(\.op) == [.connect])
        #expect(result.errors == [CaptureLineError(file: "test.btsnoop", line: 2,
            message: "record length 1491 exceeds the btsnoop maximum 1490; the rest of the file is not read")])
    }

    @Test("without discovery or options, handles are unmapped and their events skipped")
    func unmapped() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.att(BtsnoopBuilder.notification(handle: 0x0019, [1, 2]), .received)
        b.att(BtsnoopBuilder.writeCommand(handle: 0x001C, [2, 0, 0]), .sent)
        let result = try importBytes(b)
        #expect(result.events == [])
        #expect(result.unmappedHandles == [0x0019, 0x001C])
    }

    @Test("--handle options map handles when the capture has no discovery")
    func mappingFromOptions() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.att(BtsnoopBuilder.writeRequest(handle: 0x001A, [0x01, 0x00]), .sent)  // CCCD after the mapped value
        b.att(BtsnoopBuilder.notification(handle: 0x0019, [1, 2]), .received)
        let time = b.lastRecordSeconds
        b.att(BtsnoopBuilder.notification(handle: 0x0030, [3]), .received)
        let map = try Dictionary(uniqueKeysWithValues: ["drink-data=0x0019"].map(BtsnoopImporter.parseHandleOption))
        let result = try importBytes(b, handleMap: map)
        #expect(result.events == [.notify(at: .init(secondsSince1970: time), .drinkData, value: [1, 2])])
        #expect(result.unmappedHandles == [0x0030])
    }

    @Test("options override the capture's discovery")
    func optionsOverrideDiscovery() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        TestGATT.discover(&b)
        b.att(BtsnoopBuilder.notification(handle: TestGATT.currentStateValue, [1]), .received)
        b.att(BtsnoopBuilder.notification(handle: TestGATT.drinkDataValue, [2]), .received)
        let result = try importBytes(b, handleMap: [TestGATT.currentStateValue: .activityStats])
        #expect(result.events.map(\.characteristic) == [.known(.activityStats), .known(.drinkData)])
    }

    @Test("writes to descriptors found by discovery are skipped silently")
    func descriptorWrites() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        TestGATT.discover(&b)
        b.att(BtsnoopBuilder.writeRequest(handle: TestGATT.currentStateCCCD, [0x01, 0x00]), .sent)
        b.att(BtsnoopBuilder.writeResponse, .received)
        b.att([0x04] + BtsnoopBuilder.le16(0x001A) + BtsnoopBuilder.le16(0x001A), .sent)  // Find Information
        b.att(BtsnoopBuilder.findInformationResponse([(0x001A, 0x2902)]), .received)
        b.att(BtsnoopBuilder.writeRequest(handle: TestGATT.drinkDataCCCD, [0x02, 0x00]), .sent)
        let result = try importBytes(b)
        #expect(result.events == [])
        #expect(result.unmappedHandles == [])
        #expect(result.errors == [])
    }

    @Test("a long read (read, then read blob) is one read event of the whole value")
    func longRead() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        TestGATT.discover(&b)
        let chunk = (0..<286).map { UInt8(truncatingIfNeeded: $0) }  // a full 20-record chunk
        b.att(BtsnoopBuilder.readRequest(handle: TestGATT.drinkDataValue), .sent)
        b.att(BtsnoopBuilder.readResponse(Array(chunk[0..<246])), .received)
        b.att(BtsnoopBuilder.readBlobRequest(handle: TestGATT.drinkDataValue, offset: 246), .sent)
        b.att(BtsnoopBuilder.readBlobResponse(Array(chunk[246...])), .received)
        let time = b.lastRecordSeconds
        b.att(BtsnoopBuilder.notification(handle: TestGATT.currentStateValue, [7]), .received)
        let result = try importBytes(b)
        #expect(result.errors == [])
        #expect(result.events == [
            .read(at: .init(secondsSince1970: time), .drinkData, value: chunk),
            .notify(at: .init(secondsSince1970: b.lastRecordSeconds), .currentState, value: [7]),
        ])
    }

    @Test("a notification between the parts of a long read leaves the read whole")
    func notificationDuringLongRead() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        TestGATT.discover(&b)
        let chunk = (0..<286).map { UInt8(truncatingIfNeeded: 255 - $0) }
        b.att(BtsnoopBuilder.readRequest(handle: TestGATT.drinkDataValue), .sent)
        b.att(BtsnoopBuilder.readResponse(Array(chunk[0..<246])), .received)
        b.att(BtsnoopBuilder.notification(handle: TestGATT.currentStateValue, [7]), .received)
        let notifyTime = b.lastRecordSeconds
        b.att(BtsnoopBuilder.readBlobRequest(handle: TestGATT.drinkDataValue, offset: 246), .sent)
        b.att(BtsnoopBuilder.readBlobResponse(Array(chunk[246...])), .received)
        let readTime = b.lastRecordSeconds
        let result = try importBytes(b)
        #expect(result.errors == [])
        #expect(result.events == [
            .notify(at: .init(secondsSince1970: notifyTime), .currentState, value: [7]),
            .read(at: .init(secondsSince1970: readTime), .drinkData, value: chunk),
        ])
    }

    @Test("a long read ended by an error response, and one that is the last thing in the file")
    func longReadEndings() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        TestGATT.discover(&b)
        let exact = [UInt8](repeating: 5, count: 246)
        b.att(BtsnoopBuilder.readRequest(handle: TestGATT.drinkDataValue), .sent)
        b.att(BtsnoopBuilder.readResponse(exact), .received)
        let first = b.lastRecordSeconds
        b.att(BtsnoopBuilder.readBlobRequest(handle: TestGATT.drinkDataValue, offset: 246), .sent)
        b.att(BtsnoopBuilder.errorResponse(request: 0x0C, handle: TestGATT.drinkDataValue, code: 0x07), .received)
        b.att(BtsnoopBuilder.readRequest(handle: TestGATT.drinkDataValue), .sent)
        b.att(BtsnoopBuilder.readResponse(exact), .received)
        let second = b.lastRecordSeconds
        let result = try importBytes(b)
        #expect(result.events == [.read(at: .init(secondsSince1970: first), .drinkData, value: exact), .read(at: .init(secondsSince1970: second), .drinkData, value: exact)])
    }

    @Test("MTU in the header is the smaller of the two offers")
    func mtu() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.att(BtsnoopBuilder.mtuRequest(185), .sent)
        b.att(BtsnoopBuilder.mtuResponse(247), .received)
        #expect(try importBytes(b).header.mtu == 185)
    }

    @Test("a failed connection attempt is not a connect")
    func failedConnection() throws {
        var b = BtsnoopBuilder(datalink: 1001)
        b.leConnectionComplete(status: 0x3E)
        #expect(try importBytes(b).events == [])
    }

    @Test("--handle option parsing", arguments: [
        ("drink-data=0x0012", UInt16(0x12), Characteristic.drinkData),
        ("command=0X1c", 0x1C, .command),
        ("battery-level=42", 42, .batteryLevel),
        ("6f75616b-7661-7465-2d00-000000000003=0xffff", 0xFFFF, .syncControl),
    ])
    func handleOption(text: String, handle: UInt16, characteristic: Characteristic) throws {
        let parsed = try BtsnoopImporter.parseHandleOption(text)
        #expect(parsed.0 == handle)
        #expect(parsed.1 == characteristic)
    }

    @Test("bad --handle options are refused", arguments: ["drink-data", "water=0x12", "drink-data=0x", "drink-data=0x10000", "drink-data=0", "drink-data=0xzz", "drink-data=-1"])
    func badHandleOption(text: String) {
        #expect(throws: HandleOptionInvalid.self) { try BtsnoopImporter.parseHandleOption(text) }
    }

    @Test("the handle option error says what is expected")
    func handleOptionMessage() {
        let error = HandleOptionInvalid(text: "water=0x12", problem: "unknown characteristic \"water\"")
        #expect(error.description.hasPrefix("--handle \"water=0x12\": unknown characteristic \"water\"; expected NAME=0xHHHH with NAME one of current-state, "))
    }

    @Test("a missing file is a thrown error naming it")
    func missingFile() {
        #expect(throws: CaptureFileUnreadable(path: "/nonexistent/capture.btsnoop", reason: "No such file or directory")) {
            try BtsnoopImporter().importFile(path: "/nonexistent/capture.btsnoop")
        }
    }

    @Test("a btsnoop file on disk imports like the same bytes in memory")
    func fromDisk() throws {
        var b = BtsnoopBuilder(datalink: 1002)
        b.leConnectionComplete()
        b.att(BtsnoopBuilder.notification(handle: 0x0019, TestGATT.fullChunk), .received)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.file("capture.btsnoop")
        try Data(b.bytes).write(to: URL(fileURLWithPath: path))
        let importer = BtsnoopImporter(handleMap: [0x0019: .drinkData])
        let fromDisk = try importer.importFile(path: path)
        let fromMemory = try importer.importData(b.bytes, name: path)
        #expect(fromDisk == fromMemory)
        #expect(fromDisk.events.count == 2)
    }
}

@Suite("btsnoop import: less common PDUs")
struct BtsnoopLessCommonTests {
    @Test("indications and multiple-handle notifications are notify events")
    func indicationsAndMultipleNotifications() throws {
        var b = BtsnoopBuilder(datalink: 2001)
        b.att([0x1D] + BtsnoopBuilder.le16(0x0012) + [1, 2], .received)
        let first = b.lastRecordSeconds
        b.att([0x23] + BtsnoopBuilder.le16(0x0012) + BtsnoopBuilder.le16(1) + [3] + BtsnoopBuilder.le16(0x0019) + BtsnoopBuilder.le16(2) + [4, 5], .received)
        let second = b.lastRecordSeconds
        let result = try BtsnoopImporter(handleMap: [0x0012: .currentState, 0x0019: .drinkData]).importData(b.bytes, name: "x")
        #expect(result.events == [
            .notify(at: .init(secondsSince1970: first), .currentState, value: [1, 2]),
            .notify(at: .init(secondsSince1970: second), .currentState, value: [3]),
            .notify(at: .init(secondsSince1970: second), .drinkData, value: [4, 5]),
        ])
    }

    @Test("an unknown H4 packet type and a short ATT PDU are record errors")
    func malformedPackets() throws {
        var b = BtsnoopBuilder(datalink: 1002)
        b.record(flags: 1, data: [0x09, 0x00])
        b.att([0x1B, 0x19], .received)
        let result = try BtsnoopImporter(handleMap: [0x0019: .drinkData]).importData(b.bytes, name: "x")
        #expect(result.errors.map(\.line) == [1, 2])
        #expect(result.errors.map(\.message) == ["unknown H4 packet type 0x09; expected 0x01…0x05", "ATT PDU 0x1b too short"])
    }
}
