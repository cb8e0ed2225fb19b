// The household link's login (HouseholdMembership.brokerURL): `mqtt.url`'s broker under
// `household.mqtt_username` and its password when set, so that a broker with
// `use_username_as_clientid` sees the household's connection apart from Home Assistant's; without
// it, `mqtt.url` itself, as a household with one login always worked.

import Foundation
@testable import Household
import MQTT
import Settings
import Testing

@Suite struct HouseholdLoginTests {
    func configuration(_ assignments: [String]) throws -> Configuration {
        var configuration = Configuration()
        for assignment in assignments { try configuration.applyOverride(assignment) }
        return configuration
    }

    @Test func theHouseholdLogsInUnderItsOwnLoginWhenSet() throws {
        let own = try configuration(["mqtt.url=mqtts://kitchen-ha:ha-secret@broker.local:8883",
                                     "household.mqtt_username=kitchen", "household.mqtt_password=p@ss:w/rd"])
        let broker = try MQTTBrokerURL(parsing: try #require(HouseholdMembership.brokerURL(own)))
        #expect(broker == MQTTBrokerURL(host: "broker.local", port: 8883, username: "kitchen", password: "p@ss:w/rd", usesTLS: true),
                "the same broker, the household's login (a password with @ : / survives the URL)")
    }

    @Test func withoutItsOwnLoginTheHouseholdUsesMQTTURLAsItIs() throws {
        let url = "mqtt://kitchen:secret@broker.local:1883"
        #expect(HouseholdMembership.brokerURL(try configuration(["mqtt.url=\(url)"])) == url)
        #expect(HouseholdMembership.brokerURL(try configuration(["household.mqtt_username=kitchen"])) == nil, "no broker, no household link")
    }
}
