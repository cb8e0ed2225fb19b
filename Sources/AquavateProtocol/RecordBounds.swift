// What a drink record can be (docs/protocol.md 3.4, 4.5, 5.2), so that a buggy firmware or a device
// spoofing the bottle's address is not believed too far: an audit stored ±32767 ml drinks and
// timestamps in 1970 and 2106 (a day total of 9,830,100 ml).
//
// A record outside these bounds is *quarantined*, not refused with its chunk: the firmware
// produces such records for real (B9: a SET_TIME of any value marks the clock valid for good, so
// one wrong SET_TIME stamps drinks in 1970; erased flash reads as all FF, TV11), and a chunk
// refused unacknowledged comes back at every connection, holding every later drink behind it.
// So the record is kept aside with its raw bytes and the reasons, never counted, and the rest of
// the chunk is stored and acknowledged. Only a chunk whose *structure* is wrong is refused
// (`SyncProgress.ChunkVerdict.implausible`).

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

    /// Every way `record` cannot be a drink, in a fixed order; empty when it can be one.
    public func problems(with record: DrinkRecord) -> [RecordProblem] {
        var problems: [RecordProblem] = []
        if !Self.timeRange(now: now).contains(Double(record.timestamp)) { problems.append(.time) }
        if !Self.amountML.contains(Int(record.amountML)) { problems.append(.amount) }
        if !Self.bottleLevelML.contains(Int(record.bottleLevelML)) { problems.append(.level) }
        return problems
    }

    /// Why `record` cannot be a drink, in one line, or nil when it can.
    public func problem(with record: DrinkRecord) -> String? {
        let problems = problems(with: record)
        guard !problems.isEmpty else { return nil }
        return Self.reason(problems, of: record)
    }

    /// `problems` of `record` in one line for a person.
    public static func reason(_ problems: [RecordProblem], of record: DrinkRecord) -> String {
        "record #\(record.recordID) " + problems.map { describe($0, of: record) }.joined(separator: "; ")
    }

    /// The instants a drink can be stamped with, seen from `now`.
    public static func timeRange(now: Double) -> ClosedRange<Double> {
        earliestTimestamp...max(earliestTimestamp, now + futureSlack)
    }

    private static func describe(_ problem: RecordProblem, of record: DrinkRecord) -> String {
        switch problem {
        case .time:
            return "is stamped \(record.timestamp) s after 1970-01-01 UTC, outside 2020-01-01 … two days from now"
        case .amount:
            return "has an amount of \(record.amountML) ml (a drink is within \(amountML))"
        case .level:
            return "has a bottle level of \(record.bottleLevelML) ml (within \(bottleLevelML))"
        }
    }
}

/// One way a record cannot be a drink. The raw values cross the wire (JSON, MQTT): keep them.
public enum RecordProblem: String, Sendable, Hashable, Codable, CaseIterable {
    /// Stamped before 2020 or more than two days ahead (B9: a wrong SET_TIME, a dead RTC cell,
    /// erased flash).
    case time
    /// An amount no 830 ml bottle can give.
    case amount
    /// A bottle level no 830 ml bottle can hold.
    case level
}

extension BottleConfig {
    /// The bottle's daily goal when it is one the bottle can hold (`BottleGoal`, docs/protocol.md
    /// 3.6); nil for anything else (a goal of 0 would switch the reminders off).
    public var plausibleGoalML: Int? {
        BottleGoal.holds(Int(dailyGoalML)) ? Int(dailyGoalML) : nil
    }
}
