// One row of the `drink` table: a drink record as a bottle sent it, plus what the bridge knows.

import AquavateProtocol
import Timekeeping
import GRDB

/// A drink kept in the history: the drink, and when the history stored and deleted it.
///
/// The history keeps what the bottle said, refills (amount ≤ 0) included; whether a drink counts
/// as intake is `isIntake`, decided when totals are computed.
package struct StoredDrink: DrinkCarrying, Sendable, Hashable {
    package var drink: Drink
    /// Bridge clock (UTC seconds) when the transaction that stored it committed.
    package var storedAt: WallInstant
    /// Bridge clock when it was deleted; nil while it is not.
    package var deletedAt: WallInstant?

    package init(_ drink: Drink, storedAt: WallInstant, deletedAt: WallInstant?) {
        self.drink = drink
        self.storedAt = storedAt
        self.deletedAt = deletedAt
    }

    /// A record as received, stored at `storedAt` (deleted at once if it is a tombstone).
    init(_ record: DrinkRecord, bottle: String, storedAt: WallInstant) {
        self.init(Drink(record, bottle: bottle), storedAt: storedAt, deletedAt: record.isDeleted ? storedAt : nil)
    }

    /// Same drink content: what makes a re-sent copy identical. Flags are not compared: the
    /// deleted bit is handled as a tombstone and the synced bit says nothing about the drink.
    func hasSameContent(as other: DrinkRecord) -> Bool {
        drink.amountML == Int(other.amountML) && drink.bottleLevelML == Int(other.bottleLevelML) && drink.typeRaw == other.typeRaw
    }
}

extension StoredDrink: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "drink"

    package enum Columns {
        package static let bottle = Column("bottle")
        package static let recordID = Column("record_id")
        package static let timestamp = Column("timestamp")
        package static let amountML = Column("amount_ml")
        package static let bottleLevelML = Column("bottle_level_ml")
        package static let type = Column("type")
        package static let typeRaw = Column("type_raw")
        package static let flags = Column("flags")
        package static let deleted = Column("deleted")
        package static let storedAt = Column("stored_at")
        package static let deletedAt = Column("deleted_at")
        package static let manual = Column("manual")
    }

    package init(row: Row) throws {
        // The columns are the record's 16-bit amounts (read as such, so a value outside them is
        // a decoding error, as before the drink was written once).
        drink = Drink(bottle: try row.decode(String.self, forColumn: Columns.bottle),
                      recordID: try row.decode(UInt32.self, forColumn: Columns.recordID),
                      timestamp: try row.decode(UInt32.self, forColumn: Columns.timestamp),
                      amountML: Int(try row.decode(Int16.self, forColumn: Columns.amountML)),
                      bottleLevelML: Int(try row.decode(Int16.self, forColumn: Columns.bottleLevelML)),
                      typeRaw: try row.decode(UInt8.self, forColumn: Columns.typeRaw),
                      flagsRaw: try row.decode(UInt8.self, forColumn: Columns.flags),
                      deleted: try row.decode(Bool.self, forColumn: Columns.deleted),
                      manual: try row.decode(Bool.self, forColumn: Columns.manual))
        storedAt = try row.decode(WallInstant.self, forColumn: Columns.storedAt)
        deletedAt = try row.decode(WallInstant?.self, forColumn: Columns.deletedAt)
    }

    package func encode(to container: inout PersistenceContainer) throws {
        container[Columns.bottle] = drink.bottle
        container[Columns.recordID] = drink.recordID
        container[Columns.timestamp] = drink.timestamp
        container[Columns.amountML] = drink.amountML
        container[Columns.bottleLevelML] = drink.bottleLevelML
        container[Columns.type] = drink.kind.rawValue
        container[Columns.typeRaw] = drink.typeRaw
        container[Columns.flags] = drink.flagsRaw
        container[Columns.deleted] = drink.deleted
        container[Columns.storedAt] = storedAt
        container[Columns.deletedAt] = deletedAt
        container[Columns.manual] = drink.manual
    }
}
