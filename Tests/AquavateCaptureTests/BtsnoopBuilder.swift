// Builds btsnoop files in memory for the importer's tests: the file header, records for each
// datalink, ACL fragmentation, HCI events and the ATT PDUs of a bottle conversation.

import Foundation

struct BtsnoopBuilder {
    enum Direction { case sent, received }

    let datalink: UInt32
    private(set) var bytes: [UInt8]
    /// Microseconds since 1970 of the next record; each record advances it by `step`.
    var time: Int64
    var step: Int64 = 1_000
    /// Records written so far (the number of the last one).
    private(set) var recordCount = 0

    static let epochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    init(datalink: UInt32, startTime: Int64 = 1_763_712_000_000_000, magic: [UInt8] = Array("btsnoop".utf8) + [0], version: UInt32 = 1) {
        self.datalink = datalink
        self.time = startTime
        bytes = magic + Self.be32(version) + Self.be32(datalink)
    }

    /// The time of the last record written, in seconds since 1970.
    var lastRecordSeconds: Double { Double(time - step) / 1_000_000 }

    // MARK: Records

    mutating func record(flags: UInt32, data: [UInt8], includedLength: UInt32? = nil) {
        let length = includedLength ?? UInt32(data.count)
        bytes += Self.be32(UInt32(data.count)) + Self.be32(length) + Self.be32(flags) + Self.be32(0)
        bytes += Self.be64(UInt64(bitPattern: time + Self.epochOffset))
        bytes += data
        recordCount += 1
        time += step
    }

    mutating func raw(_ extra: [UInt8]) { bytes += extra }

    /// An HCI packet of kind ACL or event, framed for the datalink.
    mutating func hci(acl: Bool, direction: Direction, data: [UInt8], controller: UInt16 = 0) {
        switch datalink {
        case 1001, 1002:
            let received: UInt32 = direction == .received ? 1 : 0
            let flags = (acl ? 0 : 2) | received
            let h4: [UInt8] = datalink == 1002 ? [acl ? 0x02 : 0x04] : []
            record(flags: flags, data: h4 + data)
        default:
            let opcode: UInt32 = acl ? (direction == .sent ? 4 : 5) : 3
            record(flags: UInt32(controller) << 16 | opcode, data: data)
        }
    }

    /// A raw ACL fragment with its 4-byte header.
    mutating func aclFragment(connection: UInt16, boundary: UInt16, payload: [UInt8], direction: Direction, controller: UInt16 = 0) {
        let handleFlags = connection | boundary << 12
        hci(acl: true, direction: direction, data: Self.le16(handleFlags) + Self.le16(UInt16(payload.count)) + payload, controller: controller)
    }

    /// The fragments of one L2CAP frame on the ATT channel, `fragmentSize` bytes of ACL data each.
    static func fragments(att pdu: [UInt8], fragmentSize: Int = 27, cid: UInt16 = 0x0004) -> [[UInt8]] {
        let frame = le16(UInt16(pdu.count)) + le16(cid) + pdu
        return stride(from: 0, to: frame.count, by: fragmentSize).map { Array(frame[$0..<min($0 + fragmentSize, frame.count)]) }
    }

    /// An ATT PDU sent whole or in fragments (start PB 0x00 sent, 0x02 received; then 0x01).
    mutating func att(_ pdu: [UInt8], _ direction: Direction, connection: UInt16 = 0x0040, fragmentSize: Int = 27, controller: UInt16 = 0) {
        for (index, fragment) in Self.fragments(att: pdu, fragmentSize: fragmentSize).enumerated() {
            let boundary: UInt16 = index > 0 ? 0x01 : (direction == .sent ? 0x00 : 0x02)
            aclFragment(connection: connection, boundary: boundary, payload: fragment, direction: direction, controller: controller)
        }
    }

    // MARK: HCI events

    mutating func event(code: UInt8, parameters: [UInt8], controller: UInt16 = 0) {
        hci(acl: false, direction: .received, data: [code, UInt8(parameters.count)] + parameters, controller: controller)
    }

