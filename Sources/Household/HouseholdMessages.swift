// The household's small messages on the wire (docs/design.md 6, HouseholdLink's topics), one
// Codable type each, with the keys and value types every bridge of the household has always
// used: times are a `Double`'s shortest text in a string (`"1764000200.5"`), so no reader rounds
// them. The broker is a network: `read` gives nil for anything that is not the message with
// plausible values, and the link drops it as malformed without harm. (The drink has its own
// file, HouseholdDrinkMessage.)

import MQTT
import Timekeeping

/// `claim/<bottle>/<bridge>`, retained: `{"phase":"want"|"hold","rssi":-67}`; empty when released.
struct HouseholdClaimMessage: WireMessage, Decodable, Equatable {
    var phase: HouseholdLink.Claim.Phase
    var rssi: Int

    init(_ claim: HouseholdLink.Claim) {
        phase = claim.phase
        rssi = claim.rssi
    }

    /// The claim; nil when it is not one or its RSSI is not a radio's (-127…20 dBm).
    static func read(_ payload: [UInt8]) -> HouseholdLink.Claim? {
        guard let message = WireJSON.read(Self.self, from: payload), (-127...20).contains(message.rssi) else { return nil }
        return HouseholdLink.Claim(phase: message.phase, rssi: message.rssi)
    }
}

/// `syncer/<bottle>`, retained: `{"bridge":"kitchen","time":"1764000200.5"}`, the bridge that
/// last synced the bottle and when (its clock).
struct HouseholdSyncerMessage: WireMessage, Decodable, Equatable {
    var bridge: String
    var time: String

    init(bridge: String, time: WallInstant) {
        self.bridge = bridge
        self.time = String(time.secondsSince1970)
    }

    static func read(_ payload: [UInt8]) -> (bridge: String, time: WallInstant)? {
        guard let message = WireJSON.read(Self.self, from: payload), MQTTTopics.isValidID(message.bridge),
              let time = HouseholdTime.read(message.time) else { return nil }
        return (message.bridge, time)
    }
}

/// `pong/<bridge>`: `{"instance":"…","synchronised":true,"time":"1764000200.5"}`, a bridge's
/// answer to `doctor`'s ping (HouseholdProbe).
struct HouseholdPongMessage: WireMessage, Decodable, Equatable {
    var time: String
    var instance: String
    var synchronised: Bool

    init(time: WallInstant, instance: String, synchronised: Bool) {
        self.time = String(time.secondsSince1970)
        self.instance = instance
        self.synchronised = synchronised
    }

    /// The answering bridge's clock, or nil when the time is not a number.
    var clock: WallInstant? { Double(time).map(WallInstant.init(secondsSince1970:)) }
}

/// `hello/<bridge>`, retained: `{"epoch":"e1a2","have":{"kitchen":"1764000200.5"}}`. Read
/// leniently, as every bridge always did: an older bridge's `{}` has no epoch (answered every
/// time), and a `have` entry that is not a member's name with a finite time is left out (that
/// member's drinks are all sent again), never a reason to ignore the hello.
struct HouseholdHelloMessage: WireMessage, Decodable, Equatable {
    var epoch: String?
    var have: [String: String]

    /// The most members a hello names (a household is a handful of rooms).
    static let maximumHave = 64

    init(epoch: String, have: [String: WallInstant]) {
        self.epoch = epoch
        self.have = have.filter { MQTTTopics.isValidID($0.key) && $0.value.secondsSince1970.isFinite }.mapValues { String($0.secondsSince1970) }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        epoch = (try? container.decodeIfPresent(String.self, forKey: .epoch)) ?? nil
        var have: [String: String] = [:]
        if let marks = try? container.nestedContainer(keyedBy: WireMemberName.self, forKey: .have) {
            for member in marks.allKeys {
                if let time = try? marks.decode(String.self, forKey: member) { have[member.stringValue] = time }
            }
        }
        self.have = have
    }

    /// The hello in `payload` (not JSON at all: no epoch, nothing had).
    static func read(_ payload: [UInt8]) -> (epoch: String?, have: [String: WallInstant]) {
        guard let message = WireJSON.read(Self.self, from: payload) else { return (nil, [:]) }
        var have: [String: WallInstant] = [:]
        for (bridge, text) in message.have where have.count < maximumHave && MQTTTopics.isValidID(bridge) {
            if let time = Double(text), time.isFinite { have[bridge] = WallInstant(secondsSince1970: time) }
        }
        return (message.epoch.flatMap { MQTTTopics.isValidID($0) ? $0 : nil }, have)
    }

    enum CodingKeys: String, CodingKey { case epoch, have }
}

/// `delivered/<bridge>`: `{"bottle":"AQV-0042","id":"hydration-7","kind":"reminder","time":"1764000200.5"}`,
/// a reminder the bridge delivered.
struct HouseholdDeliveredMessage: WireMessage, Decodable, Equatable {
    var bottle: String
    var id: String
    var kind: String
    var time: String

    init(_ delivered: HouseholdLink.Delivered) {
        bottle = delivered.bottle
        id = delivered.id
        kind = delivered.kind
        time = String(delivered.time.secondsSince1970)
    }

    /// The delivery; nil when a field is missing or not plausible.
    static func read(_ payload: [UInt8], by sender: String) -> HouseholdLink.Delivered? {
        guard let message = WireJSON.read(Self.self, from: payload), HouseholdLink.isBottleKey(message.bottle),
              !message.id.isEmpty, message.id.count <= 128,
              message.id.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }),
              MQTTTopics.isValidID(message.kind), let time = HouseholdTime.read(message.time) else { return nil }
        return HouseholdLink.Delivered(bottle: message.bottle, id: message.id, kind: message.kind, time: time, from: sender)
    }
}

/// A time as the household writes it: a positive, finite `Double` in text.
enum HouseholdTime {
    static func read(_ text: String) -> WallInstant? {
        guard let time = Double(text), time.isFinite, time > 0 else { return nil }
        return WallInstant(secondsSince1970: time)
    }
}
