// The household's replay guard across a restart (HouseholdReplayGuard): the newest stamp per
// sender and topic is saved, so a capture older than it is a replay for the member that starts
// again, while the saved stamp's own message (the broker's retained copy) is believed once by the
// new process; a retained message already dropped is counted once, however often the broker sends
// it again; what is kept stays bounded.

import Foundation
import History
@testable import Household
@testable import MQTT
import Testing
import Timekeeping

@Suite struct HouseholdReplayGuardTests {
    func stamp(_ sender: String = "kitchen", boot: UInt64, _ sequence: UInt64, at time: Double = 1_795_000_000) -> HouseholdStamp {
        HouseholdStamp(sender: sender, boot: boot, sequence: sequence, time: WallInstant(secondsSince1970: time))
    }

    let alive = "aquavate/household/alive/kitchen"

    /// What one start saved, read back by the next start as the history hands it over.
    func restarted(_ guard: HouseholdReplayGuard) throws -> HouseholdReplayGuard {
        let history = try DrinkHistory(path: nil)
        try history.household.saveReplay(`guard`.saved.state.records)
        return HouseholdReplayGuard(saved: HouseholdReplayState(try history.household.replay()))
    }

    @Test func aCaptureOlderThanWhatAnEarlierStartHeardIsAReplay() throws {
        let before = HouseholdReplayGuard()
        // The kitchen's offline of its first connection, then its online of a later one.
        #expect(before.judge(stamp(boot: 10, 1), topic: alive) == .fresh)
        #expect(before.judge(stamp(boot: 11, 0), topic: alive) == .fresh)
        let after = try restarted(before)
        // The capture of boot 10, republished retained, after the restart: a replay.
        #expect(after.judge(stamp(boot: 10, 1), topic: alive) == .replayed)
        // The newest one (the broker's retained copy) is believed once by the new process, then is the same message.
        #expect(after.judge(stamp(boot: 11, 0), topic: alive) == .fresh)
        #expect(after.judge(stamp(boot: 11, 0), topic: alive) == .same)
        #expect(after.judge(stamp(boot: 11, 1), topic: alive) == .fresh)
    }

    @Test func withoutTheSavedStateTheCaptureWouldBeBelieved() {
        // What every start did before the state was saved: the check the test above depends on.
        let fresh = HouseholdReplayGuard()
        #expect(fresh.judge(stamp(boot: 10, 1), topic: alive) == .fresh)
    }

    @Test func aRetainedMessageAlreadyDroppedIsCountedOnceAlsoAfterARestart() throws {
        let first = HouseholdReplayGuard()
        let junk = Array("junk".utf8)
        #expect(first.countsAsDropped(topic: alive, payload: junk, retained: false), "heard live: counted")
        #expect(!first.countsAsDropped(topic: alive, payload: junk, retained: true), "the retained copy at a reconnection: not again")
        #expect(first.countsAsDropped(topic: alive, payload: junk, retained: false), "sent again live: a new message, counted")
        let second = try restarted(first)
        #expect(!second.countsAsDropped(topic: alive, payload: junk, retained: true), "nor after a restart")
        #expect(second.countsAsDropped(topic: alive, payload: Array("other".utf8), retained: true), "another retained message is counted")
        #expect(second.countsAsDropped(topic: alive + "x", payload: junk, retained: true), "the same bytes on another topic too")
    }

    @Test func whatIsKeptIsBounded() throws {
        let guardian = HouseholdReplayGuard()
        for index in 0..<(HouseholdReplayGuard.maximumMarks + 100) {
            _ = guardian.judge(stamp("m\(index % 64)", boot: 1, 0, at: 1_795_000_000 + Double(index)), topic: "aquavate/household/claim/b\(index)/m\(index % 64)")
        }
        for index in 0..<(HouseholdReplayGuard.maximumJudged + 100) {
            _ = guardian.countsAsDropped(topic: alive, payload: Array("junk \(index)".utf8), retained: true)
        }
        let saved = guardian.saved.state
        #expect(saved.marks.count <= HouseholdReplayGuard.maximumMarks)
        #expect(saved.judged.count <= HouseholdReplayGuard.maximumJudged)
        // The newest are the ones kept.
        #expect(saved.marks["m\((HouseholdReplayGuard.maximumMarks + 99) % 64) aquavate/household/claim/b\(HouseholdReplayGuard.maximumMarks + 99)/m\((HouseholdReplayGuard.maximumMarks + 99) % 64)"] != nil)
        let reread = try restarted(guardian).saved.state
        #expect(reread == saved)
    }
}
