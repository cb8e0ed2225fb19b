import AquavateProtocol
import Timekeeping

/// Walks a btsnoop file's records and turns the bottle conversation into capture events:
/// HCI connection events, ATT notifications, writes and (long) reads, MTU exchanges, and the
/// GATT discovery that names the handles. One per import; holds the per-connection state.
struct BtsnoopDecoder {
    private let file: String
    private let datalink: BtsnoopDatalink
    private let handleMap: [UInt16: Characteristic]

    private var reassembler = ACLReassembler()
    private var gatt = GATTHandleTable()
    private var connections: [ConnectionKey: ConnectionState] = [:]

    private(set) var events: [CaptureEvent] = []
    private(set) var errors: [CaptureLineError] = []
    private(set) var unmappedHandles: Set<UInt16> = []
    private(set) var firstTime: WallInstant?
    private(set) var mtu: Int?
    private(set) var deviceAddress: String?
    private(set) var deviceName: String?

    init(file: String, datalink: BtsnoopDatalink, handleMap: [UInt16: Characteristic]) {
        self.file = file
        self.datalink = datalink
        self.handleMap = handleMap
    }

    // MARK: Per-connection state

    struct ConnectionKey: Hashable {
        let controller: UInt16
        let handle: UInt16
    }

    /// The client's outstanding ATT request: responses carry no handle or type, so their
    /// meaning comes from the request.
    enum PendingRequest {
        case exchangeMTU(client: Int)
        case readByType(UInt16?)
        case readByGroupType(UInt16?)
        case findInformation
        case read(UInt16)
        case readBlob(handle: UInt16, offset: Int)
        case other
    }

    /// A read whose value may continue in Read Blob responses (a long read).
    struct LongRead {
        let handle: UInt16
        var value: [UInt8]
        var time: WallInstant
    }

    struct ConnectionState {
        var mtu = defaultATTMTU
        var pending: PendingRequest?
        var longRead: LongRead?
    }

    // MARK: Records

    mutating func consume(_ record: BtsnoopRecord) {
        switch HCIPacket(record: record, datalink: datalink) {
        case .ignored:
            return
        case .malformed(let message):
            report(record.number, message)
        case .event(let controller, let bytes):
            guard let time = time(of: record) else { return }
            hciEvent(Array(bytes), controller: controller, time: time, record: record.number)
        case .acl(let controller, let direction, let bytes):
            guard let time = time(of: record) else { return }
            acl(Array(bytes), controller: controller, direction: direction, time: time, record: record.number)
        }
    }

    mutating func report(_ record: Int, _ message: String) {
        errors.append(CaptureLineError(file: file, line: record, message: message))
    }

    /// Ends the file: long reads still open are complete, fragments still buffered never will be.
    mutating func finish() {
        for key in connections.keys.sorted(by: { ($0.controller, $0.handle) < ($1.controller, $1.handle) }) {
            finishLongRead(key)
        }
        for (key, partial) in reassembler.drainAll() {
            report(partial.startRecord, "ACL packet never completed: \(partial.bytes.count) of \(partial.expected) bytes on connection \(ACLReassembler.describe(key)) at end of file")
        }
    }

    private mutating func time(of record: BtsnoopRecord) -> WallInstant? {
        guard record.unixMicroseconds >= 0 else {
            report(record.number, "timestamp before 1970; record skipped")
            return nil
        }
        let time = Double(record.unixMicroseconds) / 1_000_000
        // Replay ticks every minute up to it: the same end as an aqcap line's `t`.
        guard time < CaptureTimeBounds.end.secondsSince1970 else {
            report(record.number, "timestamp after \(ISO8601Text.format(CaptureTimeBounds.end)) (\(time) s since 1970); record skipped")
            return nil
        }
        let instant = WallInstant(secondsSince1970: time)
        if firstTime == nil { firstTime = instant }
        return instant
    }

    // MARK: HCI events

