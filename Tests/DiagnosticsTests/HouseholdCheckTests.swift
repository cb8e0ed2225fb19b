// `doctor`'s household verdict on the answers of a probe (`HouseholdCheck.judge`): two bridges
// answering to one bridge.id fail (they would claim each other's bottles), a bridge whose clock
// is seconds apart or not synchronised warns (claims and reminders compare times).

@testable import Diagnostics
@testable import Household
import Testing

@Suite("doctor: the household")
struct HouseholdCheckTests {
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
}
