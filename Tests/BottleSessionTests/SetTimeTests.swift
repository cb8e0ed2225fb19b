// SET_TIME is written only when the daemon trusts this machine's clock, and never from a clock
// behind the bottle's own (its Current State, read before SET_TIME) or behind the newest stored
// drink: the bottle keeps any time it is given (docs/protocol.md B9). A withheld SET_TIME changes
// nothing else: the sync runs as before.

import AquavateProtocol
import BottleSession
import Foundation
import Testing
import TestSupport
import Timekeeping

@Suite struct SetTimeTests {
    /// The fake bottle's Current State says 1_763_712_000; the rig's clock starts at 1_763_720_000.
    static let bottleTime: WallInstant = WallInstant(secondsSince1970: 1_763_712_000)

    @Test func aClockNotSynchronisedWithholdsSetTimeAndTheSyncStillRuns() async throws {
        let bottle = FakeBottle()
        bottle.addDrinks(20)
        let rig = try SessionRig(bottle: bottle)
        let (report, _) = await rig.session(setTime: .skip("this machine's clock is not synchronised (NTP)"))
        #expect(bottle.setTimes.isEmpty)
        #expect(report.outcome == .synced)
        #expect(try rig.storedDrinks().count == 20)
    }

    @Test func aClockBehindTheNewestStoredDrinkWithholdsSetTime() async throws {
        let bottle = FakeBottle()
        let rig = try SessionRig(bottle: bottle)
        let policy = SetTimePolicy(floors: [TimeFloor(time: rig.clock.now + .seconds(86_400), what: "the newest stored drink", slack: .seconds(3600))])
        _ = await rig.session(setTime: policy)
        #expect(bottle.setTimes.isEmpty)
        #expect(policy.reasonToWithhold(now: rig.clock.now, bottleTime: nil)?.contains("86400 s behind the newest stored drink") == true)
    }

    @Test func aClockBehindTheBottlesOwnWithholdsSetTime() async throws {
        let bottle = FakeBottle()
        // This machine two hours behind the bottle's Current State: more than its hour of drift.
        let rig = try SessionRig(bottle: bottle)
        rig.clock.advance(by: Self.bottleTime - .seconds(7200) - rig.clock.now)
        _ = await rig.session(setTime: SetTimePolicy())
        #expect(bottle.setTimes.isEmpty)
        // The Current State was read before SET_TIME would have been written.
        #expect(rig.journal.all.contains(.read(.currentState)))
    }

    @Test func aTrustedClockAheadOfEverythingSendsSetTime() async throws {
        let bottle = FakeBottle()
        let rig = try SessionRig(bottle: bottle)
        let policy = SetTimePolicy(floors: [TimeFloor(time: Self.bottleTime - .seconds(600), what: "the newest stored drink", slack: .seconds(3600))])
        _ = await rig.session(setTime: policy)
        #expect(bottle.setTimes == [UInt32(1_763_720_000)])
        // Within the bottle's slack (it drifts while asleep): still sent.
        let drifted = try SessionRig(bottle: FakeBottle())
        drifted.clock.advance(by: Self.bottleTime - .seconds(1800) - drifted.clock.now)
        _ = await drifted.session(setTime: SetTimePolicy())
        #expect(drifted.bottle.setTimes == [UInt32((Self.bottleTime - .seconds(1800)).secondsSince1970)])
    }
}
