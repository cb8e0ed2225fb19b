// `doctor` on the household link's own login (HouseholdLoginCheck): nothing to say without one;
// a warning when it is mqtt.url's login again (use_username_as_clientid would make the two
// connections close each other), when it is not named like bridge.id (the documented ACL's `%u`
// patterns refuse its topics) or has no password; ok otherwise.

@testable import Diagnostics
import Testing

@Suite struct HouseholdLoginCheckTests {
    let url = "mqtt://kitchen-ha:pw@broker.local:1883"

    @Test func oneLoginForBothIsNotJudged() {
        #expect(HouseholdLoginCheck.finding(url: url, householdUser: nil, householdPassword: nil, bridgeID: "kitchen") == nil)
    }

    @Test func theSameLoginTwiceWarns() throws {
        let finding = try #require(HouseholdLoginCheck.finding(url: "mqtt://kitchen:pw@broker:1883", householdUser: "kitchen",
                                                               householdPassword: "pw", bridgeID: "kitchen"))
        #expect(finding.status == .warn && finding.detail.contains("use_username_as_clientid"), "\(finding)")
    }

    @Test func aLoginNotNamedLikeTheBridgeWarns() throws {
        let finding = try #require(HouseholdLoginCheck.finding(url: url, householdUser: "house", householdPassword: "pw", bridgeID: "kitchen"))
        #expect(finding.status == .warn && finding.fix?.contains("household.mqtt_username kitchen") == true, "\(finding)")
    }

    @Test func aLoginWithoutPasswordWarns() throws {
        let finding = try #require(HouseholdLoginCheck.finding(url: url, householdUser: "kitchen", householdPassword: nil, bridgeID: "kitchen"))
        #expect(finding.status == .warn && finding.detail.contains("household.mqtt_password"), "\(finding)")
    }

    @Test func itsOwnLoginNamedLikeTheBridgePasses() throws {
        let finding = try #require(HouseholdLoginCheck.finding(url: url, householdUser: "kitchen", householdPassword: "pw", bridgeID: "kitchen"))
        #expect(finding.status == .ok && finding.detail.contains("kitchen-ha"), "\(finding)")
    }
}
