/// Which way an HCI packet went.
enum HCIDirection: Hashable {
    /// Host to controller: what this computer sent (ATT requests, writes).
    case sent
    /// Controller to host: what the bottle sent (responses, notifications) and controller events.
    case received
}

/// The HCI packets the importer looks at; everything else in a capture is `.ignored`.
enum HCIPacket {
    /// ACL data: starts with the 4-byte ACL header.
    case acl(controller: UInt16, direction: HCIDirection, bytes: ArraySlice<UInt8>)
    /// An HCI event: event code, parameter length, parameters.
    case event(controller: UInt16, bytes: ArraySlice<UInt8>)
    case ignored
    /// A record whose framing makes no sense for its datalink.
    case malformed(String)

    /// Unwraps a record according to the file's datalink (docs/integrations.md 3, "Flags by datalink").
    init(record: BtsnoopRecord, datalink: BtsnoopDatalink) {
        let received = record.flags & 0x01 != 0
        let direction: HCIDirection = received ? .received : .sent
        switch datalink {
        case .hci:
            let isCommandOrEvent = record.flags & 0x02 != 0
            switch (isCommandOrEvent, received) {
            case (false, _): self = .acl(controller: 0, direction: direction, bytes: record.data)
            case (true, true): self = .event(controller: 0, bytes: record.data)
            case (true, false): self = .ignored  // HCI command
            }
        case .hciUART:
            guard let type = record.data.first else {
                self = .malformed("empty H4 packet: no packet-type byte")
                return
            }
            let payload = record.data.dropFirst()
            switch type {
            case 0x02: self = .acl(controller: 0, direction: direction, bytes: payload)
            case 0x04: self = .event(controller: 0, bytes: payload)
            case 0x01, 0x03, 0x05: self = .ignored  // command, SCO, ISO
            default: self = .malformed("unknown H4 packet type 0x\(Hex.encode([type])); expected 0x01…0x05")
            }
        case .linuxMonitor:
            let controller = UInt16(truncatingIfNeeded: record.flags >> 16)
            switch record.flags & 0xFFFF {
            case 3: self = .event(controller: controller, bytes: record.data)
            case 4: self = .acl(controller: controller, direction: .sent, bytes: record.data)
            case 5: self = .acl(controller: controller, direction: .received, bytes: record.data)
            default: self = .ignored  // index management, commands, SCO, ISO, notes, logging
            }
        }
    }
}

/// The reasons of HCI Disconnection Complete the bottle's links end with (Core spec Vol 1
/// Part F), written as "0x08 connection timeout" in capture events.
enum HCIDisconnectReason {
    static func text(_ code: UInt8) -> String {
        let hex = "0x" + Hex.encode([code])
        guard let name = names[code] else { return hex }
        return hex + " " + name
    }

    private static let names: [UInt8: String] = [
        0x05: "authentication failure",
        0x08: "connection timeout",
        0x13: "remote user terminated connection",
        0x14: "remote device terminated connection due to low resources",
        0x15: "remote device terminated connection due to power off",
        0x16: "connection terminated by local host",
        0x1A: "unsupported remote feature",
        0x22: "LMP/LL response timeout",
        0x28: "instant passed",
        0x3B: "unacceptable connection parameters",
        0x3D: "connection terminated due to MIC failure",
        0x3E: "connection failed to be established",
    ]
}
