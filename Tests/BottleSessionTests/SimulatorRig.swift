// The bridge's live path (BlueZ client + connect state machine + bottle session + history)
// against the simulated bottle on a private dbus-daemon: what the daemon does for one bottle,
// minus the command line.

import BusTestSupport
import AquavateProtocol
import BlueZ
import BottleSession
import BottleSimulator
import DBus
import Foundation
import History
import Logging
import Testing
import Timekeeping

/// Connect policy for the simulator's fast BlueZ timings.
let simulatorPolicy = ConnectPolicy(
    attemptTimeout: .seconds(5), safetyTimeout: .seconds(30), maxAttempts: 3, maxTransientErrors: 9,
    transientBackoff: .milliseconds(50), deviceGoneBackoff: .milliseconds(100), abortSettleTimeout: .seconds(3),
    gattObjectsTimeout: .seconds(2), disconnectTimeout: .seconds(3), gattOperationTimeout: .seconds(5))

final class SimulatorRig: Sendable {
    let bus: PrivateBus
    let sim: BottleSimulator
    let client: BlueZClient
    let history: DrinkHistory
    let memory = SyncMemory()
    let logger = Logger(label: "sim-test")

    private init(bus: PrivateBus, sim: BottleSimulator, client: BlueZClient, history: DrinkHistory) {
        self.bus = bus
        self.sim = sim
        self.client = client
        self.history = history
    }

    /// Runs `body` with a simulator holding `records` drinks (fast BlueZ timings), a client and an
    /// in-memory history; everything is stopped afterwards.
    static func with(
        records: Int, faults: [SimulatorFault] = [], _ adjust: (inout SimulatorConfiguration) -> Void = { _ in },
        _ body: (SimulatorRig) async throws -> Void
    ) async throws {
        let bus = try await PrivateBus.start()
        var configuration = SimulatorConfiguration(records: records, faults: faults).withTestTimings()
        if ProcessInfo.processInfo.environment["SIM_TEST_LOG"] != nil {
            configuration.log = { print("sim: \($0)") }
        }
        adjust(&configuration)
        let sim: BottleSimulator
        do {
            sim = try await BottleSimulator.start(bus: .address(bus.address), configuration: configuration)
        } catch {
            bus.stop()
            throw error
        }
        let rig: SimulatorRig
        do {
            rig = SimulatorRig(bus: bus, sim: sim, client: try await BlueZClient.connect(bus: .address(bus.address)),
                               history: try DrinkHistory(path: nil))
        } catch {
            await sim.stop()
            bus.stop()
            throw error
        }
        do {
            try await body(rig)
        } catch {
            await rig.stop()
            throw error
        }
        await rig.stop()
    }

    func stop() async {
        await client.close()
        await sim.stop()
        bus.stop()
    }

    /// Finds the bottle (a fresh discovery), connects and runs one session.
    /// - Throws: what discovery or the connect state machine threw.
    func syncOnce(timing: SessionTiming = .standard, chunkSize: Int? = nil, sightingTimeout: Duration = .seconds(10),
                  events: SessionEvents? = nil) async throws -> SessionReport {
        let adapter = try client.chooseAdapter(named: nil)
        let discovery = Discovery(client: client, adapter: adapter)
        let sightings = discovery.sightings()
        defer { sightings.cancel() }
        try await discovery.start()
        guard let sighting = await sightings.next(within: sightingTimeout) else {
            await discovery.stop()
            throw HarnessFailure(description: "the bottle was not seen within \(sightingTimeout) (\(sightings.ended.map { "\($0)" } ?? "no reason"))")
        }
        await discovery.stop()
        let connection = try await Connector(client: client, policy: simulatorPolicy, logger: logger)
            .connect(sighting.device, requiring: BlueZBottleLink.requiredCharacteristics.map(\.uuid))
        let observer: any BottleObserver = events.map { $0.observing(history.drinks) } ?? history.drinks
        let session = BottleSession(link: BlueZBottleLink(connection), observer: observer, clock: SystemClock(),
                                    memory: memory, timing: timing, chunkSize: chunkSize, logger: logger)
        return await session.run()
    }

    /// Sessions until one succeeds (a failed connect backs off as the daemon does); returns them all.
    func syncUntilDone(maxSessions: Int = 4, chunkSize: Int? = nil,
                       beforeRetry: () async throws -> Void = {}) async throws -> [Result<SessionReport, any Error>] {
        var results: [Result<SessionReport, any Error>] = []
        for _ in 0..<maxSessions {
            do {
                let report = try await syncOnce(chunkSize: chunkSize)
                results.append(.success(report))
                if report.outcome.isSuccess { return results }
            } catch {
                results.append(.failure(error))
                try await Task.sleep(for: simulatorPolicy.backoff(after: error))
            }
            try await beforeRetry()
        }
        return results
    }

    /// Returns once the bottle has let go of the last session's link (it advertises again only
    /// then), instead of guessing how long its disconnect takes.
    func waitUntilLetGo() async throws {
        try await waitUntil(.seconds(10), "the bottle to let go of the link") { !self.sim.isConnected }
    }

    /// Every drink the bottle holds (live ones; deleted ones are never sent) is in the history,
    /// exactly once, with the bottle's content.
    func expectHistoryHoldsEveryDrinkOnce(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let bottle = sim.model.records.filter { !$0.isDeleted }
        let stored = try history.drinks.storedDrinks()
        #expect(stored.count == bottle.count, "history holds \(stored.count) drinks, the bottle \(bottle.count)",
                sourceLocation: sourceLocation)
        // Flags aside: the bottle's copies have the synced bit set since.
        func content(_ r: DrinkRecord) -> String { "\(r.recordID)@\(r.timestamp):\(r.amountML)/\(r.bottleLevelML)/\(r.typeRaw)" }
        #expect(stored.map { content($0.record) } == bottle.map(content), sourceLocation: sourceLocation)
        #expect(Set(stored.map { "\($0.recordID)@\($0.timestamp)" }).count == stored.count, sourceLocation: sourceLocation)
    }
}
