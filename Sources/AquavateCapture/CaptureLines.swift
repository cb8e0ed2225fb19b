// The two kinds of line of an `.aqcap` file (docs/design.md 3.3), read by JSONDecoder with the
// rules applied key by key, in the order a person fixing the file would want them: what the line
// is (`aqcap`; `t`, `op`), then each field. Unknown keys are ignored once they are known to be JSON.
//
// A key given twice is read as JSONDecoder reads it: the first one counts (JSON leaves it open;
// the writer never repeats a key).

import AquavateProtocol
import Foundation
import Timekeeping

/// The header line: `{"aqcap":1,"created":…,"source":…,"device":{"name":…,"address":…},"mtu":247}`.
struct CaptureHeaderLine: Decodable {
    let header: CaptureHeader

    private static let keys = CaptureLineKey.names([.aqcap, .created, .source, .device, .mtu])
    private static let deviceKeys = CaptureLineKey.names([.name, .address])

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: CaptureLineKey.self)
        try object.checkUnknownValues(known: Self.keys)
        guard object.contains(.aqcap) else {
            throw CaptureLineProblem.refused(#"first line is not an aqcap header: no "aqcap" key; expected {"aqcap":1,…}"#)
        }
        guard let version = try object.integer(.aqcap) else {
            throw CaptureLineProblem.refused("aqcap version is not an integer: \(try object.found(.aqcap)); expected 1")
        }
        guard version == CaptureHeader.currentVersion else {
            throw CaptureLineProblem.refused("unsupported aqcap version \(version); this reader knows version \(CaptureHeader.currentVersion)")
        }
        var header = CaptureHeader(version: version)
        header.created = try object.optionalString(.created)
        header.source = try object.optionalString(.source)
        if object.contains(.device) {
            guard let device = try? object.nestedContainer(keyedBy: CaptureLineKey.self, forKey: .device) else {
                throw CaptureLineProblem.refused(#"device is not an object: \#(try object.found(.device)); expected {"name":…,"address":…}"#)
            }
            try device.checkUnknownValues(known: Self.deviceKeys)
            header.deviceName = try device.optionalString(.name, label: "device.name")
            header.deviceAddress = try device.optionalString(.address, label: "device.address")
        }
        if object.contains(.mtu) {
            guard let mtu = try object.integer(.mtu), (1...65535).contains(mtu) else {
                throw CaptureLineProblem.refused("mtu is not an integer from 1 to 65535: \(try object.found(.mtu))")
            }
            header.mtu = mtu
        }
        self.header = header
    }
}

/// The keys the line types read; `CaptureLineKey` is a string literal, so `.t` is `"t"`.
extension CaptureLineKey {
    static let aqcap: Self = "aqcap", created: Self = "created", source: Self = "source", device: Self = "device", mtu: Self = "mtu"
    static let name: Self = "name", address: Self = "address"
    static let t: Self = "t", op: Self = "op", char: Self = "char", value: Self = "value", reason: Self = "reason"
    static let text: Self = "text", type: Self = "type", id: Self = "id", action: Self = "action"

    static func names(_ keys: [Self]) -> Set<String> { Set(keys.map(\.stringValue)) }
}

/// An event line: `{"t":1763712000.310,"op":"read","char":"sync-control","value":"0000030000001400"}`.
struct CaptureEventLine: Decodable {
    let event: CaptureEvent

    private static let keys = CaptureLineKey.names([.t, .op, .char, .value, .reason, .text, .type, .id, .action])

    init(from decoder: any Decoder) throws {
        let object = try decoder.container(keyedBy: CaptureLineKey.self)
        try object.checkUnknownValues(known: Self.keys)
        var event = CaptureEvent(time: WallInstant(secondsSince1970: try Self.time(object)), op: try Self.op(object))
        if let charText = try object.optionalString(.char) {
            guard let characteristic = CharacteristicRef(captureText: charText) else {
                throw CaptureLineProblem.refused("unknown char \(JSONText.quotedForMessage(charText)); expected a capture name (\(Self.knownNames)) or a full UUID")
            }
            event.characteristic = characteristic
        }
        if let valueText = try object.optionalString(.value) {
            switch Hex.decode(valueText) {
            case .success(let bytes): event.value = bytes
            case .failure(.notHex):
                throw CaptureLineProblem.refused("value is not hex: \(JSONText.quotedForMessage(valueText))")
            case .failure(.oddLength(let count)):
                throw CaptureLineProblem.refused("value has an odd number of hex digits (\(count)): \(JSONText.quotedForMessage(valueText))")
            }
        }
        event.reason = try object.optionalString(.reason)
        event.text = try object.optionalString(.text)
        event.intakeType = try object.optionalString(.type)
        event.notificationID = try object.optionalString(.id)
        event.action = try object.optionalString(.action)
        if let problem = event.validationProblem() { throw CaptureLineProblem.refused(problem) }
        self.event = event
    }

    private static let knownNames = Characteristic.allCases.map(\.captureName).joined(separator: ", ")
    private static let opNames = CaptureOp.allCases.map(\.rawValue).joined(separator: ", ")

    /// `t`, with -0 read as 0 (the reader before Codable read `-0` as the integer 0).
    private static func time(_ object: KeyedDecodingContainer<CaptureLineKey>) throws(CaptureLineProblem) -> Double {
        guard object.contains(.t) else { throw .refused("missing t (UTC seconds since 1970)") }
        guard let time = try object.typed(Double.self, .t) else {
            throw .refused("t is not a number: \(try object.found(.t)); expected UTC seconds since 1970")
        }
        if let problem = CaptureTimeBounds.problem(with: time) { throw .refused(problem) }
        return time + 0
    }

    private static func op(_ object: KeyedDecodingContainer<CaptureLineKey>) throws(CaptureLineProblem) -> CaptureOp {
        guard object.contains(.op) else { throw .refused("missing op; expected one of \(opNames)") }
        guard let text = try object.typed(String.self, .op) else {
            throw .refused("op is not a string: \(try object.found(.op)); expected one of \(opNames)")
        }
        guard let op = CaptureOp(rawValue: text) else {
            throw .refused("unknown op \(JSONText.quotedForMessage(text)); expected one of \(opNames)")
        }
        return op
    }
}
