// What the household's repair costs on the broker: the kitchen holds a year of its drinks (20 a
// day), the office the same less k of them lost (at random among the last 14 days, the digests'
// window, or among the older days, which the digests compare by periods of 14 days), and a saved
// state saying it heard everything, so only the digests can find the loss.
// Both reach a real mosquitto through a relay that counts every byte of every packet both ways;
// from the moment both are connected and quiet until the office holds the kitchen's history, the
// bytes are the repair's: the digests, the `want`s (with the marks of the drinks the office holds
// of each day that differs) and the lost drinks published again, one by one. The test
// checks they grow with the loss, not with the history; Benchmarks/household-repair.sh runs it
// with a year and k = 1, 10, 100 and prints the figures of docs/performance.md.
//
// The members share a ManualClock (the digests' schedule), moved on 5 s at a time once the relay
// has been quiet for a moment and both members are idle, as in HouseholdChaosTests.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
@testable import Household
import Logging
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

@Suite("the household's repair traffic", .serialized)
struct HouseholdRepairTrafficTests {
    static let drinksPerDay = 20
    static let bottle = "F4:12:FA:00:D0:01"

    /// `AQUAVATE_REPAIR_LOST` (comma-separated k), else the suite's.
    static var losses: [Int] {
        if let list = ProcessInfo.processInfo.environment["AQUAVATE_REPAIR_LOST"] {
            return list.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        return [0, 1, 10]
    }

    /// `AQUAVATE_REPAIR_DAYS`, else a year.
    static var days: Int {
        ProcessInfo.processInfo.environment["AQUAVATE_REPAIR_DAYS"].flatMap(Int.init) ?? 365
    }

    @Test("the bytes exchanged on the broker to repair k lost drinks of the last 14 days, of a year's history, grow with k, not with the history",
          arguments: losses)
    func recentLoss(lost: Int) async throws {
        try await measure(lost: lost, old: false)
    }

    @Test("the bytes exchanged on the broker to repair k lost drinks older than 14 days, of a year's history, grow with k, not with the history",
          arguments: losses.filter { $0 > 0 })
    func oldLoss(lost: Int) async throws {
        try await measure(lost: lost, old: true)
    }

    func measure(lost: Int, old: Bool) async throws {
        let chaos = HouseholdChaosTests()
        var random = SeededGenerator(seed: UInt64(lost) &+ 7)
        try await RelayedBroker.with { parts in
            let relay = parts.relay, clock = parts.clock
            let now = UInt32(clock.now.secondsSince1970)

            // A year of the kitchen's drinks, 20 a day, stored an hour ago (older than what a
            // restart publishes again); the office lacks `lost` of the last 14 days' ones.
            let total = Self.days * Self.drinksPerDay
            let records = (0..<total).map { index in
                HouseholdChaosTests.record(UInt32(index + 1), now - UInt32(total - index) * UInt32(86_400 / Self.drinksPerDay) - 3600)
            }
            // The window's drinks: the last 12 days' (its first days, by the hour of the day and
            // the drinks' hour of storage, may fall before the window's first UTC midnight).
            let window = total - (HouseholdDigest.windowDays - 2) * Self.drinksPerDay
            let among = old ? 0..<(window - 2 * Self.drinksPerDay) : window..<total
            var missing = Set<Int>()
            while missing.count < lost { missing.insert(Int.random(in: among, using: &random)) }
            let kitchenHistory = try DrinkHistory(path: nil)
            _ = try kitchenHistory.drinks.store(records, bottle: Self.bottle, at: clock.now - .seconds(3600))
            let officeHistory = try DrinkHistory(path: nil)
            _ = try officeHistory.drinks.storeReplicated(records.enumerated().filter { !missing.contains($0.offset) }.map(\.element),
                                                  bottle: Self.bottle, origin: "kitchen", at: clock.now - .seconds(3600))
            // Each says it published and heard everything: their hellos ask for nothing.
            try kitchenHistory.household.saveReplication(HouseholdReplicationRecords(publishedUpTo: clock.now))
            try officeHistory.household.saveReplication(HouseholdReplicationRecords(
                peers: [HouseholdPeerMark(member: "kitchen", answeredEpoch: nil, heardUpTo: clock.now)]))

            var built: [HouseholdChaosTests.Member] = []
            for (id, history) in [("kitchen", kitchenHistory), ("office", officeHistory)] {
                let log = Recorder<LogLine>()
                let replication = try HouseholdReplication(history: history, url: "mqtt://127.0.0.1:\(relay.port)", bridgeID: id,
                                                           key: HouseholdTestKey.key, clock: clock, logger: capturingLogger(log, level: .info),
                                                           reconnectDelay: 0.1...0.5)
                built.append(.init(id: id, bottle: Self.bottle, history: history, replication: replication, log: log))
            }
            let members = built
            let runs = members.map { member in Task { try await member.replication.run() } }
            defer { for run in runs { run.cancel() } }
            try await waitUntil(.seconds(30), "both members to connect") { members.allSatisfy(\.replication.isConnected) }
            try await chaos.settle(relay, members, clock)
            relay.resetTally()
            let started = clock.now
            // Until the office holds the kitchen's history and a digest round found nothing more
            // to ask (the next digests after the repair, 4 minutes on), so every k pays the same
            // rounds of digests.
            let wanted = await members[1].replication.daysWanted
            #expect(wanted == 0)
            while clock.now - started < .seconds(330) {
                try await chaos.settle(relay, members, clock)
                clock.advance(by: HouseholdChaosTests.step)
            }
            try await chaos.settle(relay, members, clock)
            let held = try officeHistory.drinks.storedDrinks().count
            let logs = members.map { $0.log.all.suffix(15).map(\.description).joined(separator: "\n") }.joined(separator: "\n--\n")
            #expect(try chaos.converged(members), "the office holds \(held) of the kitchen's \(total) drinks\n\(logs)")
            let tally = relay.tally
            let days = await members[1].replication.daysWanted
            let periods = await members[1].replication.periodsWanted
            let republished = await members[0].replication.publishedDrinks
            // A drink published again costs about 1 KB on the broker (in once, out to both members);
            // the history as drink messages would cost that times its drinks.
            let historyBytes = total * 1_000
            print("repair traffic: \(Self.days) days, \(total) drinks, \(lost) lost \(old ? "older than 14 days" : "in the last 14 days"): "
                  + "\(tally.bytes) bytes on the broker (\(tally.publishBytes) in PUBLISH packets, \(tally.published) packets), "
                  + "\(periods) older period(s) and \(days) day(s) asked for, "
                  + "\(republished) drinks published again, in 330 s of the household's clock (the history as messages: about \(historyBytes) bytes)")
            // Drink by drink: the lost ones go again, not their days.
            #expect(republished == lost, "\(republished) drinks published again for \(lost) lost")
            #expect(days <= lost && (old || days <= HouseholdDigest.windowDays))
            #expect(old ? periods >= 1 && periods <= lost : periods == 0)
            // The digests (two rounds, under 10 KB, and the periods' days), the marks of the days
            // that differ (20 a day, 15 bytes each, in and out) and the lost drinks: the
            // difference's, not the history's.
            #expect(tally.bytes <= 10_000 + periods * 3_000 + days * 1_000 + republished * 1_500, "\(tally)")
        }
    }
}
