// BlueZ's waits run on the client's injected clock (docs/design.md 7.5, "One clock"): a wait of an
// hour for something that never happens ends when a manual clock passes the hour, at once, and its
// timer has not fired a second before. No real hour, and no real second either.

import BlueZ
import BottleSimulator
import BusTestSupport
import Testing
import Timekeeping

@Suite(.timeLimit(.minutes(1))) struct ClientClockTests {
    @Test func aWaitOfAnHourEndsWhenTheClientsClockPassesIt() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let sim = try await BottleSimulator.start(bus: .address(bus.address),
                                                  configuration: SimulatorConfiguration(records: 0).withTestTimings())
        let clock = ManualClock()
        let client = try await BlueZClient.connect(bus: .address(bus.address), clock: clock)
        let waiting = Task {
            try await client.waitUntil("something that never happens", timeout: .seconds(3600)) { _ -> Bool? in nil }
        }
        // Until the wait has started its timer (a wait for a condition, not a timing).
        while clock.runningTimers == 0 { try await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: .seconds(3599))
        #expect(clock.runningTimers == 1, "a second before the hour, the wait's timer has not fired")
        clock.advance(by: .seconds(1))
        let timedOut = await #expect(throws: BlueZWaitTimedOut.self) { try await waiting.value }
        #expect(timedOut?.timeout == .seconds(3600))
        await client.close()
        await sim.stop()
    }
}
