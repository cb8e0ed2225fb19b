// The household's rules as a value (HouseholdClaimRule), without a broker or a clock: who syncs a
// bottle (a fresh hold, else the strongest RSSI, the smaller bridge id on a tie; a bridge whose
// last will came, or whose claim expired, does not count), and who reminds its person (the last
// syncer while it is alive; after its last will, the alive bridge with the smallest id among those
// that run the bottle's reminders; a change settles before anyone judges by it), and that a
// reminder another bridge delivered is not delivered again the same day.

@testable import Household
import Testing
import Timekeeping

@Suite struct HouseholdClaimRuleTests {
    static let start = WallInstant(secondsSince1970: 1_764_000_000)
    static let address = "F4:12:FA:00:A3:F4", serial = "AQV-0042"
    static var addressID: String { HouseholdClaimRule.topicID(address) }
    static var serialID: String { HouseholdClaimRule.topicID(serial) }

    typealias Claim = HouseholdLink.Claim

    func rule(_ me: String = "kitchen", hearing messages: [HouseholdLink.Received] = [], at time: WallInstant = start) -> HouseholdClaimRule {
        var rule = HouseholdClaimRule(me: me)
        for message in messages { _ = rule.hear(message, at: time) }
        return rule
    }

    static func claim(_ bridge: String, _ phase: Claim.Phase, _ rssi: Int, on bottle: String = serialID,
                      at time: WallInstant = start) -> HouseholdLink.Received {
        .claim(bottle: bottle, bridge: bridge, Claim(phase: phase, rssi: rssi), stored: false, sentAt: time)
    }

    // MARK: Who syncs

    @Test func theStrongerWantWinsAndATieGoesToTheSmallerID() {
        let now = Self.start + .seconds(1)
        let mine = Claim(phase: .want, rssi: -60)
        #expect(rule(hearing: [Self.claim("office", .want, -50)]).outcome(bottles: [Self.serialID], mine: mine, at: now) == .heldBy("office"))
        #expect(rule(hearing: [Self.claim("office", .want, -70)]).outcome(bottles: [Self.serialID], mine: mine, at: now) == .granted)
        // The same RSSI: the smaller id, whichever bridge asks.
        #expect(rule(hearing: [Self.claim("attic", .want, -60)]).outcome(bottles: [Self.serialID], mine: mine, at: now) == .heldBy("attic"))
        #expect(rule(hearing: [Self.claim("office", .want, -60)]).outcome(bottles: [Self.serialID], mine: mine, at: now) == .granted)
        // Several louder ones: the loudest.
        let many = rule(hearing: [Self.claim("office", .want, -55), Self.claim("attic", .want, -40), Self.claim("garage", .want, -50)])
        #expect(many.outcome(bottles: [Self.serialID], mine: mine, at: now) == .heldBy("attic"))
    }

    @Test func aFreshHoldWinsOverAnyWant() {
        let rule = rule(hearing: [Self.claim("office", .hold, -90)])
        #expect(rule.outcome(bottles: [Self.serialID], mine: Claim(phase: .want, rssi: -30), at: Self.start + .seconds(1)) == .heldBy("office"))
        // Before this bridge wants it, too: it does not even ask.
        #expect(rule.outcome(bottles: [Self.serialID], mine: nil, at: Self.start + .seconds(1)) == .heldBy("office"))
    }

    @Test func anExpiredClaimOrAnOfflineBridgeDoesNotCount() {
        let mine = Claim(phase: .want, rssi: -80)
        let held = rule(hearing: [Self.claim("office", .hold, -40)])
        #expect(held.outcome(bottles: [Self.serialID], mine: mine, at: Self.start + HouseholdClaimRule.expiry + .seconds(1)) == .granted)
        let wanted = rule(hearing: [Self.claim("office", .want, -40)])
        #expect(wanted.outcome(bottles: [Self.serialID], mine: mine, at: Self.start + HouseholdClaimRule.wantLifetime + .seconds(1)) == .granted)
        let gone = rule(hearing: [Self.claim("office", .hold, -40), .alive(bridge: "office", false)])
        #expect(gone.outcome(bottles: [Self.serialID], mine: mine, at: Self.start + .seconds(1)) == .granted)
    }