    private mutating func hciEvent(_ bytes: [UInt8], controller: UInt16, time: WallInstant, record: Int) {
        var cursor = ByteCursor(bytes)
        guard let code = cursor.u8(), let length = cursor.u8(), let parameters = cursor.take(Int(length)) else {
            report(record, "HCI event shorter than its header says (\(bytes.count) bytes)")
            return
        }
        var fields = ByteCursor(parameters)
        switch code {
        case 0x05:  // Disconnection Complete: status, handle, reason
            guard let status = fields.u8(), let handle = fields.u16le(), let reason = fields.u8() else {
                report(record, "Disconnection Complete event too short (\(parameters.count) bytes)")
                return
            }
            guard status == 0 else { return }
            disconnected(ConnectionKey(controller: controller, handle: handle & 0x0FFF),
                         reason: HCIDisconnectReason.text(reason), time: time, record: record)
        case 0x3E:  // LE Meta
            guard let subevent = fields.u8() else { return }
            // LE Connection Complete (0x01), Enhanced Connection Complete v1 (0x0A) and v2 (0x29)
            // begin alike: status, handle, role, peer address type, peer address.
            guard [0x01, 0x0A, 0x29].contains(subevent) else { return }
            guard let status = fields.u8(), let handle = fields.u16le(), fields.u8() != nil, fields.u8() != nil,
                  let address = fields.take(6)
            else {
                report(record, "LE Connection Complete event too short (\(parameters.count) bytes)")
                return
            }
            guard status == 0 else { return }
            let key = ConnectionKey(controller: controller, handle: handle & 0x0FFF)
            connections[key] = ConnectionState()
            deviceAddress = address.reversed().map { Hex.encode([$0]).uppercased() }.joined(separator: ":")
            events.append(.connect(at: time))
        default:
            return
        }
    }

    private mutating func disconnected(_ key: ConnectionKey, reason: String, time: WallInstant, record: Int) {
        finishLongRead(key)
        connections[key] = nil
        for (fragmentKey, partial) in reassembler.drain(controller: key.controller, connection: key.handle) {
            report(partial.startRecord, "ACL packet never completed: \(partial.bytes.count) of \(partial.expected) bytes on connection \(ACLReassembler.describe(fragmentKey)) before the disconnection at record \(record)")
        }
        events.append(.disconnect(at: time, reason: reason))
    }

    // MARK: ACL and L2CAP

    private mutating func acl(_ bytes: [UInt8], controller: UInt16, direction: HCIDirection, time: WallInstant, record: Int) {
        var cursor = ByteCursor(bytes)
        guard let handleAndFlags = cursor.u16le(), let length = cursor.u16le() else {
            report(record, "ACL packet shorter than its 4-byte header (\(bytes.count) bytes)")
            return
        }
        guard let fragment = cursor.take(Int(length)) else {
            report(record, "ACL packet says \(length) data bytes but holds \(cursor.remaining)")
            return
        }
        let connection = handleAndFlags & 0x0FFF
        let boundary = UInt8((handleAndFlags >> 12) & 0x03)
        let key = ACLReassembler.Key(controller: controller, direction: direction, connection: connection)
        let outcome = reassembler.accept(fragment: fragment, boundary: boundary, key: key, record: record)
        for problem in outcome.problems { report(record, problem) }
        guard let frame = outcome.frame else { return }
        var l2cap = ByteCursor(frame)
        _ = l2cap.u16le()
        guard l2cap.u16le() == 0x0004 else { return }  // only the ATT fixed channel
        att(l2cap.rest(), connection: ConnectionKey(controller: controller, handle: connection),
            direction: direction, time: time, record: record)
    }

    // MARK: ATT

    private mutating func att(_ pdu: [UInt8], connection key: ConnectionKey, direction: HCIDirection, time: WallInstant, record: Int) {
        guard let opcode = pdu.first else {
            report(record, "empty ATT PDU")
            return
        }
        var state = connections[key] ?? ConnectionState()
        if let longRead = state.longRead, !Self.isServerInitiated(opcode, direction: direction),
           !continuesLongRead(longRead, opcode: opcode, pdu: pdu, direction: direction, state: state) {
            state.longRead = nil
            emitRead(longRead)
        }
        var fields = ByteCursor(pdu)
        _ = fields.u8()
        switch direction {
        case .sent:
            sentATT(opcode, &fields, state: &state, time: time, record: record)
        case .received:
            receivedATT(opcode, &fields, state: &state, time: time, record: record)
        }
        connections[key] = state
    }

    /// Notifications and indications (and the confirmation of one) may come between a
    /// request and its response, so they neither continue nor end a long read.
    private static func isServerInitiated(_ opcode: UInt8, direction: HCIDirection) -> Bool {
        switch direction {
        case .received:
            return [ATTOpcode.handleValueNotification, ATTOpcode.handleValueIndication,
                    ATTOpcode.multipleHandleValueNotification].contains(opcode)
        case .sent:
            return opcode == 0x1E  // Handle Value Confirmation
        }
    }

    /// Whether a PDU is the next step of an open long read: the Read Blob request for the
    /// bytes so far, or the response to it.
    private func continuesLongRead(_ read: LongRead, opcode: UInt8, pdu: [UInt8], direction: HCIDirection, state: ConnectionState) -> Bool {
        switch (direction, opcode) {
        case (.sent, ATTOpcode.readBlobRequest):
            var fields = ByteCursor(pdu)
            _ = fields.u8()
            return fields.u16le() == read.handle && fields.u16le().map(Int.init) == read.value.count
        case (.received, ATTOpcode.readBlobResponse), (.received, ATTOpcode.errorResponse):
            if case .readBlob(let handle, _) = state.pending { return handle == read.handle }
            return false
        default:
            return false
        }
    }

