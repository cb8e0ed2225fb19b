// Drinks a person adds by hand (a glass at school, a bottle left at home): stored beside the
// bottle's drinks so that they count in the day, the reminders and Home Assistant like any
// other, but in an id space of their own (from `Drink.firstManualRecordID` up, per bottle), so
// that the bottle's highest record id and its id resets (B14) never see them, and never sent
// to the bottle.

import AquavateProtocol
import Timekeeping
import GRDB

/// The range a hand-added drink's volume must be in: a sip to a big jug.
public enum ManualDrinkLimits {
    public static let volumeML = 1...5000
}

extension BottleControl {
    /// Checks and stores a drink added by hand for the bottle named (or the only one adopted),
    /// `amountML` drunk at `time` (not after `now`). A refusal names what is wrong in one line
    /// and stores nothing.
    public func addDrink(amountML: Int, at time: WallInstant, bottle name: String?, now: WallInstant) throws -> StoredDrink {
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
        return try history.storeManualDrink(bottle: bottle.id, amountML: amountML, timestamp: timestamp, at: now)
    }
}

extension DrinkHistory {
    /// Stores a hand-added drink under the next id of `bottle`'s hand-added drinks, in one
    /// transaction; the drink as stored.
    public func storeManualDrink(bottle: String, amountML: Int, timestamp: UInt32, at storedAt: WallInstant) throws -> StoredDrink {
        let bottle = try ArgumentChecks.bottle(bottle)
        let storedAt = try ArgumentChecks.instant(storedAt, "storage time")
        return try write("adding a drink by hand") { db in
            let highest = try UInt32.fetchOne(db, sql: """
                SELECT MAX(record_id) FROM drink WHERE bottle = ? AND record_id >= ?
                """, arguments: [bottle, Drink.firstManualRecordID])
            var next = Drink.firstManualRecordID
            if let highest {
                guard highest < UInt32.max else {
                    throw BottleRequestRefused(description: "no record id is left for drinks added by hand to \(bottle)")
                }
                next = highest + 1
            }
            // No bottle level: the bottle did not measure it. A gulp (type 0), no flags.
            let stored = StoredDrink(Drink(bottle: bottle, recordID: next, timestamp: timestamp, amountML: amountML,
                                           bottleLevelML: 0, typeRaw: 0, flagsRaw: 0, deleted: false, manual: true),
                                     storedAt: storedAt, deletedAt: nil)
            try stored.insert(db)
            return stored
        }
    }
}
