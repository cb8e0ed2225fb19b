// Can the broker tell the household link's connection from Home Assistant's? A bridge opens two
// connections; with mosquitto's `use_username_as_clientid` a login has one connection at most,
// so the household link needs a login of its own (`household.mqtt_username`), named like
// `bridge.id` for the ACL of docs/household.md (`pattern write …/household/drink/%u`), with its
// password. Without one, both connections share `mqtt.url`'s login, which works on a broker
// without that option (docs/household.md, "The second wall").

import Foundation
import MQTT

enum HouseholdLoginCheck {
    static let subject = "household"

    /// Nil when the household has no login of its own (nothing to judge), else one finding.
    static func finding(url: String?, householdUser: String?, householdPassword: String?, bridgeID: String) -> DoctorFinding? {
        guard let url, let householdUser, !householdUser.isEmpty else { return nil }
        let mqttUser = (try? MQTTBrokerURL(parsing: url))?.username
        if householdUser == mqttUser {
            return DoctorFinding(.warn, subject, "the household link and Home Assistant's connection log in both as \(householdUser): "
                                     + "a broker with use_username_as_clientid closes each with the other",
                                 fix: "give mqtt.url a login of its own (e.g. \(bridgeID)-ha), or unset household.mqtt_username")
        }
        if householdUser != bridgeID {
            return DoctorFinding(.warn, subject, "the household link logs in as \(householdUser), not as bridge.id \(bridgeID): "
                                     + "the ACL of docs/household.md lets a login write only the household topics named after it",
                                 fix: "aquavate-bridge config set household.mqtt_username \(bridgeID) (and that user in the broker's password file)")
        }
        guard let householdPassword, !householdPassword.isEmpty else {
            return DoctorFinding(.warn, subject, "household.mqtt_username is set but household.mqtt_password is not",
                                 fix: "aquavate-bridge config set household.mqtt_password - (reads it from standard input)")
        }
        return DoctorFinding(.ok, subject, "the household link logs in as \(householdUser), apart from Home Assistant's connection"
                                 + (mqttUser.map { " (\($0))" } ?? ""))
    }
}
