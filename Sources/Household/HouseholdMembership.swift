// What makes a bridge a member of its household (docs/household.md): the key (`household.key`),
// the count of its starts that stamps its messages (HouseholdSeal), and the tally of the
// messages it did not believe, kept in the history so that `/metrics` and `doctor` (other
// processes) read what the daemon counted.

import AquavateProtocol
import Crypto
import Foundation
import History
import MQTT
import Settings
import Timekeeping

package enum HouseholdMembership {
    /// Why a bridge with `mqtt.url` has no household: one line for the log and `doctor`.
    package static let withoutKey = "household.key is not set: this bridge is in no household (it neither shares drinks, claims nor reminders through the broker); `aquavate-bridge household create` on the first bridge, `household join KEY` on the others"

    /// The configured key; nil when unset. A value that is not a key never reaches here: the
    /// setting's check refuses it.
    package static func key(_ configuration: Configuration) -> HouseholdKey? {
        configuration[Setting.householdKey].flatMap(HouseholdKey.init(base64:))
    }

    /// The broker the household link connects to: `mqtt.url`, under `household.mqtt_username`'s
    /// login when that is set (else under `mqtt.url`'s own). Nil without `mqtt.url`.
    package static func brokerURL(_ configuration: Configuration) -> String? {
        guard let url = configuration[Setting.mqttURL] else { return nil }
        guard let user = configuration[Setting.householdMQTTUsername], !user.isEmpty,
              var components = URLComponents(string: url.trimmingCharacters(in: .whitespaces)) else { return url }
        // The setters percent-encode what a URL's user or password may not hold as it is.
        components.user = user
        components.password = configuration[Setting.householdMQTTPassword]
        return components.string ?? url
    }

    /// Whether the household link logs in apart (`household.mqtt_username`), as on the broker
    /// docs/household.md sets up: there `use_username_as_clientid` gives a login one connection,
    /// so another process of this bridge connecting under the daemon's login closes the daemon's.
    /// With one login per bridge the broker cannot be set so (the daemon's own two connections
    /// would close each other), and another client id is another connection.
    package static func loginsHoldOneConnection(_ configuration: Configuration) -> Bool {
        !(configuration[Setting.householdMQTTUsername] ?? "").isEmpty
    }

    /// A start of this bridge, larger than every earlier one: the saved count plus one, or the
    /// clock's seconds when larger (a history made anew does not start again at 1, which the
    /// household would take for replays).
    package static func nextBoot(_ history: DrinkHistory, now: WallInstant) throws -> UInt64 {
        let saved = try history.household.boot()
        let boot = max(saved + 1, UInt64(max(now.secondsSince1970, 0)))
        try history.household.saveBoot(boot)
        return boot
    }

    /// The MQTT client id of this member's household session: `aquavate-<bridge.id>-` and 16 hex
    /// digits of an HMAC of the bridge's id under the key. Whoever holds the client id resumes
    /// the session (and receives what the broker queued for it), and a client id taken over
    /// makes the broker publish the member's will: one made from the key is not guessable
    /// without it, unlike `aquavate-<bridge.id>-house`, which any broker client could take.
    package static func sessionClientID(bridgeID: String, key: HouseholdKey) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Array("aquavate household client id\n\(bridgeID)".utf8), using: key.symmetric)
        return "aquavate-\(bridgeID)-" + mac.prefix(8).lowercaseHex
    }

    /// The messages dropped so far, by reason (none on a history that never saw one).
    package static func drops(_ history: DrinkHistory) -> [HouseholdDropReason: Int] {
        var drops: [HouseholdDropReason: Int] = [:]
        // A reason this version does not know is left out.
        for (name, count) in (try? history.household.drops()) ?? [:] {
            if let reason = HouseholdDropReason(rawValue: name) { drops[reason] = count }
        }
        return drops
    }

    /// Every reason with its count (0 for none yet), for `/metrics`: a counter that appears at 0.
    package static func dropCounts(_ history: DrinkHistory) -> [(reason: String, count: Int)] {
        let drops = drops(history)
        return HouseholdDropReason.allCases.map { ($0.rawValue, drops[$0] ?? 0) }
    }

    static func saveDrops(_ counts: [HouseholdDropReason: Int], history: DrinkHistory, at now: WallInstant) throws {
        try history.household.saveDrops(Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, $0.value) }))
    }
}
