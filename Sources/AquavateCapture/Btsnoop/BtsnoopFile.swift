/// The btsnoop container (docs/integrations.md 3, from BlueZ `src/shared/btsnoop.c`): a 16-byte
/// big-endian file header, then records of a 24-byte header and `included_len` bytes.

/// The datalinks the importer understands.
enum BtsnoopDatalink: UInt32 {
    /// HCI packets without framing; the record flags say which kind.
    case hci = 1001
    /// HCI with a leading H4 packet-type byte (Android's `btsnoop_hci.log`).
    case hciUART = 1002
    /// The Linux monitor channel (`btmon -w`): flags carry controller index and opcode.
    case linuxMonitor = 2001

    static let supportedList = "1001 (HCI), 1002 (HCI UART, H4), 2001 (Linux monitor, btmon -w)"

    /// Names of every datalink btsnoop defines, for messages about the unsupported ones.
    static func name(of value: UInt32) -> String? {
        switch value {
        case 1001: return "HCI"
        case 1002: return "HCI UART, H4"
        case 1003: return "HCI BCSP"
        case 1004: return "HCI 3-wire, H5"
        case 2001: return "Linux monitor"
        case 2002: return "simulator"
        default: return nil
        }
    }
}

/// A btsnoop file the importer refuses as a whole: not btsnoop, or a variant it can't read.
package struct BtsnoopFileRejected: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    /// What was found and what is supported, one line.
    package var message: String

    package init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    package var description: String { "\(file): \(message)" }
}

struct BtsnoopRecord {
    /// 1-based position in the file, the `line` of errors about it.
    let number: Int
    let flags: UInt32
    /// Microseconds since 1970, converted from btsnoop's year-0 epoch.
    let unixMicroseconds: Int64
    let data: ArraySlice<UInt8>
}

/// A btsnoop file read front to back through a BlockReader: the header when it is opened, then
/// one record at a time.
struct BtsnoopFile {
    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    static let headerSize = 16
    static let recordHeaderSize = 24
    /// BlueZ refuses larger records (`BTSNOOP_MAX_PACKET_SIZE` 1486 + 4).
    static let maximumIncludedLength = 1490
    /// btsnoop timestamps count microseconds from 0000-01-01; this is 1970-01-01 on that scale.
    static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    let datalink: BtsnoopDatalink
    private var reader: BlockReader
    private var number = 0
    private var stopped = false

    /// Reads and checks the header. Throws `CaptureFileUnreadable` when the source cannot be
    /// read, `BtsnoopFileRejected` when it is not a btsnoop file this importer reads.
    init(source: ByteSource, name: String) throws {
        var reader = BlockReader(source)
        let header = reader.take(Self.headerSize)
        if let failure = reader.failure { throw CaptureFileUnreadable(path: name, reason: failure) }
        guard header.count >= Self.headerSize else {
            throw BtsnoopFileRejected(file: name, message:
                "\(header.count) bytes is too short for the 16-byte btsnoop header; expected a btsnoop file (btmon -w, Android btsnoop_hci.log)")
        }
        guard Array(header[0..<8]) == Self.magic else {
            let found = header[0..<8].map { Hex.encode([$0]) }.joined(separator: " ")
            throw BtsnoopFileRejected(file: name, message:
                "not a btsnoop file: starts with \(found), expected 62 74 73 6e 6f 6f 70 00 (\"btsnoop\\0\")")
        }
        var cursor = ByteCursor(header[8..<16])
        let version = cursor.u32be() ?? 0
        let datalinkValue = cursor.u32be() ?? 0
        guard version == 1 else {
            throw BtsnoopFileRejected(file: name, message: "btsnoop version \(version) is not supported; supported: version 1")
        }
        guard let datalink = BtsnoopDatalink(rawValue: datalinkValue) else {
            let known = BtsnoopDatalink.name(of: datalinkValue).map { " (\($0))" } ?? ""
            throw BtsnoopFileRejected(file: name, message:
                "btsnoop datalink \(datalinkValue)\(known) is not supported; supported: \(BtsnoopDatalink.supportedList)")
        }
        self.datalink = datalink
        self.reader = reader
    }

    enum Item {
        case record(BtsnoopRecord)
        /// A record that can't be framed; nothing after it can be either, so it is the last item.
        case broken(number: Int, message: String)
        /// The source failed to read (an I/O error); the last item.
        case unreadable(reason: String)
    }

    /// The next record in order; a framing problem or a read failure ends the sequence.
    mutating func next() -> Item? {
        guard !stopped else { return nil }
        let headerBytes = reader.fill(Self.recordHeaderSize)
        if let failure = reader.failure { return unreadable(failure) }
        guard headerBytes > 0 else { return nil }
        number += 1
        guard headerBytes >= Self.recordHeaderSize else {
            return stop("truncated record header at end of file: \(headerBytes) of \(Self.recordHeaderSize) bytes")
        }
        let header = reader.take(Self.recordHeaderSize)
        var cursor = ByteCursor(header[...])
        _ = cursor.u32be()  // original length: larger than included when the capture was cut short
        let includedLength = Int(cursor.u32be() ?? 0)
        let flags = cursor.u32be() ?? 0
        _ = cursor.u32be()  // cumulative drops
        let timestamp = cursor.i64be() ?? 0
        guard includedLength <= Self.maximumIncludedLength else {
            return stop("record length \(includedLength) exceeds the btsnoop maximum \(Self.maximumIncludedLength); the rest of the file is not read")
        }
        let data = reader.take(includedLength)
        if let failure = reader.failure { return unreadable(failure) }
        guard data.count == includedLength else {
            return stop("truncated record at end of file: \(data.count) of \(includedLength) bytes")
        }
        let (unix, overflow) = timestamp.subtractingReportingOverflow(Self.unixEpochOffset)
        return .record(BtsnoopRecord(number: number, flags: flags,
                                     unixMicroseconds: overflow ? Int64.min : unix, data: data[...]))
    }

    private mutating func stop(_ message: String) -> Item {
        stopped = true
        return .broken(number: number, message: message)
    }

    private mutating func unreadable(_ reason: String) -> Item {
        stopped = true
        return .unreadable(reason: reason)
    }
}
