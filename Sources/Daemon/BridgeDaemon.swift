// The daemon (`aquavate-bridge run`): find the bottle when it advertises, connect, run a session,
// disconnect, and start over — forever, with back-off, until SIGTERM/SIGINT (swift-service-
// lifecycle's graceful shutdown). With `--once` it stops after the first session.
//
//   BlueZ client ─> adapter ─> discovery ─> sighting of an adopted bottle ─> connect ─> session
//        ^  bluetoothd gone: retry 2 s … 60 s   ^ powered off: wait for power (F14)        │
//        └──────────────────── cool-down / back-off (ConnectPolicy.backoff) ◀──────────────┘

import AquavateProtocol
import BlueZ
import BottleSession
import DBus
import Foundation
import History
import HostClock
import Household
import Locking
import Logging
import Reports
import ServiceLifecycle
import Timekeeping

package final class BridgeDaemon: Service, Sendable {
    package let options: DaemonOptions
    private let history: DrinkHistory
    private let desk: ReminderDesk
    private let clock: any WallClock
    private let logger: Logger
    private let memories = Locked<[String: SyncMemory]>([:])
    private let result = Locked<DaemonOutcome>(.stopped)
    /// Progress and waits for the watchdog (BridgeDaemon+Watchdog.swift).
    let heartbeat: Heartbeat
    /// The household's claims (bridges sharing the broker, docs/design.md 6); nil: alone.
    private let household: HouseholdClaims?
    /// The syncs of this run, per bottle and outcome (`/metrics` beside the daemon).
    package let syncs = SyncTally()

    package init(options: DaemonOptions, history: DrinkHistory, desk: ReminderDesk, clock: any WallClock, logger: Logger,
                heartbeat: Heartbeat = .unobserved, household: HouseholdClaims? = nil) {
        self.household = household
        self.options = options
        self.history = history
        self.desk = desk
        self.clock = clock
        self.logger = logger
        self.heartbeat = heartbeat
    }

    /// How the run ended (for `--once`).
    package var outcome: DaemonOutcome { result.withLock { $0 } }

    package func run() async throws {
        let outcome = await cancelWhenGracefulShutdown { await self.boundedLoop() }
        result.withLock { $0 = outcome }
    }

    /// What the loop is doing now, in words, for the line `run --once` prints when its time
    /// runs out ("waiting for … to advertise", "syncing …").
    package var phase: String { currentPhase.withLock { $0 } }
    private let currentPhase = Locked("starting")
    /// A bottle was seen advertising (so a later failure to reach BlueZ is a passing one).
    private let bottleSeen = Locked(false)
    /// Also the service's status (`STATUS=`, `systemctl status`) under systemd.
    private func enter(_ phase: String) {
        currentPhase.withLock { $0 = phase }
        heartbeat.status(phase)
    }

    /// With `--once`, the whole run ends by `onceTimeout`, whatever BlueZ or the bottle do: the
    /// loop is cancelled (the session disconnects, everything stored stays stored) and the
    /// outcome says what it was waiting for.
    private func boundedLoop() async -> DaemonOutcome {
        guard options.once, let limit = options.onceTimeout else { return await loop() }
        return await withTaskGroup(of: DaemonOutcome?.self) { group in
            group.addTask { await self.loop() }
            group.addTask {
                // A second of grace: the loop's own deadline (discovery) ends it with the more
                // precise line (which bottles were ignored) when it comes at the same time.
                guard (try? await self.clock.sleep(for: limit + .seconds(1))) != nil else { return nil }
                return .failed("gave up after \(limit) while \(self.phase) (--timeout sets the limit)")
            }
            var outcome = DaemonOutcome.stopped
            if let first = await group.next() { outcome = first ?? .stopped }
            group.cancelAll()
            return outcome
        }
    }

    // MARK: The loop

    /// Progress: every pass runs one discovery-connect-session cycle or fails one, and then
    /// sleeps (cool-down, pause or back-off, never less than `DaemonBackoff.minimumPause`);
    /// `--once` returns after its first session, or after a bounded number of retries
    /// (`OnceRetries`).
    private func loop() async -> DaemonOutcome {
        let recorder = options.recordPath.map { SessionRecorder(path: $0, source: options.source, logger: logger) }
        defer { recorder?.close() }
        var pass = LoopState(choice: BottleChoice(pinned: options.bottleAddress, adoptNext: options.adoptAny,
                                                  remembered: BottleChoice.remembered(in: history.bottles), clock: clock),
                             once: options.once ? OnceRetries(retriesLeft: options.onceRetries,
                                                              sessionRetriesLeft: options.onceSessionRetries) : nil)
        if !pass.choice.adopted.isEmpty, options.bottleAddress == nil, !options.adoptAny {
            logger.info("syncing bottle\(pass.choice.adopted.count > 1 ? "s" : "") \(pass.choice.wanted) only (--adopt adds another)")
        }
        let deadline = options.onceTimeout.map { clock.deadline(after: $0) }
        defer { if let client = pass.client { Task { await client.close() } } }

        while !Task.isCancelled {
            do {
                let (report, address) = try await onePass(&pass, recorder: recorder, deadline: deadline)
                if let outcome = afterSession(report, once: &pass.once) { return outcome }
                try await pause(afterSession: report, of: address, choice: &pass.choice)
            } catch is CancellationError {
                break
            } catch let deferred as ClaimedElsewhere {
                if options.once { return .succeeded(deferred.description) }
                do { try await leave(deferred, choice: &pass.choice) } catch { break }
            } catch let error as NoBottleSeen {
                return .failed(error.description)
            } catch {
                if let outcome = afterFailure(error, once: &pass.once) { return outcome }
                do { try await wait(after: error, pass: &pass) } catch { break }
            }
        }
        return .stopped
    }

    /// What the loop carries from one pass to the next.
    private struct LoopState {
        var choice: BottleChoice
        var once: OnceRetries?
        var client: BlueZClient?
        var backoff = DaemonBackoff()
    }

    /// One pass: the bottles forgotten meanwhile, bluetoothd, the adapter, and one
    /// discovery-connect-session cycle.
    private func onePass(_ pass: inout LoopState, recorder: SessionRecorder?,
                         deadline: MonotonicInstant?) async throws -> (SessionReport, String) {
        heartbeat.mark("cycle started")
        // `bottle forget` works on a running daemon: it is read from the history here.
        let forgotten = pass.choice.forgetAllBut(BottleChoice.remembered(in: history.bottles))
        if !forgotten.isEmpty {
            logger.notice("forgotten (bottle forget): \(forgotten.joined(separator: ", ")); no longer synced")
            await desk.bottlesForgotten()
        }
        enter("connecting to bluetoothd")
        let bluez: BlueZClient
        if let client = pass.client {
            bluez = client
        } else if let headStart = try await options.bluezHeadStart?.take() {
            bluez = headStart
        } else {
            bluez = try await BlueZClient.connect(bus: options.bus, clock: clock)
        }
        pass.client = bluez
        let adapter = try await usableAdapter(bluez)
        pass.backoff.reachedAdapter()
        let (report, address) = try await cycle(bluez, adapter: adapter, choice: &pass.choice, recorder: recorder, deadline: deadline)
        heartbeat.mark("session ended: \(report.summary)")
        return (report, address)
    }

    /// `--once`'s decision after a session: its outcome, or nil to go round again.
    private func afterSession(_ report: SessionReport, once: inout OnceRetries?) -> DaemonOutcome? {
        switch once?.afterSession(succeeded: report.outcome.isSuccess, summary: report.summary) {
        case nil, .again(nil)?: return nil
        case let .again(notice?)?:
            logger.notice("\(notice)")
            return nil
        case let .finish(outcome)?: return outcome
        }
    }

    /// `--once`'s decision after a failure: its outcome, or nil to go round again.
    private func afterFailure(_ error: any Error, once: inout OnceRetries?) -> DaemonOutcome? {
        switch once?.afterFailure(Self.oneLine(error), isSetUp: DaemonBackoff.isSetUp(error), bottleSeen: bottleSeen.withLock { $0 },
                                  restarting: error is BluetoothServiceUnavailable || error is NoBluetoothAdapter) {
        case nil, .again(nil)?: return nil
        case let .again(notice?)?:
            logger.notice("\(notice)")
            return nil
        case let .finish(outcome)?: return outcome
        }
    }

    /// Leaves the bottle alone after its session: the cool-down, or with several bottles a rest
    /// for that one and a short pause.
    private func pause(afterSession report: SessionReport, of address: String, choice: inout BottleChoice) async throws {
        let (pause, rests) = DaemonBackoff.pause(afterSession: report.outcome.isSuccess, severalBottles: choice.several,
                                                 cooldown: options.cooldown, failedSessionPause: options.failedSessionPause)
        if rests { choice.rest(address, until: clock.deadline(after: options.cooldown)) }
        enter("pausing \(pause) after a session, before waiting for the bottle to advertise again")
        heartbeat.waiting(for: pause)
        try await clock.sleep(for: pause)
    }

    /// Another bridge of the household syncs this bottle now: leave it alone a while.
    private func leave(_ deferred: ClaimedElsewhere, choice: inout BottleChoice) async throws {
        logger.info("\(deferred.description); trying again in \(options.failedSessionPause * 2)")
        choice.rest(deferred.address, until: clock.deadline(after: options.failedSessionPause * 2))
        enter("leaving \(deferred.address) to \(deferred.holder)")
        heartbeat.waiting(for: DaemonBackoff.minimumPause)
        try await clock.sleep(for: DaemonBackoff.minimumPause)
    }

    /// The back-off after a failure; bluetoothd gone takes its client with it.
    private func wait(after error: any Error, pass: inout LoopState) async throws {
        let (wait, isSetUp) = pass.backoff.wait(after: error, connectPolicy: options.connectPolicy)
        if isSetUp {
            if error is BluetoothServiceUnavailable, let old = pass.client {
                pass.client = nil
                await old.close()
            }
            logger.error("\(Self.oneLine(error)); trying again in \(wait)")
        } else {
            logger.warning("\(Self.oneLine(error))")
        }
        enter("waiting \(wait) after: \(Self.oneLine(error))")
        heartbeat.waiting(for: wait)
        try await clock.sleep(for: wait)
    }

    /// The adapter to use; when it is powered off, says how to fix it and waits for power
    /// (F14: the daemon survives an adapter turned off and on again).
    private func usableAdapter(_ client: BlueZClient) async throws -> BlueZAdapter {
        do {
            return try client.chooseAdapter(named: options.adapter)
        } catch let off as AdapterPoweredOff where !options.once {
            logger.error("\(off.description); waiting for it")
            guard let adapter = client.objects.adapters.first(where: { $0.name == off.name }) else { throw off }
            // Progress: each pass is an hour's wait for power (cancellation ends it); a wait that
            // ends otherwise than by power or time-out throws out of the loop.
            while true {
                do {
                    enter("waiting for \(off.name) to be powered on")
                    heartbeat.waiting(for: .seconds(3600) + Self.watchdogPatience)
                    try await client.waitUntilPowered(adapter, timeout: .seconds(3600))
                    return try client.chooseAdapter(named: options.adapter)
                } catch is BlueZWaitTimedOut {
                    continue
                }
            }
        }
    }

    /// One discovery, one connection, one session.
    private func cycle(
        _ client: BlueZClient, adapter: BlueZAdapter, choice: inout BottleChoice, recorder: SessionRecorder?,
        deadline: MonotonicInstant?
    ) async throws -> (SessionReport, address: String) {
        let finder = BottleFinder(client: client, adapter: adapter, connectPolicy: options.connectPolicy,
                                  scanRefresh: options.scanRefresh, logger: logger, heartbeat: heartbeat, clock: clock)
        // The daemon is about to wait, perhaps for hours: the code start-up or the last session
        // ran goes back (ResidentCode says why). `--once` too: what its session touches then
        // comes on top of less (its peak resident memory).
        let released = ResidentCode.releaseStartupPages()
        logger.debug("released the pages of \(released.kibibytes) KiB of code and read-only data in \(released.segments) segments")
        let sighting = try await finder.find(choice: choice, deadline: deadline, timeout: options.onceTimeout ?? .zero) {
            enter($0)
        }
        bottleSeen.withLock { $0 = true }
        if !sighting.wasConnected { logger.info("\(sighting.name) is advertising at \(sighting.address); connecting") }

        // In a household, one bridge connects at a time: the claim (the strongest RSSI wins,
        // bounded by its settle time) comes before the connection.
        if let household {
            enter("claiming \(sighting.address) in the household")
            heartbeat.waiting(for: Self.watchdogPatience)
            if case .heldBy(let other) = await household.acquire(address: sighting.address, rssi: sighting.rssi) {
                await finder.stopDiscovery()
                throw ClaimedElsewhere(address: sighting.address, holder: other)
            }
        }
        // Connect at once (the bottle may sleep any moment); discovery stops meanwhile.
        enter("connecting to \(sighting.name) (\(sighting.address))")
        let connection: GATTConnection
        do {
            connection = try await finder.connect(sighting, requiring: BlueZBottleLink.requiredCharacteristics)
        } catch {
            household?.release(address: sighting.address, synced: false)
            throw error
        }
        choice.adopt(sighting.address)
        let report = await session(on: connection, sighting: sighting, recorder: recorder)
        household?.release(address: sighting.address, synced: report.outcome.isSuccess)
        // What a session used goes back before the daemon idles: SQLite's caches, then the heap.
        history.releaseMemory()
        HeapTrim.returnFreedMemory()
        return (report, sighting.address)
    }

    private func session(on connection: GATTConnection, sighting: Sighting, recorder: SessionRecorder?) async -> SessionReport {
        let link = BlueZBottleLink(connection)
        // The bottle's key: its serial when an earlier connection read it, else its address.
        let knownKey = (try? history.bottles.key(forAddress: link.address)) ?? link.address.uppercased()
        // Decided before anything of this session is stored, so its own drinks cannot vouch for the clock.
        let setTime = ClockTrust.evaluate(source: options.clockSync, drinks: history.drinks, bottle: knownKey).setTimePolicy
        var bottleID = knownKey
        do {
            bottleID = try history.bottles.recordConnection(address: link.address, name: sighting.name, at: clock.now)
        } catch {
            logger.warning("could not record the bottle: \(error)")
        }
        let memory = memories.withLock { $0[link.address.uppercased(), default: SyncMemory()] }
        memories.withLock { $0[link.address.uppercased()] = memory }
        // The one ingest path (replay feeds the same component): everything the session hears goes to it.
        let ingest = LiveIngest(history: history, desk: desk, bottleID: bottleID, name: sighting.name, syncs: syncs, heartbeat: heartbeat, logger: logger)
        let session = BottleSession(
            link: link, observer: ingest, clock: clock,
            memory: memory, timing: options.sessionTiming, recorder: recorder, setTime: setTime,
            bottleID: bottleID, commands: ingest.ingest, fetchActivity: options.fetchActivity, logger: logger
        )
        enter("syncing \(sighting.name) (\(bottleID))")
        heartbeat.waiting(for: Self.watchdogPatience)
        await desk.connection(true, at: clock.now, bottle: bottleID)
        let report = await session.run()
        await ingest.finish()
        await desk.connection(false, at: clock.now, bottle: ingest.ingest.bottleID)
        return report
    }

    static func oneLine(_ error: any Error) -> String {
        "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Another bridge of the household holds (or won) the bottle's claim.
struct ClaimedElsewhere: Error, CustomStringConvertible {
    var address: String
    var holder: String
    var description: String { "\(address) is synced by \(holder), another bridge of the household" }
}

/// `run --once --timeout S` saw no bottle in time.
struct NoBottleSeen: Error, CustomStringConvertible {
    var timeout: Duration
    /// The bottle the daemon waits for, when others were seen and ignored.
    var wanted: String?
    /// Other `Aquavate-` bottles that advertised meanwhile.
    var ignored: [String] = []
    var description: String {
        if let wanted, !ignored.isEmpty {
            return "bottle \(wanted) did not advertise within \(timeout); ignored \(ignored.joined(separator: ", ")): "
                + "run with --adopt to sync the next bottle seen instead, or --bottle ADDRESS"
        }
        return "no Aquavate bottle advertised within \(timeout); pick the bottle up to wake it, and check it is in range"
    }
}
