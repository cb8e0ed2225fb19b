// The client id of a member's household session (HouseholdMembership.sessionClientID): whoever
// holds it resumes the session and receives what the broker queued, so it is made from the key,
// not guessable from the bridge's id as `aquavate-<bridge.id>-house` was.

@testable import Household
import Settings
import Testing

@Suite struct HouseholdSessionIDTests {
    static let key = HouseholdKey(base64: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")!

    @Test func theSessionIDIsMadeFromTheKey() throws {
        let id = HouseholdMembership.sessionClientID(bridgeID: "kitchen", key: Self.key)
        let other = try #require(HouseholdKey(base64: HouseholdKey.generate()))
        #expect(id.hasPrefix("aquavate-kitchen-") && id.count == "aquavate-kitchen-".count + 16, "\(id)")
        #expect(id != "aquavate-kitchen-house")
        #expect(id != HouseholdMembership.sessionClientID(bridgeID: "kitchen", key: other), "another key, another id")
        #expect(id != HouseholdMembership.sessionClientID(bridgeID: "office", key: Self.key), "another member, another id")
        #expect(id == HouseholdMembership.sessionClientID(bridgeID: "kitchen", key: Self.key), "the same at every start")
    }
}
