// Drinks a person adds by hand (a glass at school, a bottle left at home): stored beside the
// bottle's drinks so that they count in the day, the reminders and Home Assistant like any
// other, but with ids of their own (from `Drink.firstManualRecordID` up), so that the bottle's
// highest record id and its id resets (B14) never see them, and never sent to the bottle.
//
// Each history (each bridge of a household) adds them in a space of ids of its own
// (`ManualIDSpace`): two members that add a drink for the same bottle at the same moment, before
// either has heard of the other's, give them different ids, so an id names one drink in every
// member and `bottle delete ID` deletes that one everywhere.

import AquavateProtocol
import Timekeeping
import GRDB

/// The range a hand-added drink's volume must be in: a sip to a big jug.
package enum ManualDrinkLimits {
    package static let volumeML = 1...5000
}

extension BottleControl {
    /// Checks and stores a drink added by hand for the bottle named (or the only one adopted),
    /// `amountML` drunk at `time` (not after `now`). A refusal names what is wrong in one line
    /// and stores nothing.
    package func addDrink(amountML: Int, at time: WallInstant, bottle name: String?, now: WallInstant) throws -> StoredDrink {
        guard ManualDrinkLimits.volumeML.contains(amountML) else {
            throw BottleRequestRefused(description: "\(amountML) ml is not a drink: give the volume in millilitres, \(ManualDrinkLimits.volumeML.lowerBound) to \(ManualDrinkLimits.volumeML.upperBound)")
        }
        guard time.secondsSince1970.isFinite, time.secondsSince1970 >= 0,
              let timestamp = UInt32(exactly: time.secondsSince1970.rounded(.down)) else {
            throw BottleRequestRefused(description: "the drink's time is out of range")
        }
        guard time <= now else {
            throw BottleRequestRefused(description: "the drink's time is in the future: a drink is added once it was drunk")
        }
        let bottle: BottleRecord
        do {
            bottle = try self.bottle(named: name)
        } catch var refusal as BottleRequestRefused {
            refusal.isUnknownBottle = true
            throw refusal
        }
        return try history.drinks.storeManualDrink(bottle: bottle.id, amountML: amountML, timestamp: timestamp, at: now)
    }
}

/// The spaces of hand-added ids: `Drink.firstManualRecordID` + space × 65,536 + n. Space 0 is
/// where the previous release counted, one counter per bottle on every member (so two members
/// could give the same id); its drinks keep their ids. Spaces 1 to 32,767 are each a history's
/// own: it draws one at random among those no drink it holds uses, at its first drink added by
/// hand, and keeps it (the newest of its own hand-added drinks says which) until another
/// member's drink turns up in it (two members drew the same one before hearing of each other:
/// 1 in 32,767 for a pair) or its 65,536 ids are used, and then draws another.
package enum ManualIDSpace {
    package static let idsPerSpace: UInt32 = 1 << 16
    /// The spaces a history may draw (0 is the previous release's).
    package static let drawable: ClosedRange<UInt32> = 1...((UInt32.max - Drink.firstManualRecordID) / idsPerSpace)

    /// The space of a hand-added id.
    package static func space(of recordID: UInt32) -> UInt32 { (recordID - Drink.firstManualRecordID) / idsPerSpace }
    /// The ids of `space`.
    package static func ids(of space: UInt32) -> ClosedRange<UInt32> {
        let first = Drink.firstManualRecordID + space * idsPerSpace
        return first...(first + (idsPerSpace - 1))
    }
}

extension DrinkStore {
    /// Stores a hand-added drink under the next id of this history's space of hand-added ids
    /// (`ManualIDSpace`), in one transaction; the drink as stored. `generator` draws a space
    /// when one is needed.
    package func storeManualDrink(bottle: String, amountML: Int, timestamp: UInt32, at storedAt: WallInstant,
                                 using generator: inout some RandomNumberGenerator) throws -> StoredDrink {
        let bottle = try ArgumentChecks.bottle(bottle)
        let storedAt = try ArgumentChecks.instant(storedAt, "storage time")
        let drawn = generator.next() as UInt64
        return try history.write("adding a drink by hand") { db in
            let next = try Self.nextManualID(in: db, draw: drawn)
            // No bottle level: the bottle did not measure it. A gulp (type 0), no flags.
            let stored = StoredDrink(Drink(bottle: bottle, recordID: next, timestamp: timestamp, amountML: amountML,
                                           bottleLevelML: 0, typeRaw: 0, flagsRaw: 0, deleted: false, manual: true),
                                     storedAt: storedAt, deletedAt: nil)
            try stored.insert(db)
            return stored
        }
    }

    /// The same, drawing from the system's generator.
    package func storeManualDrink(bottle: String, amountML: Int, timestamp: UInt32, at storedAt: WallInstant) throws -> StoredDrink {
        var generator = SystemRandomNumberGenerator()
        return try storeManualDrink(bottle: bottle, amountML: amountML, timestamp: timestamp, at: storedAt, using: &generator)
    }

    /// The next id in this history's space, or in a new one (`draw` picks it among the free ones).
    private static func nextManualID(in db: Database, draw: UInt64) throws -> UInt32 {
        let lowest = ManualIDSpace.ids(of: ManualIDSpace.drawable.lowerBound).lowerBound
        // This history's space: that of the newest drink it added by hand itself.
        if let own = try UInt32.fetchOne(db, sql: """
            SELECT record_id FROM drink WHERE origin IS NULL AND manual AND record_id >= ?
            ORDER BY stored_at DESC, record_id DESC LIMIT 1
            """, arguments: [lowest]) {
            let ids = ManualIDSpace.ids(of: ManualIDSpace.space(of: own))
            let shared = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM drink WHERE origin IS NOT NULL AND record_id BETWEEN ? AND ?)
                """, arguments: [ids.lowerBound, ids.upperBound]) ?? false
            let highest = try UInt32.fetchOne(db, sql: "SELECT MAX(record_id) FROM drink WHERE record_id BETWEEN ? AND ?",
                                              arguments: [ids.lowerBound, ids.upperBound]) ?? own
            if !shared && highest < ids.upperBound { return highest + 1 }
        }
        // A new space: one that no drink held here uses, whoever added it.
        let used = Set(try UInt32.fetchAll(db, sql: """
            SELECT DISTINCT (record_id - ?) / ? FROM drink WHERE record_id >= ?
            """, arguments: [Drink.firstManualRecordID, ManualIDSpace.idsPerSpace, lowest]))
        let free = ManualIDSpace.drawable.count - used.count
        guard free > 0 else {
            throw BottleRequestRefused(description: "no record id is left for drinks added by hand")
        }
        // The k-th free space, k drawn uniformly (the modulo's bias is below 1 in 2^48).
        var k = Int(draw % UInt64(free))
        for space in ManualIDSpace.drawable where !used.contains(space) {
            if k == 0 { return ManualIDSpace.ids(of: space).lowerBound }
            k -= 1
        }
        throw BottleRequestRefused(description: "no record id is left for drinks added by hand")
    }
}
