/// Puts L2CAP frames back together from ACL fragments, the way `btmon` does
/// (BlueZ `monitor/l2cap.c`): a start fragment (PB 0x00 or 0x02) carries the 4-byte L2CAP
/// header whose length says how much follows; continuation fragments (PB 0x01) on the same
/// controller, direction and connection are appended until it is all there. A drink-data
/// notification at MTU 247 spans ten 27-byte LE fragments.
struct ACLReassembler {
    struct Key: Hashable {
        let controller: UInt16
        let direction: HCIDirection
        let connection: UInt16
    }

    /// An L2CAP frame still missing bytes.
    struct Partial {
        var bytes: [UInt8]
        /// L2CAP header plus payload.
        let expected: Int
        /// The record of the start fragment, where problems with the frame are reported.
        let startRecord: Int
    }

    struct Outcome {
        /// Complete L2CAP frame, header included.
        var frame: [UInt8]?
        var problems: [String] = []
    }

    private var partials: [Key: Partial] = [:]

    private static let l2capHeaderSize = 4

    mutating func accept(fragment: [UInt8], boundary: UInt8, key: Key, record: Int) -> Outcome {
        var outcome = Outcome()
        if boundary == 0x01 {
            guard var partial = partials.removeValue(forKey: key) else {
                outcome.problems.append("continuation fragment without a start frame on connection \(Self.describe(key)); dropped")
                return outcome
            }
            partial.bytes += fragment
            if partial.bytes.count == partial.expected {
                outcome.frame = partial.bytes
            } else if partial.bytes.count > partial.expected {
                outcome.problems.append("ACL fragments overrun the L2CAP length (\(partial.bytes.count) of \(partial.expected) bytes) on connection \(Self.describe(key)), started at record \(partial.startRecord); dropped")
            } else {
                partials[key] = partial
            }
            return outcome
        }
        // A start frame (PB 0x00, 0x02, or 0x03 "complete").
        if let stale = partials.removeValue(forKey: key) {
            outcome.problems.append("unexpected start frame on connection \(Self.describe(key)): dropped the partial packet of \(stale.bytes.count) of \(stale.expected) bytes started at record \(stale.startRecord)")
        }
        guard fragment.count >= Self.l2capHeaderSize else {
            outcome.problems.append("start fragment of \(fragment.count) bytes is shorter than the 4-byte L2CAP header; dropped")
            return outcome
        }
        let expected = Self.l2capHeaderSize + (Int(fragment[0]) | Int(fragment[1]) << 8)
        if fragment.count == expected {
            outcome.frame = fragment
        } else if fragment.count > expected {
            outcome.problems.append("ACL fragment of \(fragment.count) bytes is longer than its L2CAP frame (\(expected) bytes); dropped")
        } else {
            partials[key] = Partial(bytes: fragment, expected: expected, startRecord: record)
        }
        return outcome
    }

    /// Forgets and returns what was buffered for one connection (it ended).
    mutating func drain(controller: UInt16, connection: UInt16) -> [(Key, Partial)] {
        let ended = partials.filter { $0.key.controller == controller && $0.key.connection == connection }
        for key in ended.keys { partials[key] = nil }
        return ended.sorted { $0.value.startRecord < $1.value.startRecord }
    }

    /// Forgets and returns everything still buffered (the end of the file).
    mutating func drainAll() -> [(Key, Partial)] {
        defer { partials = [:] }
        return partials.sorted { $0.value.startRecord < $1.value.startRecord }
    }

    static func describe(_ key: Key) -> String {
        let handle = "0x" + String(format4: key.connection)
        let direction = key.direction == .sent ? "sent" : "received"
        return key.controller == 0 ? "\(handle) (\(direction))" : "\(handle) on controller \(key.controller) (\(direction))"
    }
}

extension String {
    /// Four lower-case hex digits, as handles are written.
    init(format4 value: UInt16) {
        self = Hex.encode([UInt8(value >> 8), UInt8(value & 0xFF)])
    }
}
