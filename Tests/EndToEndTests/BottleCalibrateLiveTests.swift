// `aquavate-bridge bottle calibrate` against a real `aquavate-sim` on a private bus (docs/design.md
// 3.5, docs/protocol.md 6.5 A). The simulated person places the bottle empty, then full, a second
// after the bottle asks (SimulatorConfiguration's calibration timings), so a run takes ~15 s.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import Testing

@Suite("bottle calibrate against aquavate-sim")
struct BottleCalibrateLiveTests {
    let live = LiveCommandTests()
    let control = BottleControlLiveTests()

    @Test("calibrate --yes walks the steps, exits 0, the bottle is calibrated and the history row has the scale")
    func calibrates() async throws {
        try await live.withSimulator(records: 2, arguments: ["--uncalibrated"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let before = try #require(try DrinkHistory(path: db).bottles.all().first)
            #expect(before.calibrated == false, "the simulator starts uncalibrated: \(before)")
            #expect(try control.bottleState(folder)["calibrated"] as? Bool == false)

            let run = try await live.bridge(bus, ["bottle", "calibrate", "--yes", "--db", db], timeout: .seconds(90))
            #expect(run.status == 0, "\(run)")
            let lines = run.lines
            for words in ["place the EMPTY bottle upright", "measuring empty", "fill it with 830 ml", "measuring full"] {
                #expect(lines.contains { $0.contains(words) }, "\(words): \(run)")
            }
            // The simulator's sensor: 412 counts per gram.
            #expect(lines.last == "done: scale 412.0 counts per gram (empty 120000, full 461960); the bottle saved it", "\(run)")
            #expect(try control.bottleState(folder)["calibrated"] as? Bool == true)
            let after = try #require(try DrinkHistory(path: db).bottles.all().first)
            #expect(after.id == BottleControlLiveTests.serial, "the row the sync keyed by the serial")
            #expect(after.calibrated == true)
            #expect(after.scale == 412)
        }
    }

    @Test("Ctrl-C during the flow cancels the calibration on the bottle: exit 130, the bottle stays uncalibrated")
    func interrupted() async throws {
        try await live.withSimulator(records: 1, arguments: ["--uncalibrated"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let child = try bus.spawn(LiveCommandTests.bridge, ["bottle", "calibrate", "--yes", "--db", db], logName: "calibrate")
            try await waitUntil(.seconds(30), "the calibration to start (\(bus.log("calibrate")))") {
                bus.log("calibrate").contains("calibration mode is on")
            }
            child.send(SIGINT)
            let status = await child.waitForExit(timeout: .seconds(20))
            let log = bus.log("calibrate")
            #expect(status == 130, "\(log)")
            #expect(log.contains("calibration cancelled on the bottle"), "\(log)")
            #expect(!log.contains("done: scale"), "\(log)")
            // The run on the bottle is over (idle): at once when the cancel reached it; had the
            // calibration gone on, only after its last phase, and then it would be calibrated.
            let stateFile = URL(fileURLWithPath: folder.path + "/sim.json")
            try await waitUntil(.seconds(30), "the bottle's calibration run to end") {
                let state = (try? Data(contentsOf: stateFile)).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
                return state?["calibration_phase"] as? Int == 0
            }
            #expect(try control.bottleState(folder)["calibrated"] as? Bool == false)
        }
    }

    @Test("without a terminal and without --yes it refuses with one line, exit 2, before touching the bottle")
    func refusesWithoutTerminal() async throws {
        try await live.withSimulator(records: 1) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let refused = try await live.bridge(bus, ["bottle", "calibrate", "--db", db])
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.error.contains("--yes"), "\(refused)")
            #expect(refused.error.split(separator: "\n").count == 1, "\(refused)")
            #expect(refused.output.isEmpty)
        }
    }
}