    private mutating func sentATT(_ opcode: UInt8, _ fields: inout ByteCursor, state: inout ConnectionState, time: WallInstant, record: Int) {
        switch opcode {
        case ATTOpcode.exchangeMTURequest:
            guard let client = fields.u16le() else { return malformedATT(opcode, record) }
            state.pending = .exchangeMTU(client: Int(client))
        case ATTOpcode.readByTypeRequest, ATTOpcode.readByGroupTypeRequest:
            guard fields.u16le() != nil, fields.u16le() != nil else { return malformedATT(opcode, record) }
            let type = BluetoothUUID.uuid16(littleEndian: fields.rest())
            state.pending = opcode == ATTOpcode.readByTypeRequest ? .readByType(type) : .readByGroupType(type)
        case ATTOpcode.findInformationRequest:
            state.pending = .findInformation
        case ATTOpcode.readRequest:
            guard let handle = fields.u16le() else { return malformedATT(opcode, record) }
            state.pending = .read(handle)
        case ATTOpcode.readBlobRequest:
            guard let handle = fields.u16le(), let offset = fields.u16le() else { return malformedATT(opcode, record) }
            state.pending = .readBlob(handle: handle, offset: Int(offset))
        case ATTOpcode.writeRequest, ATTOpcode.writeCommand:
            guard let handle = fields.u16le() else { return malformedATT(opcode, record) }
            if opcode == ATTOpcode.writeRequest { state.pending = .other }
            emit(.write, handle: handle, value: fields.rest(), time: time)
        case 0x06, 0x0E, 0x16, 0x18, 0x20:
            // Another request (find by type value, read multiple, prepare/execute write):
            // forget the outstanding one so its response isn't misread.
            state.pending = .other
        default:
            return
        }
    }

    private mutating func receivedATT(_ opcode: UInt8, _ fields: inout ByteCursor, state: inout ConnectionState, time: WallInstant, record: Int) {
        let pending = state.pending
        if ATTOpcode.responses.contains(opcode) { state.pending = nil }
        switch opcode {
        case ATTOpcode.handleValueNotification, ATTOpcode.handleValueIndication:
            guard let handle = fields.u16le() else { return malformedATT(opcode, record) }
            emit(.notify, handle: handle, value: fields.rest(), time: time)
        case ATTOpcode.multipleHandleValueNotification:
            while fields.remaining > 0 {
                guard let handle = fields.u16le(), let length = fields.u16le(), let value = fields.take(Int(length)) else {
                    return malformedATT(opcode, record)
                }
                emit(.notify, handle: handle, value: value, time: time)
            }
        case ATTOpcode.exchangeMTUResponse:
            guard let server = fields.u16le() else { return malformedATT(opcode, record) }
            guard case .exchangeMTU(let client) = pending else { return }
            state.mtu = max(defaultATTMTU, min(client, Int(server)))
            mtu = state.mtu
        case ATTOpcode.readByTypeResponse:
            guard case .readByType(ATTOpcode.characteristicDeclaration) = pending else { return }
            declarations(&fields, record: record)
        case ATTOpcode.readByGroupTypeResponse:
            guard case .readByGroupType(let type) = pending,
                  type == ATTOpcode.primaryService || type == ATTOpcode.secondaryService else { return }
            services(&fields, record: record)
        case ATTOpcode.findInformationResponse:
            guard case .findInformation = pending else { return }
            descriptors(&fields, record: record)
        case ATTOpcode.readResponse:
            guard case .read(let handle) = pending else { return }
            let value = fields.rest()
            let read = LongRead(handle: handle, value: value, time: time)
            // A response filling the whole MTU may go on in Read Blob responses.
            if value.count >= state.mtu - 1 { state.longRead = read } else { emitRead(read) }
        case ATTOpcode.readBlobResponse:
            guard case .readBlob(let handle, let offset) = pending else { return }
            let part = fields.rest()
            guard var read = state.longRead, read.handle == handle, read.value.count == offset else {
                report(record, "Read Blob response for handle 0x\(String(format4: handle)) at offset \(offset) without the read it continues; dropped")
                return
            }
            read.value += part
            read.time = time
            if part.count >= state.mtu - 1 {
                state.longRead = read
            } else {
                state.longRead = nil
                emitRead(read)
            }
        case ATTOpcode.errorResponse:
            // Ends a long read whose length was a multiple of the blob size ("Invalid Offset",
            // "Attribute Not Long"): what was read is the value.
            if let read = state.longRead, case .readBlob = pending {
                state.longRead = nil
                emitRead(read)
            }
        default:
            return
        }
    }

