// How a household message proves where it comes from (docs/household.md): its payload is a header
// line and then the body the household's format always had.
//
//     aqh1 <sender> <boot>.<sequence> <time> <mac>\n<body>
//
// `mac` is the base64 HMAC-SHA-256, under `household.key`, of the topic (length-prefixed), the
// stamp and the body: a message moved to another topic, changed, or made without the key fails.
// The stamp guards against replay: `boot` grows with every start of the sender (kept in its
// history) and `sequence` with every message of that start, so on any one topic a member's
// messages only ever grow; a receiver keeps the last stamp accepted per sender and topic (two
// bridges write one bottle's `syncer`) and drops an older one (a copy of a message it has, e.g. a retained message sent again at a reconnection, is
// ignored without counting). `time` is the sender's clock, for what only counts while recent
// (a claim, a ping).

import Crypto
import Foundation
import MQTT
import Settings
import Timekeeping

package struct HouseholdStamp: Sendable, Equatable, Comparable {
    /// The member that signed (its `bridge.id`; `doctor`'s probe id for a ping).
    package var sender: String
    package var boot: UInt64
    package var sequence: UInt64
    /// The sender's wall clock when it signed (written to the millisecond).
    package var time: WallInstant

    package init(sender: String, boot: UInt64, sequence: UInt64, time: WallInstant) {
        self.sender = sender
        self.boot = boot
        self.sequence = sequence
        self.time = time
    }

    /// One sender's stamps, ordered by (boot, sequence) only: the clock may be wrong, the counters are not.
    package static func < (lhs: HouseholdStamp, rhs: HouseholdStamp) -> Bool {
        (lhs.boot, lhs.sequence) < (rhs.boot, rhs.sequence)
    }

    package static func == (lhs: HouseholdStamp, rhs: HouseholdStamp) -> Bool {
        lhs.sender == rhs.sender && lhs.boot == rhs.boot && lhs.sequence == rhs.sequence
    }
}

/// Why a message on a household topic was not believed: the label of
/// `aquavate_household_dropped_messages_total{reason}` and of `doctor`'s count.
package enum HouseholdDropReason: String, Error, Sendable, CaseIterable, Codable {
    /// No header: anyone's message, not a member's.
    case unsigned
    /// A header whose authenticator does not match: made or changed without the key.
    case forged
    /// Older than a message this bridge already has on that topic: recorded and sent again.
    case replayed
    /// Signed, but its time is too far from this bridge's clock for what it says (a claim, a ping).
    case stale
    /// Longer than any household message (only a broker speaking MQTT 3.1.1 sends one at all).
    case oversized
    /// Signed, but not a message of its topic's kind.
    case malformed
}

package enum HouseholdSeal {
    static let magic = "aqh1"
    /// Header lines longer than this are not one (a stamp and a base64 SHA-256 take about 80 bytes).
    static let maximumHeader = 160

    /// The payload of `body` on `topic`, signed with `key` and stamped.
    package static func seal(topic: String, body: [UInt8], stamp: HouseholdStamp, key: HouseholdKey) -> [UInt8] {
        let stampText = text(of: stamp)
        let mac = authenticator(topic: topic, stampText: stampText, body: body, key: key)
        return Array("\(magic) \(stampText) \(Data(mac).base64EncodedString())\n".utf8) + body
    }

    /// The stamp and body of a payload signed with `key` for `topic`, else why not.
    package static func open(topic: String, payload: [UInt8], key: HouseholdKey) -> Result<(stamp: HouseholdStamp, body: [UInt8]), HouseholdDropReason> {
        guard let newline = payload.prefix(maximumHeader).firstIndex(of: UInt8(ascii: "\n")) else { return .failure(.unsigned) }
        let header = String(decoding: payload[..<newline], as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard header.count == 5, header[0] == magic else { return .failure(.unsigned) }
        let counters = header[2].split(separator: ".", omittingEmptySubsequences: false)
        guard MQTTTopics.isValidID(String(header[1])), counters.count == 2, let boot = UInt64(counters[0]), let sequence = UInt64(counters[1]),
              let time = Double(header[3]), time.isFinite, time >= 0,
              let mac = Data(base64Encoded: String(header[4])), mac.count == SHA256.byteCount else { return .failure(.forged) }
        let body = Array(payload[(newline + 1)...])
        let stampText = "\(header[1]) \(header[2]) \(header[3])"
        // Compared in constant time (swift-crypto's equality of authentication codes).
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: prefix(topic: topic, stampText: stampText) + body,
                                                     using: key.symmetric) else { return .failure(.forged) }
        return .success((HouseholdStamp(sender: String(header[1]), boot: boot, sequence: sequence,
                                        time: WallInstant(secondsSince1970: time)), body))
    }

    static func text(of stamp: HouseholdStamp) -> String {
        "\(stamp.sender) \(stamp.boot).\(stamp.sequence) \(String(format: "%.3f", stamp.time.secondsSince1970))"
    }

    private static func prefix(topic: String, stampText: String) -> [UInt8] {
        let topicBytes = Array(topic.utf8)
        return Array("\(magic)\n\(topicBytes.count)\n".utf8) + topicBytes + Array("\n\(stampText)\n".utf8)
    }

    private static func authenticator(topic: String, stampText: String, body: [UInt8], key: HouseholdKey) -> [UInt8] {
        Array(HMAC<SHA256>.authenticationCode(for: prefix(topic: topic, stampText: stampText) + body, using: key.symmetric))
    }
}
