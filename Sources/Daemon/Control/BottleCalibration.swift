// `bottle calibrate` below the command line (docs/design.md 3.5): live, not queued. Waits for the
// bottle to advertise (the daemon's BottleFinder), connects, runs the bottle-driven calibration
// (BottleSession's CalibrationSession), and stores the result on the bottle's row in the history.
// `cancel()` (Ctrl-C) stops the wait, or cancels the calibration on the bottle.

import AquavateProtocol
import BlueZ
import BottleSession
import DBus
import History
import Locking
import Logging
import Timekeeping

/// What `bottle calibrate` was asked to do.
package struct CalibrationOptions: Sendable {
    /// The bus BlueZ is on (tests: a private bus).
    package var bus: BusAddress = .system
    /// `bluetooth.adapter`; nil: the first powered LE-central adapter.
    package var adapter: String?
    /// Only this address; nil: the adopted bottle, or any bottle when none is adopted.
    package var bottleAddress: String?
    /// How long to wait for the bottle to advertise.
    package var advertisingTimeout: Duration = .seconds(120)
    package var connectPolicy: ConnectPolicy = .standard
    package var timing: CalibrationTiming = .standard

    package init() {}
}

/// How a calibration run ended, for the command line.
package enum CalibrationRunOutcome: Sendable, Equatable {
    /// The flow ran on the bottle (and the link was disconnected).
    case calibration(CalibrationOutcome)
    /// Cancelled before the calibration started on the bottle.
    case cancelledBeforeStart
}

package final class BottleCalibration: Sendable {
    private let options: CalibrationOptions
    private let bottles: BottleStore
    private let clock: any WallClock
    private let logger: Logger
    private let onLine: @Sendable (String) -> Void

    private struct Progress {
        var cancelled = false
        var finding: Task<(Sighting, GATTConnection), any Error>?
        var session: CalibrationSession?
    }
    private let progress = Locked(Progress())

    /// `onLine`: each line for the person (waiting, connected, each step, the result).
    package init(options: CalibrationOptions, bottles: BottleStore, clock: any WallClock, logger: Logger,
                onLine: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.bottles = bottles
        self.clock = clock
        self.logger = logger
        self.onLine = onLine
    }

    /// Stops the wait for the bottle, or cancels the calibration on the bottle.
    package func cancel() {
        let (finding, session) = progress.withLock { state in
            state.cancelled = true
            return (state.finding, state.session)
        }
        finding?.cancel()
        session?.cancel()
    }

    /// - Throws: BlueZ's set-up errors (no bluetoothd, no adapter, …), `NoBottleSeen` as a
    ///   `CalibrationNotStarted`, a failed connect.
    package func run() async throws -> CalibrationRunOutcome {
        let client = try await BlueZClient.connect(bus: options.bus, clock: clock)
        defer { Task { await client.close() } }
        let adapter = try client.chooseAdapter(named: options.adapter)
        // One bottle is calibrated: the one named, else the most recently seen.
        let choice = BottleChoice(pinned: options.bottleAddress, adoptNext: false,
                                  remembered: options.bottleAddress == nil ? Array(BottleChoice.remembered(in: bottles).prefix(1)) : [],
                                  clock: clock)
        let finder = BottleFinder(client: client, adapter: adapter, connectPolicy: options.connectPolicy,
                                  scanRefresh: .seconds(300), logger: logger, clock: clock)
        let timeout = options.advertisingTimeout
        let onLine = self.onLine
        let clock = self.clock
        let finding = Task {
            let deadline = clock.deadline(after: timeout)
            let sighting = try await finder.find(choice: choice, deadline: deadline, timeout: timeout) { _ in
                onLine("waiting for \(choice.wanted == "any" ? "an Aquavate bottle" : choice.wanted) to advertise: pick it up to wake it")
            }
            onLine("found \(sighting.name) (\(sighting.address)); connecting")
            let connection = try await finder.connect(sighting, requiring: [.command, .calibrationState])
            return (sighting, connection)
        }
        let cancelledAlready = progress.withLock { state in
            state.finding = finding
            return state.cancelled
        }
        if cancelledAlready { finding.cancel() }
        let sighting: Sighting
        let connection: GATTConnection
        do {
            (sighting, connection) = try await finding.value
        } catch let missing as NoBottleSeen {
            throw CalibrationNotStarted(description: missing.description)
        } catch {
            // A cancelled wait or connect ends in whatever error it ends in: it was the cancel.
            if error is CancellationError || progress.withLock({ $0.cancelled }) { return .cancelledBeforeStart }
            throw error
        }

        let link = BlueZBottleLink(connection)
        var bottleID = link.address.uppercased()
        do {
            bottleID = try bottles.recordConnection(address: link.address, name: sighting.name, at: clock.now)
        } catch {
            logger.warning("could not record the bottle: \(error)")
        }
        let session = CalibrationSession(link: link, clock: clock, timing: options.timing,
                                         logger: logger) { onLine($0.line) }
        let cancelNow = progress.withLock { state in
            state.session = session
            return state.cancelled
        }
        if cancelNow { session.cancel() }
        let outcome = await session.run()
        if case .complete(let points) = outcome { store(points, bottle: bottleID) }
        return .calibration(outcome)
    }

    /// The calibration the bottle saved, on its row: `bottle info` and the goal command use it.
    private func store(_ points: CalibrationPoints, bottle: String) {
        let scale = points.scale
        let accepted = BottleConfig.writableScaleRange.contains(scale)
        if !accepted {
            onLine("warning: a scale of \(scale) is outside 100–800: the bottle will not load this calibration when it next wakes (docs/protocol.md B7); calibrate again")
        }
        do {
            _ = try bottles.update(id: bottle) { record in
                record.calibrated = accepted
                record.scale = Double(scale)
            }
        } catch {
            logger.error("the calibration was saved on the bottle, but not in the history: \(error)")
        }
    }
}

/// The calibration could not begin: the bottle did not advertise in time.
package struct CalibrationNotStarted: Error, CustomStringConvertible, Sendable {
    package var description: String
}