    @Test func aReleasedClaimIsGone() {
        let released = rule(hearing: [Self.claim("office", .hold, -40),
                                      .claim(bottle: Self.serialID, bridge: "office", nil, stored: false, sentAt: Self.start)])
        #expect(released.outcome(bottles: [Self.serialID], mine: Claim(phase: .want, rssi: -80), at: Self.start + .seconds(1)) == .granted)
        #expect(released.claims.isEmpty)
    }

    @Test func claimsUnderTheAddressAndTheSerialMeet() {
        // One bridge knows the bottle by its address, the other by its serial.
        let rule = rule(hearing: [Self.claim("office", .want, -45, on: Self.addressID)])
        let mine = Claim(phase: .want, rssi: -60)
        #expect(rule.outcome(bottles: [Self.serialID], mine: mine, at: Self.start + .seconds(1)) == .granted, "not under the serial alone")
        #expect(rule.outcome(bottles: [Self.serialID, Self.addressID], mine: mine, at: Self.start + .seconds(1)) == .heldBy("office"))
    }

    @Test func aRetainedHoldIsAsOldAsItsSignature() {
        // Heard now, signed four minutes ago: expired already.
        var rule = HouseholdClaimRule(me: "kitchen")
        _ = rule.hear(.claim(bottle: Self.serialID, bridge: "office", Claim(phase: .hold, rssi: -40), stored: true,
                             sentAt: Self.start - .seconds(240)), at: Self.start)
        #expect(rule.outcome(bottles: [Self.serialID], mine: Claim(phase: .want, rssi: -80), at: Self.start) == .granted)
    }

    // MARK: Who reminds

    @Test func theLastSyncerRemindsWhileItIsAlive() {
        var rule = rule(hearing: [.reminds(bottle: Self.serialID, bridge: "kitchen", true), .reminds(bottle: Self.serialID, bridge: "office", true),
                                  .alive(bridge: "office", true), .syncer(bottle: Self.serialID, bridge: "office", time: Self.start)])
        #expect(rule.reminder(key: Self.serial, address: nil) == "office")
        #expect(!rule.reminds(key: Self.serial, address: nil))
        // This bridge syncs it: it reminds, and judges at once (its own sync needs no settling).
        rule.syncedHere(Self.serialID, at: Self.start + .seconds(60))
        #expect(rule.reminds(key: Self.serial, address: nil))
        #expect(rule.deliversNow(key: Self.serial, address: nil, at: Self.start + .seconds(60)))
    }

    @Test func theLaterSyncCountsWhateverTheOrderHeard() {
        let rule = rule(hearing: [.syncer(bottle: Self.serialID, bridge: "office", time: Self.start + .seconds(100)),
                                  .syncer(bottle: Self.serialID, bridge: "attic", time: Self.start + .seconds(50))])
        #expect(rule.reminder(key: Self.serial, address: nil) == "office")
    }

    @Test func aLastWillHandsTheRemindersToTheSmallestAliveBridgeThatRunsThem() {
        var rule = rule("kitchen", hearing: [
            .reminds(bottle: Self.serialID, bridge: "kitchen", true), .reminds(bottle: Self.serialID, bridge: "office", true),
            .reminds(bottle: Self.serialID, bridge: "attic", true),
            .alive(bridge: "office", true), .alive(bridge: "attic", true),
            .syncer(bottle: Self.serialID, bridge: "office", time: Self.start),
        ])
        #expect(rule.reminder(key: Self.serial, address: nil) == "office")
        let died = Self.start + .seconds(600)
        _ = rule.hear(.alive(bridge: "office", false), at: died)
        // attic < kitchen < office.
        #expect(rule.reminder(key: Self.serial, address: nil) == "attic")
        _ = rule.hear(.alive(bridge: "attic", false), at: died + .seconds(1))
        #expect(rule.reminder(key: Self.serial, address: nil) == "kitchen")
        // The hand-over settles first: nobody judges by a change others may not have heard yet.
        #expect(rule.settling(key: Self.serial, address: nil, at: died + .seconds(2)))
        #expect(!rule.deliversNow(key: Self.serial, address: nil, at: died + .seconds(2)))
        #expect(rule.deliversNow(key: Self.serial, address: nil, at: died + .seconds(1) + HouseholdClaimRule.handOverSettle))
    }

