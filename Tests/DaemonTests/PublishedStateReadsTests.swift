// What publishing the Home Assistant state reads: each bottle's goal and reminder switch, resolved
// as every surface resolves them (`BottleView.hydration`), and not the stored schedules nor the
// pool file, which the state does not show; a round of publishing (a minute tick, a command) used
// to read the stored settings once per bottle. A goal set while the daemon runs is still in the
// next state published.

import BusTestSupport
@testable import Daemon
import Foundation
import History
import Locking
import Logging
import Settings
import Sinks
import TestFixtures
import Testing
import Timekeeping

@Suite struct PublishedStateReadsTests {
    static let first = "AQ-ANA-0001", second = "AQ-BEA-0002"

    @Test("a round of states for two bottles reads no stored schedule; a goal set later is in the next round")
    func roundReadsNoSchedules() async throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/h.sqlite"
        let morning = WallInstant(secondsSince1970: 1_795_330_800)
        do {
            let setup = try DrinkHistory(path: path)
            try setup.bottles.save(BottleRecord(id: Self.first, serial: Self.first, address: "AA:00:00:00:00:01", goalML: 2000,
                                                lastSeen: morning - .seconds(60)))
            try setup.bottles.save(BottleRecord(id: Self.second, serial: Self.second, address: "AA:00:00:00:00:02", goalML: 2000,
                                                lastSeen: morning - .seconds(120)))
        }
        // The house's shared inputs exist: a pool file, which publishing has no need to read either.
        let pool = folder.path + "/messages.pool"
        try "Drink up\nA glass now\n".write(toFile: pool, atomically: true, encoding: .utf8)
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        try configuration.applyOverride("messages.pool=\(pool)")
        try configuration.applyOverride("bottle.\(Self.second).daily_goal_ml=1800")

        let reads = Locked<[String: Int]>([:])
        let history = try DrinkHistory(path: path, durability: .normal) { operation in
            reads.withLock { $0[operation, default: 0] += 1 }
        }
        let sink = StateSink()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let hub = SinkHub(sinks: [sink], logger: logger)
        await hub.start()
        let desk = ReminderDesk(history: history, configuration: configuration, logger: logger, hub: hub)
        // The first tick restores each engine; the round measured is a later one, which publishes
        // every bottle's state again because the connection changed.
        await desk.advance(to: morning)
        try await waitUntil(.seconds(60), "both bottles' first states") { Self.latest(sink).count == 2 }

        reads.withLock { $0 = [:] }
        await desk.connection(true, at: morning + .seconds(60), bottle: Self.first)
        await desk.connection(true, at: morning + .seconds(60), bottle: Self.second)
        await desk.advance(to: morning + .seconds(60))
        try await waitUntil(.seconds(60), "both bottles connected in the state") {
            Self.latest(sink).values.allSatisfy(\.bottleConnected) && Self.latest(sink).count == 2
        }
        let round = reads.withLock { $0 }
        #expect(round["reading settings", default: 0] == 0, "the stored schedules were read: \(round)")
        var latest = Self.latest(sink)
        #expect(latest[Self.first]?.goalML == 2000 && latest[Self.second]?.goalML == 1800, "\(latest)")
        #expect(latest.values.allSatisfy { $0.remindersEnabled == true })

        // A goal set while the daemon runs (Home Assistant, the MQTT command topic) is in the next round.
        await desk.handle(.configSet(key: "bottle.\(Self.first).daily_goal_ml", value: "2300"), at: morning + .seconds(120))
        try await waitUntil(.seconds(60), "the new goal in the state") { Self.latest(sink)[Self.first]?.goalML == 2300 }
        latest = Self.latest(sink)
        #expect(latest[Self.second]?.goalML == 1800)
        await hub.stop()
    }

    /// The last state the sink received of each bottle.
    static func latest(_ sink: StateSink) -> [String: BridgeSnapshot] {
        sink.states.withLock { states in
            Dictionary(states.compactMap { state in state.bottle.map { ($0, state) } }) { _, newer in newer }
        }
    }
}
