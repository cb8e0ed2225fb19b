/// The btsnoop container (INTEGRATIONS.md 3, from BlueZ `src/shared/btsnoop.c`): a 16-byte
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
public struct BtsnoopFileRejected: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    /// What was found and what is supported, one line.
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}

struct BtsnoopRecord {
    /// 1-based position in the file, the `line` of errors about it.
    let number: Int
    let flags: UInt32
    /// Microseconds since 1970, converted from btsnoop's year-0 epoch.
    let unixMicroseconds: Int64
    let data: ArraySlice<UInt8>
}

struct BtsnoopFile {
    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]
    static let headerSize = 16
    static let recordHeaderSize = 24
    /// BlueZ refuses larger records (`BTSNOOP_MAX_PACKET_SIZE` 1486 + 4).
    static let maximumIncludedLength = 1490
    /// btsnoop timestamps count microseconds from 0000-01-01; this is 1970-01-01 on that scale.
    static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    let datalink: BtsnoopDatalink
    private let bytes: [UInt8]

    init(bytes: [UInt8], name: String) throws(BtsnoopFileRejected) {
        guard bytes.count >= Self.headerSize else {
            throw BtsnoopFileRejected(file: name, message:
                "\(bytes.count) bytes is too short for the 16-byte btsnoop header; expected a btsnoop file (btmon -w, Android btsnoop_hci.log)")
        }
        guard Array(bytes[0..<8]) == Self.magic else {
            let found = bytes[0..<8].map { Hex.encode([$0]) }.joined(separator: " ")
            throw BtsnoopFileRejected(file: name, message:
                "not a btsnoop file: starts with \(found), expected 62 74 73 6e 6f 6f 70 00 (\"btsnoop\\0\")")
        }
        var cursor = ByteCursor(bytes[8..<16])
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
        self.bytes = bytes
    }

    enum Item {
        case record(BtsnoopRecord)
        /// A record that can't be framed; nothing after it can be either, so it is the last item.
        case broken(number: Int, message: String)
    }

    /// Every record in order; a framing problem ends the sequence.
    func makeRecordIterator() -> RecordIterator { RecordIterator(bytes: bytes) }

    struct RecordIterator: IteratorProtocol {
        let bytes: [UInt8]
        private var offset = BtsnoopFile.headerSize
        private var number = 0
        private var stopped = false

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func next() -> Item? {
            guard !stopped, offset < bytes.count else { return nil }
            number += 1
            let available = bytes.count - offset
            guard available >= BtsnoopFile.recordHeaderSize else {
                return stop("truncated record header at end of file: \(available) of \(BtsnoopFile.recordHeaderSize) bytes")
            }
            var cursor = ByteCursor(bytes[offset..<offset + BtsnoopFile.recordHeaderSize])
            _ = cursor.u32be()  // original length: larger than included when the capture was cut short
            let includedLength = Int(cursor.u32be() ?? 0)
            let flags = cursor.u32be() ?? 0
            _ = cursor.u32be()  // cumulative drops
            let timestamp = cursor.i64be() ?? 0
            guard includedLength <= BtsnoopFile.maximumIncludedLength else {
                return stop("record length \(includedLength) exceeds the btsnoop maximum \(BtsnoopFile.maximumIncludedLength); the rest of the file is not read")
            }
            let dataStart = offset + BtsnoopFile.recordHeaderSize
            guard bytes.count - dataStart >= includedLength else {
                return stop("truncated record at end of file: \(bytes.count - dataStart) of \(includedLength) bytes")
            }
            offset = dataStart + includedLength
            let (unix, overflow) = timestamp.subtractingReportingOverflow(BtsnoopFile.unixEpochOffset)
            return .record(BtsnoopRecord(number: number, flags: flags,
                                         unixMicroseconds: overflow ? Int64.min : unix,
                                         data: bytes[dataStart..<offset]))
        }

        private mutating func stop(_ message: String) -> Item {
            stopped = true
            return .broken(number: number, message: message)
        }
    }
}
