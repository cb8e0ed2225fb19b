// The history as the live session's store: before storing a chunk, notice a record-id reset
// (PROTOCOL.md B14: ids restart at 1 after CLEAR_HISTORY) the same way replay does, so that the
// live path and a replay of its recording leave the same history.

import AquavateProtocol
import BottleSession
import History
import Logging

struct LiveDrinkStore: DrinkStore {
    let history: DrinkHistory
    let logger: Logger

    func store(_ records: [DrinkRecord], bottle: String, at storedAt: Double) throws -> [StoreResult] {
        if let first = records.first, let highest = try history.highestRecordID(bottle: bottle), first.recordID < highest {
            let sameDrink = try history.storedDrinks(bottle: bottle, from: Double(first.timestamp), to: Double(first.timestamp) + 1)
                .contains { $0.recordID == first.recordID }
            if !sameDrink {
                logger.notice("record ids restarted at #\(first.recordID) (the bottle's history was cleared)")
                try history.recordIDReset(bottle: bottle, at: storedAt)
            }
        }
        return try history.store(records, bottle: bottle, at: storedAt)
    }
}
