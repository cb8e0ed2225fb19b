// One row of the `drink` table: a drink record as a bottle sent it, plus what the bridge knows.

import AquavateProtocol
import GRDB

/// A drink record kept in the history.
///
/// The history keeps what the bottle said, refills (amount ≤ 0) included; whether a drink counts
/// as intake is `isIntake`, decided when totals are computed.
public struct StoredDrink: Sendable, Hashable {
    /// The bottle's address or serial (docs/protocol.md 4.7).
    public var bottle: String
    public var recordID: UInt32
    /// Record timestamp, UTC epoch seconds.
    public var timestamp: UInt32
    public var amountML: Int16
    public var bottleLevelML: Int16
    /// The type byte as sent (`kind` interprets it).
    public var typeRaw: UInt8
    /// The flags byte of the first copy stored, as sent.
    public var flagsRaw: UInt8
    /// Deleted by a tombstone from the bottle or locally; never undeleted.
    public var deleted: Bool
    /// Bridge clock (UTC seconds) when the transaction that stored it committed.
    public var storedAt: Double
    /// Bridge clock when it was deleted; nil while it is not.
    public var deletedAt: Double?

    public init(bottle: String, recordID: UInt32, timestamp: UInt32, amountML: Int16,
                bottleLevelML: Int16, typeRaw: UInt8, flagsRaw: UInt8, deleted: Bool,
                storedAt: Double, deletedAt: Double?) {
        self.bottle = bottle
        self.recordID = recordID
        self.timestamp = timestamp
        self.amountML = amountML
        self.bottleLevelML = bottleLevelML
        self.typeRaw = typeRaw
        self.flagsRaw = flagsRaw
        self.deleted = deleted
        self.storedAt = storedAt
        self.deletedAt = deletedAt
    }

    /// A record as received, stored at `storedAt` (deleted at once if it is a tombstone).
    init(_ record: DrinkRecord, bottle: String, storedAt: Double) {
        self.init(bottle: bottle, recordID: record.recordID, timestamp: record.timestamp,
                  amountML: record.amountML, bottleLevelML: record.bottleLevelML,
                  typeRaw: record.typeRaw, flagsRaw: record.flagsRaw, deleted: record.isDeleted,
                  storedAt: storedAt, deletedAt: record.isDeleted ? storedAt : nil)
    }

    public var kind: DrinkKind { record.kind }

    /// Counts towards day totals: amount > 0 and not deleted (docs/reminders.md 0).
    public var isIntake: Bool { amountML > 0 && !deleted }

    /// The record as first received (its flags are the first copy's).
    public var record: DrinkRecord {
        DrinkRecord(recordID: recordID, timestamp: timestamp, amountML: amountML,
                    bottleLevelML: bottleLevelML, typeRaw: typeRaw, flagsRaw: flagsRaw)
    }

    /// Same drink content: what makes a re-sent copy identical. Flags are not compared: the
    /// deleted bit is handled as a tombstone and the synced bit says nothing about the drink.
    func hasSameContent(as other: DrinkRecord) -> Bool {
        amountML == other.amountML && bottleLevelML == other.bottleLevelML && typeRaw == other.typeRaw
    }
}

extension StoredDrink: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "drink"

    public enum Columns {
        public static let bottle = Column("bottle")
        public static let recordID = Column("record_id")
        public static let timestamp = Column("timestamp")
        public static let amountML = Column("amount_ml")
        public static let bottleLevelML = Column("bottle_level_ml")
        public static let type = Column("type")
        public static let typeRaw = Column("type_raw")
        public static let flags = Column("flags")
        public static let deleted = Column("deleted")
        public static let storedAt = Column("stored_at")
        public static let deletedAt = Column("deleted_at")
    }

    public init(row: Row) throws {
        bottle = try row.decode(String.self, forColumn: Columns.bottle)
        recordID = try row.decode(UInt32.self, forColumn: Columns.recordID)
        timestamp = try row.decode(UInt32.self, forColumn: Columns.timestamp)
        amountML = try row.decode(Int16.self, forColumn: Columns.amountML)
        bottleLevelML = try row.decode(Int16.self, forColumn: Columns.bottleLevelML)
        typeRaw = try row.decode(UInt8.self, forColumn: Columns.typeRaw)
        flagsRaw = try row.decode(UInt8.self, forColumn: Columns.flags)
        deleted = try row.decode(Bool.self, forColumn: Columns.deleted)
        storedAt = try row.decode(Double.self, forColumn: Columns.storedAt)
        deletedAt = try row.decode(Double?.self, forColumn: Columns.deletedAt)
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.bottle] = bottle
        container[Columns.recordID] = recordID
        container[Columns.timestamp] = timestamp
        container[Columns.amountML] = amountML
        container[Columns.bottleLevelML] = bottleLevelML
        container[Columns.type] = kind.rawValue
        container[Columns.typeRaw] = typeRaw
        container[Columns.flags] = flagsRaw
        container[Columns.deleted] = deleted
        container[Columns.storedAt] = storedAt
        container[Columns.deletedAt] = deletedAt
    }
}
