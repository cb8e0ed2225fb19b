// What the household's tally of unbelieved messages says in the log: a forged or replayed message
// is dropped and points at household.key; a hello that comes too soon is deferred, not dropped, and
// must not send the owner looking for a stranger on the broker. Either is logged at its 1st, 10th,
// 100th … occurrence only, so a flood never floods the journal.

@testable import Household
import Logging
import TestFixtures
import Testing

@Suite struct HouseholdDropsTests {
    private func drops() -> (HouseholdDrops, LogLines) {
        let lines = LogLines()
        return (HouseholdDrops(logger: Logger(label: "test") { _ in LineHandler(lines: lines) }), lines)
    }

    @Test func aDeferredHelloIsLoggedAsDeferredNotAsAStranger() {
        let (drops, lines) = drops()
        drops.deferHello(topic: "hello/kitchen")
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.contains("deferred a hello on hello/kitchen") == true, "\(lines.all)")
        #expect(lines.all.first?.contains("household.key") == false, "\(lines.all)")
        #expect(drops.deferredHellos == 1)
        #expect(drops.snapshot.isEmpty, "a deferred hello is no dropped message: /metrics and doctor would blame a stranger")
    }

    @Test func manyDeferredHellosAreLoggedAtPowersOfTenOnly() {
        let (drops, lines) = drops()
        for _ in 0..<20 { drops.deferHello(topic: "hello/kitchen") }
        #expect(lines.all.count == 2, "1st and 10th: \(lines.all)")
        #expect(drops.deferredHellos == 20 && drops.snapshot.isEmpty)
    }

    @Test func aForgedMessageIsDroppedAndPointsAtTheKey() {
        let (drops, lines) = drops()
        drops.drop(.forged, topic: "drink/attic")
        #expect(lines.all.first?.contains("dropped a message on drink/attic (forged)") == true, "\(lines.all)")
        #expect(lines.all.first?.contains("only bridges with household.key are believed") == true, "\(lines.all)")
    }

    @Test func aFloodIsLoggedAtPowersOfTenOnly() {
        let (drops, lines) = drops()
        for _ in 0..<150 { drops.drop(.forged, topic: "drink/attic") }
        #expect(lines.all.count == 3, "1st, 10th and 100th: \(lines.all.count) lines")
        #expect(drops.snapshot[.forged] == 150)
    }
}
