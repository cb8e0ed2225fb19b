// A household for the web tests: two bottles (Ana's and Bea's), a week of drinks each, today's
// drinks, a pending goal; the clock stopped on 2026-11-20 at 16:00 in Madrid. And the server on a
// free loopback port for the length of a test.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import Logging
@testable import Settings
import Timekeeping
@testable import Web

struct WebFixture: Sendable {
    /// 2026-11-20T15:00:00Z, 16:00 in Europe/Madrid.
    static let now: Double = 1_795_186_800
    static let zone = TimeZone(identifier: "Europe/Madrid")!
    static let ana = "AQ-ANA-0001"
    static let bea = "AQ-BEA-0002"

    let history: DrinkHistory
    let configuration: Configuration
    let folder: URL

    /// - Parameter drinks: false leaves both bottles without a single drink (a new household).
    init(settings: [String] = [], days: Int = 8, drinks: Bool = true) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        history = try DrinkHistory(path: folder.appendingPathComponent("history.sqlite").path, durability: .normal)
        var configuration = Configuration()
        for setting in ["timezone=Europe/Madrid"] + settings { try configuration.applyOverride(setting) }
        self.configuration = configuration
        let state = CurrentStateSnapshot(receivedAt: WallInstant(secondsSince1970: Self.now - 600), bottleTime: 0, dailyTotalML: 0, bottleLevelML: 420,
                                         batteryPercent: 81, unsyncedCount: 0, flagsRaw: 0)
        try history.recordBottle(BottleRecord(id: Self.ana, name: "Ana's bottle", serial: Self.ana, address: "AA:00:00:00:00:01",
                                              goalML: 2000, lastSeen: WallInstant(secondsSince1970: Self.now - 600), lastSync: WallInstant(secondsSince1970: Self.now - 600), state: state))
        try history.recordBottle(BottleRecord(id: Self.bea, name: "Bea <script>", serial: Self.bea, address: "AA:00:00:00:00:02",
                                              goalML: 2500, lastSeen: WallInstant(secondsSince1970: Self.now - 3600), lastSync: WallInstant(secondsSince1970: Self.now - 3600), state: nil))
        guard drinks else { return }
        // Past days: Ana 2100 ml a day (goal met), Bea 1500 ml; today (from 08:00 local) a few drinks.
        let todayStart = LocalDay(containing: WallInstant(secondsSince1970: Self.now), timeZone: Self.zone).interval(in: Self.zone).start
        var anaRecords: [DrinkRecord] = [], beaRecords: [DrinkRecord] = []
        var id: UInt32 = 1
        for day in stride(from: days - 1, through: 1, by: -1) {
            let start = todayStart - .seconds(Double(day) * 86_400)
            for hour in [9, 12, 15] {
                anaRecords.append(Self.record(id, at: (start + Double(hour) * 3600).secondsSince1970, ml: 700))
                beaRecords.append(Self.record(id, at: (start + Double(hour) * 3600 + 60).secondsSince1970, ml: 500))
                id += 1
            }
        }
        anaRecords += [Self.record(id, at: (.seconds(todayStart + 8 * 3600)).secondsSince1970, ml: 250), Self.record(id + 1, at: (.seconds(todayStart + 11 * 3600)).secondsSince1970, ml: 300),
                       Self.record(id + 2, at: (todayStart + .seconds(14.5 * 3600)).secondsSince1970, ml: 200)]
        beaRecords += [Self.record(id, at: (.seconds(todayStart + 9 * 3600)).secondsSince1970, ml: 400)]
        _ = try history.store(anaRecords, bottle: Self.ana, at: WallInstant(secondsSince1970: Self.now - 600))
        _ = try history.store(beaRecords, bottle: Self.bea, at: WallInstant(secondsSince1970: Self.now - 3600))
    }

    /// The record id of Ana's 300 ml drink today.
    var anaSecondDrinkToday: UInt32 {
        get throws {
            try history.storedDrinks(bottle: Self.ana).first { $0.amountML == 300 }!.recordID
        }
    }

    static func record(_ id: UInt32, at time: Double, ml: Int) -> DrinkRecord {
        DrinkRecord(recordID: id, timestamp: UInt32(time), amountML: Int16(ml), bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)
    }

    var context: WebContext {
        WebContext(history: history, baseConfiguration: configuration, clock: ManualClock(WallInstant(secondsSince1970: Self.now)))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// Runs `body` with the server listening on a free loopback port, then stops the server.
    func withServer(_ body: @Sendable (Int) async throws -> Void) async throws {
        let server = try WebServer(context: context, address: ListenAddress(port: 0), logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let service = server.service { port in continuation.yield(port) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw RawHTTPFailure(description: "the server did not start") }
            do {
                try await body(port)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }
}
