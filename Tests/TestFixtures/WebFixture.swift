// A household for the web and browser tests: two bottles (Ana's and Bea's), a week of drinks
// each, today's drinks; the clock stopped on 2026-11-20 at 16:00 in Madrid. And the server on a
// free loopback port for the length of a test (WebServing). Bea's bottle advertises a hostile name
// unless a test (the README's screenshots) asks for a plain one: the page must escape it.

import AquavateProtocol
import Foundation
import History
import Logging
import Settings
import Timekeeping
import Web

package struct WebFixture: Sendable {
    /// 2026-11-20T15:00:00Z, 16:00 in Europe/Madrid.
    package static let now: WallInstant = WallInstant(secondsSince1970: 1_795_186_800)
    package static let zone = TimeZone(identifier: "Europe/Madrid")!
    package static let ana = "AQ-ANA-0001"
    package static let bea = "AQ-BEA-0002"

    /// The name Bea's bottle advertises unless a test gives another: markup the page must escape.
    package static let hostileName = "Bea <script>"

    package let history: DrinkHistory
    package let configuration: Configuration
    package let folder: URL

    /// - Parameters:
    ///   - drinks: false leaves both bottles without a single drink (a new household).
    ///   - beaName: the name Bea's bottle advertises.
    package init(settings: [String] = [], days: Int = 8, drinks: Bool = true, beaName: String = WebFixture.hostileName) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        history = try DrinkHistory(path: folder.appendingPathComponent("history.sqlite").path, durability: .normal)
        var configuration = Configuration()
        for setting in ["timezone=Europe/Madrid"] + settings { try configuration.applyOverride(setting) }
        self.configuration = configuration
        let state = CurrentStateSnapshot(receivedAt: Self.now - .seconds(600), bottleTime: 0, dailyTotalML: 0, bottleLevelML: 420,
                                         batteryPercent: 81, unsyncedCount: 0, flagsRaw: 0)
        try history.bottles.save(BottleRecord(id: Self.ana, name: "Ana's bottle", serial: Self.ana, address: "AA:00:00:00:00:01",
                                              goalML: 2000, lastSeen: Self.now - .seconds(600), lastSync: Self.now - .seconds(600), state: state))
        try history.bottles.save(BottleRecord(id: Self.bea, name: beaName, serial: Self.bea, address: "AA:00:00:00:00:02",
                                              goalML: 2500, lastSeen: Self.now - .seconds(3600), lastSync: Self.now - .seconds(3600), state: nil))
        guard drinks else { return }
        // Past days: Ana 2100 ml a day (goal met), Bea 1500 ml; today (from 08:00 local) a few drinks.
        let todayStart = LocalDay(containing: Self.now, timeZone: Self.zone).interval(in: Self.zone).start
        var anaRecords: [DrinkRecord] = [], beaRecords: [DrinkRecord] = []
        var id: UInt32 = 1
        for day in stride(from: days - 1, through: 1, by: -1) {
            let start = todayStart - .seconds(day * 86_400)
            for hour in [9, 12, 15] {
                anaRecords.append(Self.record(id, at: start + .seconds(hour * 3600), ml: 700))
                beaRecords.append(Self.record(id, at: start + .seconds(hour * 3600 + 60), ml: 500))
                id += 1
            }
        }
        anaRecords += [Self.record(id, at: todayStart + .seconds(8 * 3600), ml: 250), Self.record(id + 1, at: todayStart + .seconds(11 * 3600), ml: 300),
                       Self.record(id + 2, at: todayStart + .seconds(14.5 * 3600), ml: 200)]
        beaRecords += [Self.record(id, at: todayStart + .seconds(9 * 3600), ml: 400)]
        _ = try history.drinks.store(anaRecords, bottle: Self.ana, at: Self.now - .seconds(600))
        _ = try history.drinks.store(beaRecords, bottle: Self.bea, at: Self.now - .seconds(3600))
    }

    /// One more bottle of the household, seen `seenAgo` before now: `days - 1` past days of
    /// `dailyML` (three drinks) and, when not 0, `todayML` at 09:00 today.
    package func addBottle(_ id: String, name: String, goalML: Int, dailyML: Int, todayML: Int, days: Int = 8,
                          seenAgo: Duration = .seconds(7200)) throws {
        try history.bottles.save(BottleRecord(id: id, name: name, serial: id, address: nil, goalML: goalML,
                                              lastSeen: Self.now - seenAgo, lastSync: Self.now - seenAgo, state: nil))
        let todayStart = LocalDay(containing: Self.now, timeZone: Self.zone).interval(in: Self.zone).start
        var records: [DrinkRecord] = []
        var record: UInt32 = 1
        for day in stride(from: days - 1, through: 1, by: -1) {
            for hour in [9, 12, 15] {
                records.append(Self.record(record, at: todayStart - .seconds(day * 86_400) + .seconds(hour * 3600), ml: dailyML / 3))
                record += 1
            }
        }
        if todayML > 0 { records.append(Self.record(record, at: todayStart + .seconds(9 * 3600), ml: todayML)) }
        _ = try history.drinks.store(records, bottle: id, at: Self.now - seenAgo)
    }

    /// Ana's and Bea's bottles, now Maya's and Leo's, and two more children's: Cai on track (1300
    /// of 1400 ml at 16:00), Dan needing a drink (700 of 1600 ml). By need (the pace window 07:00
    /// to 22:00, 60 % of the goal expected at 16:00): Leo (1100 ml behind, overdue), Maya (450,
    /// overdue), Dan (260), Cai.
    package static func family(days: Int = 8) throws -> WebFixture {
        let fixture = try WebFixture(settings: ["bottle.\(ana).owner=Maya", "bottle.\(bea).owner=Leo", "bottle.AQ-CAI-0003.owner=Cai",
                                                "bottle.AQ-DAN-0004.owner=Dan"], days: days, beaName: "Aquavate-B2C4")
        try fixture.addBottle("AQ-CAI-0003", name: "Aquavate-C3D5", goalML: 1400, dailyML: 1500, todayML: 1300, days: days)
        try fixture.addBottle("AQ-DAN-0004", name: "Aquavate-D4E6", goalML: 1600, dailyML: 1200, todayML: 700, days: days)
        return fixture
    }

    /// The record id of Ana's 300 ml drink today.
    package var anaSecondDrinkToday: UInt32 {
        get throws {
            try history.drinks.storedDrinks(bottle: Self.ana).first { $0.amountML == 300 }!.recordID
        }
    }

    package static func record(_ id: UInt32, at time: WallInstant, ml: Int) -> DrinkRecord {
        DrinkRecord(recordID: id, timestamp: UInt32(time.secondsSince1970), amountML: Int16(ml), bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)
    }

    package var context: WebContext {
        WebContext(history: history, baseConfiguration: configuration, clock: ManualClock(Self.now))
    }

    package func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `body` with the server listening on a free loopback port, then stops the server.
    package func withServer(_ body: @Sendable (Int) async throws -> Void) async throws {
        try await WebServing.withServer(context, body)
    }
}
