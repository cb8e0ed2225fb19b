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

public struct WebFixture: Sendable {
    /// 2026-11-20T15:00:00Z, 16:00 in Europe/Madrid.
    public static let now: WallInstant = WallInstant(secondsSince1970: 1_795_186_800)
    public static let zone = TimeZone(identifier: "Europe/Madrid")!
    public static let ana = "AQ-ANA-0001"
    public static let bea = "AQ-BEA-0002"

    /// The name Bea's bottle advertises unless a test gives another: markup the page must escape.
    public static let hostileName = "Bea <script>"

    public let history: DrinkHistory
    public let configuration: Configuration
    public let folder: URL

    /// - Parameters:
    ///   - drinks: false leaves both bottles without a single drink (a new household).
    ///   - beaName: the name Bea's bottle advertises.
    public init(settings: [String] = [], days: Int = 8, drinks: Bool = true, beaName: String = WebFixture.hostileName) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        history = try DrinkHistory(path: folder.appendingPathComponent("history.sqlite").path, durability: .normal)
        var configuration = Configuration()
        for setting in ["timezone=Europe/Madrid"] + settings { try configuration.applyOverride(setting) }
        self.configuration = configuration
        let state = CurrentStateSnapshot(receivedAt: Self.now - .seconds(600), bottleTime: 0, dailyTotalML: 0, bottleLevelML: 420,
                                         batteryPercent: 81, unsyncedCount: 0, flagsRaw: 0)
        try history.recordBottle(BottleRecord(id: Self.ana, name: "Ana's bottle", serial: Self.ana, address: "AA:00:00:00:00:01",
                                              goalML: 2000, lastSeen: Self.now - .seconds(600), lastSync: Self.now - .seconds(600), state: state))
        try history.recordBottle(BottleRecord(id: Self.bea, name: beaName, serial: Self.bea, address: "AA:00:00:00:00:02",
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
        _ = try history.store(anaRecords, bottle: Self.ana, at: Self.now - .seconds(600))
        _ = try history.store(beaRecords, bottle: Self.bea, at: Self.now - .seconds(3600))
    }

    /// The record id of Ana's 300 ml drink today.
    public var anaSecondDrinkToday: UInt32 {
        get throws {
            try history.storedDrinks(bottle: Self.ana).first { $0.amountML == 300 }!.recordID
        }
    }

    public static func record(_ id: UInt32, at time: WallInstant, ml: Int) -> DrinkRecord {
        DrinkRecord(recordID: id, timestamp: UInt32(time.secondsSince1970), amountML: Int16(ml), bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)
    }

    public var context: WebContext {
        WebContext(history: history, baseConfiguration: configuration, clock: ManualClock(Self.now))
    }

    public func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `body` with the server listening on a free loopback port, then stops the server.
    public func withServer(_ body: @Sendable (Int) async throws -> Void) async throws {
        try await WebServing.withServer(context, body)
    }
}
