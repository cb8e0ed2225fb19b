// The bottle accepts any SET_TIME and keeps it (docs/protocol.md B9), so a machine whose clock is
// not yet synchronised must not set it. End to end: the real `run --once` against `aquavate-sim`
// writes SET_TIME only when this machine's clock is synchronised. The simulated bottle starts with
// a clock never set (TIME_VALID clear): afterwards it is valid exactly when the kernel says the
// clock is synchronised, and the bridge says why when it withheld SET_TIME
// (docs/raspberry-pi.md 8).

import BusTestSupport
import Foundation
@testable import HostClock
import TestFixtures
import Testing

@Suite("SET_TIME, live")
struct SetTimeLiveTests {
    @Test("run --once sets the bottle's clock only from a synchronised clock, and says so otherwise")
    func setTimeFollowsTheKernel() async throws {
        let synchronised = KernelClockSync().read() == .synchronised
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            try await LiveCommandTests().startSimulator(on: bus, folder: folder, records: 0, arguments: ["--time-invalid"])
            let run = try await bus.run(LiveCommandTests.bridge, ["run", "--once", "--timeout", "20", "--db", folder.path + "/h.sqlite"],
                                        timeout: .seconds(60))
            #expect(run.status == 0, "\(run)")
            let state = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/sim.json"))) as? [String: Any])
            #expect(state["time_valid"] as? Bool == synchronised, "synchronised: \(synchronised); \(run.error)")
            #expect(run.error.contains("SET_TIME withheld: this machine's clock is not synchronised") == !synchronised, "\(run.error)")
        }
    }
}
