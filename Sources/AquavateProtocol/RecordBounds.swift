// What a drink record can be (docs/protocol.md 3.4, 4.5, 5.2), so that a buggy firmware or a device
// spoofing the bottle's address is not believed too far: an audit stored ±32767 ml drinks and
// timestamps in 1970 and 2106 (a day total of 9,830,100 ml). A chunk holding such a record is
// refused whole and not acknowledged: nothing is stored half, and a real bottle keeps the records.

public struct RecordBounds: Sendable, Equatable {
    /// The receiver's clock, UTC seconds (the session's clock live, the capture's in replay).
    public var now: Double

    /// A drink is the drop of the level in an 830 ml bottle (realistically 30 … ~830); the format
    /// allows refills (negative). A little room either way for calibration drift.
    public static let amountML: ClosedRange<Int> = -1000...1000
    /// Nominally 0 … 830, "may carry a small negative value" (3.4).
    public static let bottleLevelML: ClosedRange<Int> = -200...1000
    /// 2020-01-01T00:00:00Z: no Aquavate bottle recorded anything before.
    public static let earliestTimestamp: Double = 1_577_836_800
    /// Ahead of the receiver's clock by at most this: the bottle's time-zone offset (up to +14 h,
    /// 5.2) and a clock that ran ahead before SET_TIME (B9), with room to spare.
    public static let futureSlack: Double = 2 * 86_400

    public init(now: Double) {
        self.now = now
    }

    /// Why `record` cannot be a drink, or nil when it can.
    public func problem(with record: DrinkRecord) -> String? {
        if !Self.amountML.contains(Int(record.amountML)) {
            return "record #\(record.recordID) has an amount of \(record.amountML) ml (a drink is within \(Self.amountML))"
        }
        if !Self.bottleLevelML.contains(Int(record.bottleLevelML)) {
            return "record #\(record.recordID) has a bottle level of \(record.bottleLevelML) ml (within \(Self.bottleLevelML))"
        }
        let time = Double(record.timestamp)
        if time < Self.earliestTimestamp || time > now + Self.futureSlack {
            return "record #\(record.recordID) is stamped \(record.timestamp) s, outside 2020-01-01 … two days from now"
        }
        return nil
    }
}

extension BottleConfig {
    /// The bottle's daily goal when it is one the bottle can hold (1000–4000 ml, docs/protocol.md
    /// 3.6); nil for anything else (a goal of 0 would switch the reminders off).
    public var plausibleGoalML: Int? {
        (1000...4000).contains(Int(dailyGoalML)) ? Int(dailyGoalML) : nil
    }
}