    /// LE Connection Complete (subevent 0x01) or Enhanced (0x0A), peer address as written
    /// ("F4:12:FA:00:A3:F4").
    mutating func leConnectionComplete(connection: UInt16 = 0x0040, address: String = "F4:12:FA:00:A3:F4", enhanced: Bool = false, status: UInt8 = 0, controller: UInt16 = 0) {
        let addressBytes = address.split(separator: ":").map { UInt8($0, radix: 16)! }.reversed()
        var parameters: [UInt8] = [enhanced ? 0x0A : 0x01, status] + Self.le16(connection) + [0x00, 0x00] + addressBytes
        if enhanced { parameters += [UInt8](repeating: 0, count: 12) }
        parameters += Self.le16(0x0018) + Self.le16(0) + Self.le16(0x01F4) + [0x00]
        event(code: 0x3E, parameters: parameters, controller: controller)
    }

    mutating func disconnectionComplete(connection: UInt16 = 0x0040, reason: UInt8, controller: UInt16 = 0) {
        event(code: 0x05, parameters: [0x00] + Self.le16(connection) + [reason], controller: controller)
    }

    // MARK: ATT PDUs

    static func notification(handle: UInt16, _ value: [UInt8]) -> [UInt8] { [0x1B] + le16(handle) + value }
    static func writeRequest(handle: UInt16, _ value: [UInt8]) -> [UInt8] { [0x12] + le16(handle) + value }
    static func writeCommand(handle: UInt16, _ value: [UInt8]) -> [UInt8] { [0x52] + le16(handle) + value }
    static let writeResponse: [UInt8] = [0x13]
    static func readRequest(handle: UInt16) -> [UInt8] { [0x0A] + le16(handle) }
    static func readResponse(_ value: [UInt8]) -> [UInt8] { [0x0B] + value }
    static func readBlobRequest(handle: UInt16, offset: UInt16) -> [UInt8] { [0x0C] + le16(handle) + le16(offset) }
    static func readBlobResponse(_ value: [UInt8]) -> [UInt8] { [0x0D] + value }
    static func errorResponse(request: UInt8, handle: UInt16, code: UInt8) -> [UInt8] { [0x01, request] + le16(handle) + [code] }
    static func mtuRequest(_ mtu: UInt16) -> [UInt8] { [0x02] + le16(mtu) }
    static func mtuResponse(_ mtu: UInt16) -> [UInt8] { [0x03] + le16(mtu) }
    static func readByTypeRequest(start: UInt16, end: UInt16, type: UInt16) -> [UInt8] { [0x08] + le16(start) + le16(end) + le16(type) }

    /// A characteristic declaration as discovery reports it.
    struct Declaration {
        let handle: UInt16
        let properties: UInt8
        let valueHandle: UInt16
        /// Text UUID: 4 hex digits (16-bit) or the full 36-character form.
        let uuid: String
    }

    /// Read By Type response for 0x2803: all entries must have UUIDs of one size.
    static func readByTypeResponse(_ declarations: [Declaration]) -> [UInt8] {
        let uuids = declarations.map { uuidLE($0.uuid) }
        var pdu: [UInt8] = [0x09, UInt8(5 + uuids[0].count)]
        for (declaration, uuid) in zip(declarations, uuids) {
            pdu += le16(declaration.handle) + [declaration.properties] + le16(declaration.valueHandle) + uuid
        }
        return pdu
    }

    static func findInformationResponse(_ entries: [(UInt16, UInt16)]) -> [UInt8] {
        [0x05, 0x01] + entries.flatMap { le16($0.0) + le16($0.1) }
    }

    static func uuidLE(_ text: String) -> [UInt8] {
        let hex = text.replacingOccurrences(of: "-", with: "")
        let big = stride(from: 0, to: hex.count, by: 2).map { offset -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        return big.reversed()
    }

    // MARK: Integers

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
    static func be64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
}
