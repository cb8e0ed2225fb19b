// One path for bottle traffic: the live session and replay feed the same `BottleIngest`, so a
// recording replays to what the live run did — the same history, the same bottle row, the same
// sync outcome, the same notifications — and the two cannot drift apart (docs/design.md 1: live
// and replayed traffic meet at the decoder). The all-zero Current State the bottle sends after
// waking is where the two once differed: live or replayed, it neither clears the low-battery flag
// nor reaches the bottle row.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

@Suite("one ingest path, live and replayed")
struct OneIngestPathTests {
    let live = LiveCommandTests()

    @Test("a recorded live session replays to the same drinks, bottle row, sync outcome and low-battery alert")
    func liveEqualsReplay() async throws {
        // Battery 10 %: the bottle reports LOW_BATTERY, so the live run alerts once.
        try await live.withSimulator(records: 30, arguments: ["--battery-level", "10"]) { bus, folder in
            let liveDB = folder.path + "/live.sqlite", replayDB = folder.path + "/replayed.sqlite"
            let capture = folder.path + "/session.aqcap"
            let run = try await live.bridge(bus, ["run", "--once", "--record", capture, "--db", liveDB, "--set", "timezone=UTC"])
            #expect(run.status == 0, "\(run)")
            let replay = try await runTool(LiveCommandTests.bridge,
                                           ["replay", capture, "--db", replayDB, "--json", "--reminders", "--set", "timezone=UTC"])
            #expect(replay.status == 0, "\(replay)")

            // The drinks.
            func drinks(_ path: String) throws -> [String] {
                try DrinkHistory(path: path).drinks.storedDrinks().map { "\($0.recordID)@\($0.timestamp):\($0.amountML)/\($0.bottleLevelML)" }
            }
            #expect(try drinks(replayDB) == drinks(liveDB))
            #expect(try drinks(liveDB).count == 30)

            // The bottle's row: the last Current State kept, the goal, a completed sync.
            func row(_ path: String) throws -> String {
                let bottle = try #require(try DrinkHistory(path: path).bottles.all().first)
                let state = bottle.state
                return "\(bottle.id) goal \(bottle.goalML.map(String.init) ?? "-") synced \(bottle.lastSync != nil) "
                    + "state \(state?.dailyTotalML ?? -1)/\(state?.bottleLevelML ?? -1)/\(state?.batteryPercent ?? -1)/"
                    + "\(state?.unsyncedCount ?? -1)/\(state?.flagsRaw ?? 0)"
            }
            #expect(try row(replayDB) == row(liveDB))

            // The sync: one complete round of 30 records, said by both.
            #expect(run.error.contains("sync complete: 30 record(s)"), "\(run.error)")
            #expect(replay.output.contains(#""outcome":"complete""#) && replay.output.contains(#""records":30"#), "\(replay.output)")

            // The low-battery alert: once live, once replayed.
            let liveAlerts = run.error.split(separator: "\n").filter { $0.hasPrefix("notice: notification id=bottle-low-battery") }
            let replayedAlerts = replay.output.split(separator: "\n").filter { $0.contains(#""kind":"low_battery""#) }
            #expect(liveAlerts.count == 1, "\(run.error)")
            #expect(replayedAlerts.count == liveAlerts.count, "\(replay.output)")
        }
    }

    @Test("the all-zero placeholder after a wake neither clears the low-battery flag nor reaches the row, live or replayed")
    func placeholderIsLeftOut() throws {
        // Low battery before midnight (UTC), the bottle wakes with its placeholder after it, then
        // low again: one episode. Replay used to hand the placeholder to the reminders, which
        // cleared the flag, and the next day's state alerted again; the live bridge never did.
        func state(battery: UInt8, low: Bool) -> [UInt8] {
            CurrentState(timestamp: 1_795_219_000, currentWeightG: 300, bottleLevelML: 300, dailyTotalML: 0, batteryPercent: battery,
                         flags: low ? [.timeValid, .calibrated, .stable, .lowBattery] : [.timeValid, .calibrated, .stable],
                         unsyncedCount: 0).encoded()
        }
        let midnight = 1_795_219_200.0
        let lines = [testHeader,
                     eventLine(midnight - 60, "notify", "current-state", state(battery: 15, low: true)),
                     eventLine(midnight + 60, "connect"),
                     eventLine(midnight + 61, "read", "current-state", CurrentState.placeholder.encoded()),
                     eventLine(midnight + 120, "notify", "current-state", state(battery: 14, low: true))]
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let outcome = try runReplay([folder.write("wake.aqcap", lines.joined(separator: "\n"))],
                                    history: try DrinkHistory(path: db, durability: .normal),
                                    settings: ["timezone=UTC"], reminders: true)
        #expect(outcome.notifications.filter { $0.kind == "low_battery" }.count == 1)
        // The row keeps the last real state (14 %), not the placeholder's zeros.
        #expect(try DrinkHistory(path: db).bottles.all().first?.state?.batteryPercent == 14)
    }
}
