// A member deletes a drink another member added by hand (docs/household.md, "Drinks added by
// hand"): `<prefix>/household/delete/<deleter>`, QoS 1, not retained,
// `{"bottle":"F4:12:FA:00:A3:F2","origin":"kitchen","record_id":2147549184,"timestamp":1764000000}`.
// Only a drink's origin publishes the drink, so the deleter says which drink (bottle, id, time)
// and whose (its origin); the topic and the seal say who deleted it. Every member applies it to
// that origin's drink it holds, the origin to its own, which it then publishes as its own
// tombstone: the members that did not hear the deletion (an older one, which does not subscribe
// to this topic; one whose session lost it) get it from the origin like any deletion.
//
// The broker is a network: a message is read only when it names a bottle key, an origin that is
// a member's name, an id of the hand-added ones and a time a record can hold; anything else is
// dropped as malformed, without harm. It can delete nothing but a drink added by hand.

import AquavateProtocol
import MQTT

struct HouseholdDeletionMessage: WireMessage, Decodable, Equatable {
    var bottle: String
    var recordID: Int
    var timestamp: Int
    var origin: String

    enum CodingKeys: String, CodingKey {
        case bottle, recordID = "record_id", timestamp, origin
    }

    init(_ deletion: HouseholdLink.Deletion) {
        bottle = deletion.bottle
        recordID = Int(deletion.recordID)
        timestamp = Int(deletion.timestamp)
        origin = deletion.origin
    }

    /// The deletion in `payload`, made by `deleter`; nil when it is not one with plausible values.
    static func read(_ payload: [UInt8], by deleter: String) -> HouseholdLink.Deletion? {
        guard let message = WireJSON.read(Self.self, from: payload), HouseholdLink.isBottleKey(message.bottle),
              MQTTTopics.isValidID(message.origin), let recordID = UInt32(exactly: message.recordID),
              recordID >= Drink.firstManualRecordID, let timestamp = UInt32(exactly: message.timestamp) else { return nil }
        return HouseholdLink.Deletion(bottle: message.bottle, recordID: recordID, timestamp: timestamp, origin: message.origin, by: deleter)
    }
}

extension HouseholdLink {
    /// A member deleted a drink another member added by hand.
    package struct Deletion: Sendable, Equatable, Hashable {
        /// The drink's bottle key, id and time: the drink, in every member.
        package var bottle: String
        package var recordID: UInt32
        package var timestamp: UInt32
        /// The member that added the drink.
        package var origin: String
        /// The member that deleted it (the topic's, checked against the seal).
        package var by: String

        package init(bottle: String, recordID: UInt32, timestamp: UInt32, origin: String, by: String) {
            self.bottle = bottle
            self.recordID = recordID
            self.timestamp = timestamp
            self.origin = origin
            self.by = by
        }
    }

    /// Tells the household this bridge deleted a drink another member added by hand (QoS 1,
    /// not retained: a member away gets it from its session, or later from the deleter again
    /// when its digest still counts the drink).
    package func delete(_ deletion: Deletion) throws(SinkDeliveryError) {
        try publish("\(base)/delete/\(bridgeID)", HouseholdDeletionMessage(deletion).text, retain: false)
    }
}
