// The household's drink message on the wire (`<prefix>/household/drink/<bridge>`, docs/household.md):
// one JSON object per drink, written and read by Codable with the field names every bridge of
// the household uses. The broker is a network: a message is read only when every field is there
// with a value a bottle's record can hold, and a bottle key is a serial or an address; anything
// else is dropped as malformed by the caller, without harm.

import AquavateProtocol
import MQTT
import Timekeeping

struct HouseholdDrinkMessage: WireMessage, Decodable, Equatable {
    var bottle: String
    var recordID: Int
    var timestamp: Int
    var amountML: Int
    var bottleLevelML: Int
    var typeRaw: Int
    var flagsRaw: Int
    var deleted: Bool
    /// When the origin stored or deleted it, as text (a `Double`'s shortest form); left out by
    /// an older bridge, and ignored when it is not a finite number's text.
    var changedAt: String?
    /// `true` for a drink a person added by hand (its id is the bridge's, not the bottle's); left
    /// out otherwise, so a bottle's drink is the bytes the household always sent. An older
    /// bridge ignores the key (Codable reads only the keys it knows).
    var manual: Bool?

    enum CodingKeys: String, CodingKey {
        case bottle, recordID = "record_id", timestamp, amountML = "amount_ml", bottleLevelML = "bottle_level_ml",
             typeRaw = "type_raw", flagsRaw = "flags_raw", deleted, changedAt = "changed_at", manual
    }

    init(_ drink: HouseholdLink.Drink) {
        bottle = drink.bottle
        recordID = Int(drink.recordID)
        timestamp = Int(drink.timestamp)
        amountML = drink.amountML
        bottleLevelML = drink.bottleLevelML
        typeRaw = Int(drink.typeRaw)
        flagsRaw = Int(drink.flagsRaw)
        deleted = drink.deleted
        changedAt = drink.changedAt.map { String($0.secondsSince1970) }
        manual = drink.manual ? true : nil
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        bottle = try container.decode(String.self, forKey: .bottle)
        recordID = try container.decode(Int.self, forKey: .recordID)
        timestamp = try container.decode(Int.self, forKey: .timestamp)
        amountML = try container.decode(Int.self, forKey: .amountML)
        bottleLevelML = try container.decode(Int.self, forKey: .bottleLevelML)
        typeRaw = try container.decode(Int.self, forKey: .typeRaw)
        flagsRaw = try container.decode(Int.self, forKey: .flagsRaw)
        deleted = try container.decode(Bool.self, forKey: .deleted)
        // Optional, and never a reason to drop the drink (an older bridge did not send it).
        changedAt = (try? container.decodeIfPresent(String.self, forKey: .changedAt)) ?? nil
        // Optional too: anything but `true` is a bottle's drink.
        manual = (try? container.decodeIfPresent(Bool.self, forKey: .manual)) ?? nil
    }

    /// The drink it carries from `origin`; nil when a field is out of its record's range or the
    /// bottle is not a bottle key.
    func drink(origin: String) -> HouseholdLink.Drink? {
        guard HouseholdLink.isBottleKey(bottle), let recordID = UInt32(exactly: recordID),
              let timestamp = UInt32(exactly: timestamp), Int16(exactly: amountML) != nil,
              Int16(exactly: bottleLevelML) != nil, let typeRaw = UInt8(exactly: typeRaw),
              let flagsRaw = UInt8(exactly: flagsRaw) else { return nil }
        let changed = changedAt.flatMap(Double.init).flatMap { $0.isFinite ? WallInstant(secondsSince1970: $0) : nil }
        return HouseholdLink.Drink(Drink(bottle: bottle, recordID: recordID, timestamp: timestamp, amountML: amountML,
                                         bottleLevelML: bottleLevelML, typeRaw: typeRaw, flagsRaw: flagsRaw, deleted: deleted,
                                         manual: manual == true),
                                   origin: origin, changedAt: changed)
    }

    /// The message in `payload`; nil when it is not JSON, not an object or a field is missing
    /// or of the wrong type.
    static func read(_ payload: [UInt8]) -> HouseholdDrinkMessage? {
        WireJSON.read(HouseholdDrinkMessage.self, from: payload)
    }
}
