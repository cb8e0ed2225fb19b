// The household's per-day digests (HouseholdDigest): the same drinks give the same digest in any
// order; a drink more, or a deletion, changes its day's and only its day's; the days that differ
// are exactly those asked for; and what crosses the wire is bounded and read back as written.

import History
@testable import Household
@testable import MQTT
import Testing

@Suite struct HouseholdDigestTests {
    typealias Row = DrinkHistory.DigestRow
    let day0: Int64 = 20_420 * 86_400
    var rows: [Row] {
        [Row(bottle: "AQ1", recordID: 1, timestamp: day0 + 100, deleted: false),
         Row(bottle: "AQ1", recordID: 2, timestamp: day0 + 200, deleted: false),
         Row(bottle: "AQ2", recordID: 1, timestamp: day0 + 86_400 + 5, deleted: false)]
    }

    @Test func theSameDrinksInAnyOrderGiveTheSameDigest() {
        let digest = HouseholdDigest.days(rows)
        #expect(digest == HouseholdDigest.days(rows.reversed()))
        #expect(digest.keys.sorted() == [20_420, 20_421])
        #expect(digest[20_420]?.hasPrefix("2:") == true && digest[20_421]?.hasPrefix("1:") == true)
    }

    @Test func aMissingDrinkOrADeletionChangesOnlyItsDay() {
        let full = HouseholdDigest.days(rows)
        let lacking = HouseholdDigest.days(Array(rows.dropFirst()))
        #expect(HouseholdDigest.differing(theirs: full, ours: lacking) == [20_420])
        var deleted = rows
        deleted[2].deleted = true
        #expect(HouseholdDigest.differing(theirs: HouseholdDigest.days(deleted), ours: full) == [20_421])
        #expect(HouseholdDigest.differing(theirs: full, ours: full).isEmpty)
        // A day this member holds nothing of is asked for whole.
        #expect(HouseholdDigest.differing(theirs: full, ours: [:]) == [20_420, 20_421])
    }

    @Test func theWireIsBoundedAndReadsBack() throws {
        let digest = HouseholdDigest.days(rows)
        let message = HouseholdDigestMessage(digest)
        #expect(HouseholdDigestMessage.read(Array(message.text.utf8)) == digest)
        #expect(message.text.utf8.count < 200)
        let many = Dictionary(uniqueKeysWithValues: (0..<40).map { (String($0), "1:00") })
        #expect(HouseholdDigestMessage.read(Array(WireJSON.text(HouseholdDigestMessage(days: many)).utf8)) == nil, "more days than a window")
        #expect(HouseholdDigestMessage.read(Array("not json".utf8)) == nil)
        let want = HouseholdWantMessage(of: "kitchen", days: [20_420])
        #expect(HouseholdWantMessage.read(Array(want.text.utf8)) == want)
        #expect(HouseholdWantMessage.read(Array(#"{"of":"a b","days":[1]}"#.utf8)) == nil)
        // The window ends today and covers `windowDays` days.
        let now = Double(day0) + 3600
        #expect(HouseholdDigest.windowStart(now: now) == day0 - Int64(HouseholdDigest.windowDays - 1) * 86_400)
    }
}
