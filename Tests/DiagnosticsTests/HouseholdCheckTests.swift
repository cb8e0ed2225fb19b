// `doctor`'s household verdict on the answers of a probe (`HouseholdCheck.judge`): two bridges
// answering to one bridge.id fail (they would claim each other's bottles), a bridge whose clock
// is seconds apart or not synchronised warns (claims and reminders compare times). Beside a
// running bridge the household is not asked (the question would take the bridge's connection).

@testable import Diagnostics
import History
@testable import Household
import Settings
import Testing

@Suite("doctor: the household")
struct HouseholdCheckTests {
    static let key = HouseholdKey(base64: "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=")!

    @Test("doctor: one bridge.id answered by two bridges fails; clocks apart or unsynchronised warn")
    func doctorJudges() {
        typealias Answer = HouseholdProbe.Answer
        let fine = [Answer(bridge: "kitchen", clockOffset: 0.1, instance: "a", synchronised: true),
                    Answer(bridge: "office", clockOffset: -0.3, instance: "b", synchronised: true)]
        #expect(HouseholdCheck.judge(fine, ownID: "kitchen").map(\.status) == [.ok, .ok])
        let twins = fine + [Answer(bridge: "office", clockOffset: 0, instance: "c", synchronised: true)]
        #expect(HouseholdCheck.judge(twins, ownID: "kitchen").first?.status == .fail)
        let apart = [Answer(bridge: "office", clockOffset: 7.5, instance: "b", synchronised: true)]
        #expect(HouseholdCheck.judge(apart, ownID: "kitchen").last?.status == .warn)
        let drifting = [Answer(bridge: "office", clockOffset: 0, instance: "b", synchronised: false)]
        #expect(HouseholdCheck.judge(drifting, ownID: "kitchen").last?.detail.contains("not synchronised: office") == true)
    }

    @Test("doctor beside a running bridge: the household is not asked; the members the bridge heard are told instead")
    func besideARunningBridge() async {
        let marks = [HouseholdReplayMark(sender: "office", topic: "aquavate/household/alive/office", boot: 3, sequence: 0, time: .epoch),
                     HouseholdReplayMark(sender: "office", topic: "aquavate/household/drink/office", boot: 3, sequence: 9, time: .epoch),
                     HouseholdReplayMark(sender: "kitchen", topic: "aquavate/household/alive/kitchen", boot: 5, sequence: 0, time: .epoch),
                     // A doctor's ping and a message on another member's topic name no member.
                     HouseholdReplayMark(sender: "doctor-7", topic: "aquavate/household/ping/doctor-7", boot: 1, sequence: 0, time: .epoch),
                     HouseholdReplayMark(sender: "attic", topic: "aquavate/household/alive/office", boot: 1, sequence: 0, time: .epoch)]
        let heard = HouseholdCheck.heardMembers(marks, topicPrefix: "aquavate")
        #expect(heard == ["kitchen", "office"])
        // No broker listens at this address: asked, the household gives no answer at all.
        let url = "mqtt://127.0.0.1:1"
        let beside = await HouseholdCheck.findings(url: url, key: Self.key, drops: [:], topicPrefix: "aquavate", ownID: "kitchen",
                                                   timeout: .milliseconds(300), runningBridge: 4242, heard: heard)
        #expect(beside.map(\.status) == [.ok, .ok])
        #expect(beside.last?.detail == "not asked from here: the running bridge (PID 4242) holds this bridge's broker logins; "
                    + "it has heard 1 other member(s): office (their clocks are compared when no bridge runs here)")
        let alone = await HouseholdCheck.findings(url: url, key: Self.key, drops: [:], topicPrefix: "aquavate", ownID: "kitchen",
                                                  timeout: .milliseconds(300))
        #expect(!alone.contains { $0.detail.contains("running bridge") })
    }
}
