// Drinks as the daemon hands them to the sinks (`ReminderDesk.drinkStored`): the bridge's one
// `Drink`, under its bottle's key.

import AquavateProtocol

/// A stored drink of `bottle`: `pour` sets the type byte the bottle sends for a pour (1).
func storedDrink(_ recordID: UInt32, at timestamp: UInt32, amountML: Int, bottleLevelML: Int, pour: Bool = false,
                 bottle: String = BridgeUnderTest.address) -> Drink {
    Drink(bottle: bottle, recordID: recordID, timestamp: timestamp, amountML: amountML, bottleLevelML: bottleLevelML,
          typeRaw: pour ? 1 : 0, flagsRaw: 0, deleted: false)
}