    @Test func aBridgeThatNeverSaidItRunsTheRemindersIsNoCandidateWhileOthersAre() {
        let announced = rule("attic", hearing: [.reminds(bottle: Self.serialID, bridge: "office", true), .alive(bridge: "office", true)])
        #expect(announced.reminder(key: Self.serial, address: nil) == "office", "attic < office, but attic never said so")
        // Once it said so, the smaller id wins.
        var said = announced
        #expect(said.remindsHere(Self.serialID) == false)
        #expect(said.remindsHere(Self.serialID) == true, "said once")
        #expect(said.reminder(key: Self.serial, address: nil) == "attic")
    }

    @Test func aBridgeThatHeardNobodyRemindsItself() {
        #expect(rule("office").reminds(key: Self.serial, address: Self.address))
    }

    @Test func theSerialMappedToAnAddressFindsItsSyncer() {
        let rule = rule(hearing: [.bottleKey(address: Self.addressID, key: Self.serial), .alive(bridge: "office", true),
                                  .syncer(bottle: Self.serialID, bridge: "office", time: Self.start)])
        #expect(rule.reminder(key: Self.address, address: Self.address) == "office")
        #expect(rule.reminder(key: Self.address, address: nil) == "kitchen", "without the address, the mapping is not known")
    }

    // MARK: Nothing repeated

    @Test func aReminderAnotherBridgeDeliveredIsNotRepeatedThatDay() {
        var rule = HouseholdClaimRule(me: "kitchen")
        let due = Self.start
        _ = rule.hear(.delivered(.init(bottle: Self.serial, id: "hydration-1", kind: "hydration", time: due, from: "office")), at: due)
        #expect(rule.deliveredElsewhere(id: "hydration-1", bottle: Self.serial, time: due, at: due + .seconds(30)))
        #expect(!rule.deliveredElsewhere(id: "hydration-2", bottle: Self.serial, time: due, at: due + .seconds(30)))
        // The same id the next day is another reminder.
        #expect(!rule.deliveredElsewhere(id: "hydration-1", bottle: Self.serial, time: due + .seconds(86_400), at: due + .seconds(86_400)))
        // What this bridge delivered itself is not "elsewhere".
        _ = rule.hear(.delivered(.init(bottle: Self.serial, id: "hydration-3", kind: "hydration", time: due, from: "kitchen")), at: due)
        #expect(!rule.deliveredElsewhere(id: "hydration-3", bottle: Self.serial, time: due, at: due))
    }

    @Test func rememberedDeliveriesCountAfterARestart() {
        let rule = HouseholdClaimRule(me: "kitchen", remembered: [(bottle: Self.serial, id: "hydration-1", time: Self.start, heardAt: Self.start)])
        #expect(rule.deliveredElsewhere(id: "hydration-1", bottle: Self.serial, time: Self.start, at: Self.start + .seconds(3600)))
    }

    @Test func whatTheBrokerFeedsIsBounded() {
        var rule = HouseholdClaimRule(me: "kitchen")
        for index in 0..<(HouseholdClaimRule.maximumBottles + 20) {
            _ = rule.hear(Self.claim("office", .want, -50, on: "bottle\(index)", at: Self.start + .seconds(Int64(index))),
                          at: Self.start + .seconds(Int64(index)))
        }
        #expect(rule.claims.count <= HouseholdClaimRule.maximumBottles)
        #expect(rule.claims["bottle\(HouseholdClaimRule.maximumBottles + 19)"] != nil, "the newest kept")
    }
}
