// One stored drink record, as published to event sinks (one MQTT message per record).
//
// Not the bridge's one `Drink` (AquavateProtocol) but the payload's own shape: the time as
// seconds, the type as its name, the bottle only where a bridge has several. The daemon makes it
// from the drink it stored.

import Timekeeping

public struct SinkDrink: Sendable, Equatable {
    /// The bottle's record id (docs/protocol.md 5.2).
    public var recordID: Int
    /// The record's timestamp, UTC seconds since 1970.
    public var time: WallInstant
    public var amountML: Int
    /// The bottle level after the drink, ml (signed).
    public var bottleLevelML: Int
    /// `gulp` or `pour`.
    public var type: String
    /// The bottle's serial or address, where a bridge has several; nil: the bridge's bottle.
    public var bottle: String?

    public init(recordID: Int, time: WallInstant, amountML: Int, bottleLevelML: Int, type: String, bottle: String? = nil) {
        self.bottle = bottle
        self.recordID = recordID
        self.time = time
        self.amountML = amountML
        self.bottleLevelML = bottleLevelML
        self.type = type
    }
}
