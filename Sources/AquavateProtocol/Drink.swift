// One drink as the bridge knows it, written once for every layer that may see a drink: the
// history keeps it (`StoredDrink`, with when it was stored), the reports print it
// (`BridgeEvent.DrinkEvent`, with whether it was new), the household shares it
// (`HouseholdLink.Drink`, with who synced it), the sinks publish it (MQTT's drink event, whose
// payload shape is `MQTTPayloads.DrinkEvent`). Each of those adds only its own fields to this
// value. `DrinkRecord` stays the decoded wire record (14 bytes, the bottle's own integer sizes);
// this is the bridge's: under the bottle's key, amounts as plain integers, deleted or not.
//
// One drink of another shape remains: the pure reminder engine (`Reminders`), which the module map
// keeps from this module, knows a drink only as an amount at a time (`InMemoryDrinkLedger.Drink`),
// through its `DrinkLedger` protocol.

/// One drink of one bottle, as the bridge keeps, reports and shares it.
public struct Drink: Sendable, Hashable {
    /// The bottle's key: its serial once read, else its address (docs/protocol.md 4.7).
    public var bottle: String
    /// The bottle's record id (restarts at 1 after CLEAR_HISTORY).
    public var recordID: UInt32
    /// The record's timestamp, UTC epoch seconds.
    public var timestamp: UInt32
    /// Millilitres drunk (a refill, never produced, would be ≤ 0).
    public var amountML: Int
    /// Water left after it, millilitres (signed, B11).
    public var bottleLevelML: Int
    /// The type byte as sent (`kind` interprets it).
    public var typeRaw: UInt8
    /// The flags byte as sent.
    public var flagsRaw: UInt8
    /// Deleted: by a tombstone from the bottle, by a person, or on another bridge. Only a person's
    /// own delete can be undone, and only while the bottle has not been sent it (`DeleteUndo`).
    public var deleted: Bool
    /// Added by a person (a glass at school), not measured by the bottle: its record id is the
    /// bridge's, from `Drink.firstManualRecordID` up, and it is never sent to the bottle.
    public var manual: Bool

    public init(bottle: String, recordID: UInt32, timestamp: UInt32, amountML: Int, bottleLevelML: Int,
                typeRaw: UInt8, flagsRaw: UInt8, deleted: Bool, manual: Bool = false) {
        (self.bottle, self.recordID, self.timestamp) = (bottle, recordID, timestamp)
        (self.amountML, self.bottleLevelML, self.typeRaw, self.flagsRaw) = (amountML, bottleLevelML, typeRaw, flagsRaw)
        (self.deleted, self.manual) = (deleted, manual)
    }

    /// The first record id of the drinks people add by hand, per bottle: far above any id a
    /// bottle reaches (it counts from 1 and keeps a few thousand), so an id says which it is.
    public static let firstManualRecordID: UInt32 = 0x8000_0000

    /// A record as the bottle sent it, under the bottle's key (a tombstone is deleted).
    public init(_ record: DrinkRecord, bottle: String) {
        self.init(bottle: bottle, recordID: record.recordID, timestamp: record.timestamp, amountML: Int(record.amountML),
                  bottleLevelML: Int(record.bottleLevelML), typeRaw: record.typeRaw, flagsRaw: record.flagsRaw,
                  deleted: record.isDeleted)
    }

    /// `gulp` or `pour`, from the type byte.
    public var kind: DrinkKind { DrinkKind(typeRaw: typeRaw) }

    /// Counts towards day totals: amount > 0 and not deleted (docs/reminders.md 0).
    public var isIntake: Bool { amountML > 0 && !deleted }

    /// The wire record it stands for, its flags byte as sent. The amounts are clamped to the
    /// record's 16 bits (a drink made from a record always fits; one from the network was
    /// checked to fit when it was read).
    public var record: DrinkRecord {
        DrinkRecord(recordID: recordID, timestamp: timestamp, amountML: Int16(clamping: amountML),
                    bottleLevelML: Int16(clamping: bottleLevelML), typeRaw: typeRaw, flagsRaw: flagsRaw)
    }
}

/// A value that is a drink with fields of its own beside it (when it was stored, whether it was
/// new, who synced it): the drink's fields read, and are set, as its own, so that
/// `stored.amountML` and `event.recordID` say what they did before the drink was written once.
@dynamicMemberLookup
public protocol DrinkCarrying {
    var drink: Drink { get set }
}

extension DrinkCarrying {
    public subscript<Value>(dynamicMember field: WritableKeyPath<Drink, Value>) -> Value {
        get { drink[keyPath: field] }
        set { drink[keyPath: field] = newValue }
    }

    public subscript<Value>(dynamicMember field: KeyPath<Drink, Value>) -> Value { drink[keyPath: field] }
}
