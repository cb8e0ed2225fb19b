// The household's per-day digests (HouseholdDigest): the same drinks give the same digest in any
// order; a drink more, or a deletion, changes its day's and only its day's; the days that differ
// are exactly those asked for; before the window, periods of 14 days do the same; and what
// crosses the wire is bounded and read back as written (also by the form without periods). A
// want carries the marks of the drinks the asker holds of each day that differs, split over as
// many messages as keep each one small; a member one release older reads its days and ignores them.

import History
@testable import Household
@testable import MQTT
import Testing

@Suite struct HouseholdDigestTests {
    typealias Row = DrinkStore.DigestRow
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

    @Test func beforeTheWindowAMissingDrinkOrADeletionChangesOnlyItsPeriod() {
        let now = Double(day0) + 3600
        let start = HouseholdDigest.windowStart(now: now)
        // Two drinks 100 and 200 days before the window, one in it.
        let old = [Row(bottle: "AQ1", recordID: 1, timestamp: start - 100 * 86_400, deleted: false),
                   Row(bottle: "AQ1", recordID: 2, timestamp: start - 200 * 86_400, deleted: false),
                   Row(bottle: "AQ1", recordID: 3, timestamp: start + 5, deleted: false)]
        let full = HouseholdDigest.periods(old, before: start)
        #expect(full.count == 2, "the drink in the window is in no period")
        let lacking = HouseholdDigest.periods([old[1], old[2]], before: start)
        let period = HouseholdDigest.period(ofDay: HouseholdDigest.day(of: old[0].timestamp))
        #expect(HouseholdDigest.differing(theirs: full, ours: lacking) == [period])
        var deleted = old
        deleted[1].deleted = true
        #expect(HouseholdDigest.differing(theirs: HouseholdDigest.periods(deleted, before: start), ours: full)
            == [HouseholdDigest.period(ofDay: HouseholdDigest.day(of: old[1].timestamp))])
        // A period's days are its 14, and the horizon reaches back 26 periods before the window.
        #expect(HouseholdDigest.days(ofPeriod: period).contains(HouseholdDigest.day(of: old[0].timestamp)))
        #expect(HouseholdDigest.days(ofPeriod: period).count == 14)
        #expect(HouseholdDigest.horizonStart(now: now) <= start - 26 * 14 * 86_400)
        #expect(HouseholdDigest.horizonStart(now: now) > start - 27 * 14 * 86_400)
        #expect(HouseholdDigest.period(ofDay: -1) == -1 && HouseholdDigest.period(ofDay: 13) == 0 && HouseholdDigest.period(ofDay: 14) == 1)
    }

    @Test func periodsCrossTheWireAndTheFormWithoutThemStillReads() throws {
        let days = HouseholdDigest.days(rows)
        let periods: [Int64: String] = [1_450: "20:0011223344556677", 1_451: "3:8899aabbccddeeff"]
        let message = HouseholdDigestMessage(days, periods: periods)
        let read = try #require(HouseholdDigestMessage.readAll(Array(message.text.utf8)))
        #expect(read.days == days && read.periods == periods)
        // A digest with no period is the bytes the household sent before periods.
        #expect(!HouseholdDigestMessage(days).text.contains("periods"))
        #expect(HouseholdDigestMessage.readAll(Array(#"{"days":{"20420":"2:00"}}"#.utf8))?.periods == [:])
        // A year of periods and a full window stay well under the household's 2 KiB payload.
        let year = Dictionary(uniqueKeysWithValues: (0..<Int64(HouseholdDigest.horizonPeriods)).map { ($0 + 1_430, "280:0011223344556677") })
        let window = Dictionary(uniqueKeysWithValues: (0..<Int64(HouseholdDigest.windowDays)).map { ($0 + 20_400, "200:0011223344556677") })
        #expect(HouseholdDigestMessage(window, periods: year).text.utf8.count < 1_500)
        let tooMany = Dictionary(uniqueKeysWithValues: (0..<40).map { (String($0), "1:00") })
        #expect(HouseholdDigestMessage.readAll(Array(WireJSON.text(HouseholdDigestMessage(days: [:], periods: tooMany)).utf8)) == nil)
        let want = HouseholdWantMessage(of: "kitchen", days: [], periods: [1_450])
        #expect(HouseholdWantMessage.read(Array(want.text.utf8)) == want)
        #expect(!HouseholdWantMessage(of: "kitchen", days: [20_420]).text.contains("periods"))
        #expect(HouseholdWantMessage.read(Array(#"{"of":"kitchen","days":[20420]}"#.utf8))?.periods == nil)
    }

    /// A digest and a want as a member one release older reads them (its types had no periods).
    struct DigestBefore: Decodable { var days: [String: String] }
    struct WantBefore: Decodable { var of: String; var days: [Int64] }

    @Test func aMemberOneReleaseOlderReadsTheDaysOfADigestWithPeriods() throws {
        let days = HouseholdDigest.days(rows)
        let periods: [Int64: String] = [1_450: "20:0011223344556677"]
        let before = try WireJSON.decode(DigestBefore.self, from: Array(HouseholdDigestMessage(days, periods: periods).text.utf8))
        #expect(before.days == HouseholdDigestMessage(days).days)
        // A want of periods alone is, to it, a want of no day: it publishes nothing.
        let want = try WireJSON.decode(WantBefore.self, from: Array(HouseholdWantMessage(of: "kitchen", days: [], periods: [1_450]).text.utf8))
        #expect(want.of == "kitchen" && want.days.isEmpty)
    }

    @Test func aDrinksMarkChangesWithItsDeletionAndIsTwelveHexDigits() {
        let drink = rows[0]
        var deleted = drink
        deleted.deleted = true
        #expect(HouseholdDigest.mark(drink).count == 12 && HouseholdDigest.mark(drink).allSatisfy(\.isHexDigit))
        #expect(HouseholdDigest.mark(drink) != HouseholdDigest.mark(deleted), "a missed deletion is a drink to send again")
        #expect(HouseholdDigest.mark(drink) == HouseholdDigest.mark(bottle: "AQ1", recordID: 1, timestamp: day0 + 100, deleted: false))
    }

    @Test func aWantWithTheMarksHeldIsReadBackAndBounded() throws {
        let marks = rows.prefix(2).map(HouseholdDigest.mark)
        let want = HouseholdWantMessage(of: "kitchen", days: [20_420, 20_421], held: [20_420: marks])
        let read = try #require(HouseholdWantMessage.read(Array(want.text.utf8)))
        #expect(read == want && read.heldByDay == [20_420: Set(marks)])
        #expect(!HouseholdWantMessage(of: "kitchen", days: [20_420]).text.contains("held"), "no marks, no key: the bytes of before")
        // Marks of a day it does not ask for, or that are no marks, make no want.
        #expect(HouseholdWantMessage.read(Array(#"{"of":"kitchen","days":[1],"held":{"2":["0011223344ff"]}}"#.utf8)) == nil)
        #expect(HouseholdWantMessage.read(Array(#"{"of":"kitchen","days":[1],"held":{"1":["zz11223344ff"]}}"#.utf8)) == nil)
        #expect(HouseholdWantMessage.read(Array(#"{"of":"kitchen","days":[1],"held":{"1":["0011"]}}"#.utf8)) == nil)
        let tooMany = Array(repeating: "0011223344ff", count: HouseholdWantMessage.maximumMarksPerDay + 1)
        #expect(HouseholdWantMessage.read(Array(HouseholdWantMessage(of: "kitchen", days: [1], held: [1: tooMany]).text.utf8)) == nil)
    }

    @Test func theMarksOfAWeekAreSplitOverWantsThatEachFitAndAskForEveryDayOnce() throws {
        // 14 days of 20 drinks held, and a day of 150 (over the marks a day may carry).
        var held: [Int64: [String]] = [:]
        for day in Int64(20_400)..<20_414 {
            held[day] = (0..<20).map { HouseholdDigest.mark(bottle: "AQ1", recordID: $0, timestamp: day * 86_400 + $0, deleted: false) }
        }
        held[20_414] = (0..<150).map { HouseholdDigest.mark(bottle: "AQ1", recordID: $0, timestamp: 20_414 * 86_400 + $0, deleted: false) }
        let days = Array(Int64(20_400)...20_415)
        let wants = HouseholdWantMessage.batches(of: "kitchen", days: days, periods: [1_450], held: held)
        #expect(wants.count > 1, "one message would be over the household's largest")
        #expect(wants.allSatisfy { $0.text.utf8.count <= HouseholdWantMessage.maximumBody && HouseholdWantMessage.read(Array($0.text.utf8)) == $0 })
        #expect(wants.flatMap(\.days).sorted() == days, "every day asked for once")
        #expect(wants.compactMap(\.periods).flatMap { $0 } == [1_450], "the periods once")
        let marked = wants.reduce(into: [Int64: Set<String>]()) { $0.merge($1.heldByDay) { a, _ in a } }
        #expect(marked[20_414] == nil && marked[20_415] == nil, "a day over the limit, and one held not at all, are asked for whole")
        #expect(marked[20_400] == Set(held[20_400]!), "a day with its marks")
    }

    @Test func aMemberOneReleaseOlderReadsTheDaysOfAWantWithMarks() throws {
        let want = HouseholdWantMessage(of: "kitchen", days: [20_420], held: [20_420: [HouseholdDigest.mark(rows[0])]])
        let before = try WireJSON.decode(WantBefore.self, from: Array(want.text.utf8))
        #expect(before.of == "kitchen" && before.days == [20_420], "it answers with the whole day, as it always did")
    }
}