    private mutating func malformedATT(_ opcode: UInt8, _ record: Int) {
        report(record, "ATT PDU 0x\(Hex.encode([opcode])) too short")
    }

    private mutating func finishLongRead(_ key: ConnectionKey) {
        guard let read = connections[key]?.longRead else { return }
        connections[key]?.longRead = nil
        emitRead(read)
    }

    private mutating func emitRead(_ read: LongRead) {
        if gatt.characteristicUUID(valueHandle: read.handle) == BluetoothUUID.text(uuid16: ATTOpcode.deviceName), handleMap[read.handle] == nil {
            let name = read.value.prefix { $0 != 0 }
            deviceName = String(decoding: name, as: UTF8.self)
        }
        emit(.read, handle: read.handle, value: read.value, time: read.time)
    }

    // MARK: Discovery

    /// Read By Type response to a 0x2803 request: {declaration handle, properties, value
    /// handle, UUID (2 or 16 bytes)} entries.
    private mutating func declarations(_ fields: inout ByteCursor, record: Int) {
        guard let length = fields.u8(), length == 7 || length == 21 else {
            return report(record, "Read By Type response for characteristics with an entry length other than 7 or 21; ignored")
        }
        while fields.remaining >= Int(length) {
            guard let handle = fields.u16le(), let properties = fields.u8(), let valueHandle = fields.u16le(),
                  let uuidBytes = fields.take(Int(length) - 5), let uuid = BluetoothUUID.text(littleEndian: uuidBytes)
            else { return }
            gatt.add(.init(handle: handle, properties: properties, valueHandle: valueHandle, uuid: uuid))
        }
    }

    /// Read By Group Type response: {start handle, end handle, UUID} entries.
    private mutating func services(_ fields: inout ByteCursor, record: Int) {
        guard let length = fields.u8(), length == 6 || length == 20 else {
            return report(record, "Read By Group Type response with an entry length other than 6 or 20; ignored")
        }
        while fields.remaining >= Int(length) {
            guard let start = fields.u16le(), let end = fields.u16le(), fields.take(Int(length) - 4) != nil else { return }
            if start <= end { gatt.addService(start...end) }
        }
    }

    /// Find Information response: {handle, UUID} pairs, format 1 = 16-bit UUIDs.
    private mutating func descriptors(_ fields: inout ByteCursor, record: Int) {
        guard let format = fields.u8(), format == 1 || format == 2 else {
            return report(record, "Find Information response with a format other than 1 or 2; ignored")
        }
        let uuidSize = format == 1 ? 2 : 16
        while fields.remaining >= 2 + uuidSize {
            guard let handle = fields.u16le(), let uuidBytes = fields.take(uuidSize) else { return }
            if let type = BluetoothUUID.uuid16(littleEndian: uuidBytes), ATTOpcode.descriptorTypes.contains(type) {
                gatt.addDescriptor(handle)
            }
        }
    }

    // MARK: Handles to characteristics

    private enum HandleTarget {
        case characteristic(CharacteristicRef)
        case descriptor
        case unknown
    }

    /// `--handle` options first, then the capture's discovery. A characteristic the options
    /// place elsewhere is not taken from discovery.
    private func target(of handle: UInt16, op: CaptureOp, value: [UInt8]) -> HandleTarget {
        if let mapped = handleMap[handle] { return .characteristic(.known(mapped)) }
        if let uuid = gatt.characteristicUUID(valueHandle: handle), let reference = CharacteristicRef(captureText: uuid) {
            if case .known(let characteristic) = reference, handleMap.values.contains(characteristic) { return .unknown }
            return .characteristic(reference)
        }
        if gatt.isDescriptor(handle) { return .descriptor }
        // Without discovery, a CCCD is recognised by its place (right after a mapped value)
        // and its value (notifications/indications on or off).
        if op == .write, handle > 0, value.count == 2, value[1] == 0, value[0] <= 2,
           handleMap[handle - 1] != nil || gatt.characteristicUUID(valueHandle: handle - 1) != nil {
            return .descriptor
        }
        return .unknown
    }

    private mutating func emit(_ op: CaptureOp, handle: UInt16, value: [UInt8], time: WallInstant) {
        switch target(of: handle, op: op, value: value) {
        case .characteristic(let reference):
            events.append(CaptureEvent(time: time, op: op, characteristic: reference, value: value))
        case .descriptor:
            return
        case .unknown:
            unmappedHandles.insert(handle)
        }
    }
}
