// A Drink Record, 14 bytes on the air (docs/protocol.md 3.4).

/// One drink (or, format-legal but never produced, a refill) as the bottle sends it.
public struct DrinkRecord: Sendable, Hashable, Codable {
    /// Wire size of one record.
    public static let byteCount = 14

    /// Bottle-assigned id, 1, 2, 3 …; restarts at 1 after CLEAR_HISTORY (B9, B14).
    public var recordID: UInt32
    /// Bottle time in seconds (UTC epoch seconds with the default timezone offset 0).
    public var timestamp: UInt32
    /// Millilitres consumed (> 0); negative would be a refill, which is never intake.
    public var amountML: Int16
    /// Water left after the event. Sent as u16, decoded as i16 (B11).
    public var bottleLevelML: Int16
    /// Raw type byte: 0 gulp, 1 pour, anything else is treated as a gulp.
    public var typeRaw: UInt8
    /// Raw flag byte (see `DrinkRecordFlags`).
    public var flagsRaw: UInt8

    public init(recordID: UInt32, timestamp: UInt32, amountML: Int16, bottleLevelML: Int16,
                typeRaw: UInt8, flagsRaw: UInt8) {
        self.recordID = recordID
        self.timestamp = timestamp
        self.amountML = amountML
        self.bottleLevelML = bottleLevelML
        self.typeRaw = typeRaw
        self.flagsRaw = flagsRaw
    }

    public var kind: DrinkKind { DrinkKind(typeRaw: typeRaw) }
    public var flags: DrinkRecordFlags { DrinkRecordFlags(rawValue: flagsRaw) }
    /// A record with the deleted bit (0x04) is a tombstone: delete it locally.
    public var isDeleted: Bool { flags.contains(.deleted) }
    /// Counts towards intake: positive amount and not deleted (docs/reminders.md 0).
    public var isIntake: Bool { amountML > 0 && !isDeleted }
}

public enum DrinkKind: String, Sendable, Hashable, Codable {
    case gulp
    case pour

    /// From the record's type byte (docs/protocol.md 5.2): 1 is a pour, anything else a gulp.
    public init(typeRaw: UInt8) { self = typeRaw == 1 ? .pour : .gulp }
}

public struct DrinkRecordFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let synced = DrinkRecordFlags(rawValue: 0x01)
    public static let dayBoundary = DrinkRecordFlags(rawValue: 0x02)
    public static let deleted = DrinkRecordFlags(rawValue: 0x04)
}

extension DrinkRecord {
    /// The same record with another flags byte (a tombstone's deleted bit on a stored drink).
    public func withFlags(_ flagsRaw: UInt8) -> DrinkRecord {
        var copy = self
        copy.flagsRaw = flagsRaw
        return copy
    }
}
