import AquavateProtocol
import Timekeeping

/// What a capture event records (the `op` field, docs/design.md 3.3).
package enum CaptureOp: String, Sendable, CaseIterable {
    case connect, disconnect, read, write, notify, note, log, action
}

/// One line of an `.aqcap` file after the header.
///
/// Every field of docs/design.md 3.3 has a property; the reader fills those present on the line and
/// `jsonLine()` writes those that are set, so a line read and written again says the same.
package struct CaptureEvent: Sendable, Equatable {
    /// `t`: UTC seconds since 1970, with fraction.
    package var time: WallInstant
    package var op: CaptureOp
    /// `char`: required by `read`, `write` and `notify`.
    package var characteristic: CharacteristicRef?
    /// `value`: the exact bytes; required by `read`, `write` and `notify`.
    package var value: [UInt8]?
    /// `reason` of a `disconnect`.
    package var reason: String?
    /// `text` of a `note`.
    package var text: String?
    /// `type` of a `log` (a manual intake, e.g. `vitamin-d`).
    package var intakeType: String?
    /// `id` of an `action`: the delivered notification acted on.
    package var notificationID: String?
    /// `action` of an `action`, e.g. `did-this`.
    package var action: String?

    package init(
        time: WallInstant, op: CaptureOp, characteristic: CharacteristicRef? = nil, value: [UInt8]? = nil,
        reason: String? = nil, text: String? = nil, intakeType: String? = nil,
        notificationID: String? = nil, action: String? = nil
    ) {
        self.time = time
        self.op = op
        self.characteristic = characteristic
        self.value = value
        self.reason = reason
        self.text = text
        self.intakeType = intakeType
        self.notificationID = notificationID
        self.action = action
    }

    // MARK: One factory per op

    package static func connect(at time: WallInstant) -> CaptureEvent {
        CaptureEvent(time: time, op: .connect)
    }

    package static func disconnect(at time: WallInstant, reason: String? = nil) -> CaptureEvent {
        CaptureEvent(time: time, op: .disconnect, reason: reason)
    }

    package static func read(at time: WallInstant, _ characteristic: CharacteristicRef, value: [UInt8]) -> CaptureEvent {
        CaptureEvent(time: time, op: .read, characteristic: characteristic, value: value)
    }

    package static func read(at time: WallInstant, _ characteristic: Characteristic, value: [UInt8]) -> CaptureEvent {
        read(at: time, .known(characteristic), value: value)
    }

    package static func write(at time: WallInstant, _ characteristic: CharacteristicRef, value: [UInt8]) -> CaptureEvent {
        CaptureEvent(time: time, op: .write, characteristic: characteristic, value: value)
    }

    package static func write(at time: WallInstant, _ characteristic: Characteristic, value: [UInt8]) -> CaptureEvent {
        write(at: time, .known(characteristic), value: value)
    }

    package static func notify(at time: WallInstant, _ characteristic: CharacteristicRef, value: [UInt8]) -> CaptureEvent {
        CaptureEvent(time: time, op: .notify, characteristic: characteristic, value: value)
    }

    package static func notify(at time: WallInstant, _ characteristic: Characteristic, value: [UInt8]) -> CaptureEvent {
        notify(at: time, .known(characteristic), value: value)
    }

    package static func note(at time: WallInstant, _ text: String) -> CaptureEvent {
        CaptureEvent(time: time, op: .note, text: text)
    }

    package static func log(at time: WallInstant, type intakeType: String) -> CaptureEvent {
        CaptureEvent(time: time, op: .log, intakeType: intakeType)
    }

    package static func action(at time: WallInstant, notificationID: String, action: String) -> CaptureEvent {
        CaptureEvent(time: time, op: .action, notificationID: notificationID, action: action)
    }

    // MARK: Validation and text

    /// What makes this event unfit for a capture file, or nil when it is fit: the rules the
    /// reader applies to each line (except time order, which needs the previous line).
    package func validationProblem() -> String? {
        guard time.secondsSince1970.isFinite, time >= .epoch else {
            return "t must be a finite number ≥ 0 (seconds since 1970), got \(time)"
        }
        switch op {
        case .read, .write, .notify:
            if characteristic == nil { return "\(op.rawValue) event without char" }
            if value == nil { return "\(op.rawValue) event without value" }
        case .log:
            if intakeType == nil { return "log event without type" }
        case .action:
            if notificationID == nil { return "action event without id" }
            if action == nil { return "action event without action" }
        case .connect, .disconnect, .note:
            break
        }
        return nil
    }

    /// The event as one `.aqcap` line, without the newline, keys in docs/design.md 3.3's order.
    ///
    /// Written by hand, not by JSONEncoder: JSONEncoder cannot keep the design's key order ("t"
    /// first; it sorts the keys or hashes them), and this is about 3× as fast for a drink-data
    /// line (measured: 300,000 against 100,000 lines a second, -O) on the sync path, where each
    /// value the bottle sends is written as it arrives. `CaptureLineCodableTests` holds the line
    /// to the Codable encoding of the same values.
    package func jsonLine() -> String {
        var line = "{\"t\":" + JSONText.number(time.secondsSince1970) + ",\"op\":\"" + op.rawValue + "\""
        if let characteristic { line += ",\"char\":" + JSONText.quoted(characteristic.captureText) }
        if let value { line += ",\"value\":\"" + Hex.encode(value) + "\"" }
        if let reason { line += ",\"reason\":" + JSONText.quoted(reason) }
        if let text { line += ",\"text\":" + JSONText.quoted(text) }
        if let intakeType { line += ",\"type\":" + JSONText.quoted(intakeType) }
        if let notificationID { line += ",\"id\":" + JSONText.quoted(notificationID) }
        if let action { line += ",\"action\":" + JSONText.quoted(action) }
        return line + "}"
    }
}
