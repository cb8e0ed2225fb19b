// `aquavate-bridge bottle calibrate`: the guided two-point calibration, live (docs/design.md 3.5,
// docs/protocol.md 6.5 A). Unlike the other `bottle` commands it is not queued: a person stands at
// the bottle and follows the lines printed here. Ctrl-C (SIGINT) or SIGTERM cancels it on the
// bottle, through swift-service-lifecycle's graceful shutdown as `run` does.

import ArgumentParser
import BlueZ
import BottleSession
import Daemon
import Foundation
import History
import Reports
import Settings
import Timekeeping
import Locking
import Logging
import ServiceLifecycle

struct BottleCalibrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Calibrate the bottle's scale, live, with a person at the bottle (empty, then 830 ml).",
        discussion: """
            The bottle weighs its water with a load cell; calibration tells it what the empty \
            bottle and a full one (830 ml) read. The bottle runs the steps itself and shows them \
            on its display (docs/protocol.md 6.5); this command starts them and tells you each one:

              1. It waits (--timeout, default 120 s) for the bottle to advertise: pick it up to \
            wake it. Then it connects and keeps the link until the end.
              2. "place the EMPTY bottle upright": put the empty bottle on a level surface and \
            leave it still; the bottle then measures for about 5 s.
              3. "fill it with 830 ml": fill it and put it down upright and still; another 5 s \
            measurement follows.
              4. "done: scale …": the bottle has saved the calibration; the scale (counts per gram) \
            is stored in the history too (`bottle info` shows it).

            A measurement that was not steady starts that step again. When no step follows for \
            60 s (125 s while waiting for the full bottle), or after 10 minutes in all, the \
            calibration is cancelled on the bottle. The link is always closed at the end: the \
            bottle stays awake in calibration mode until it is.

            Ctrl-C cancels the calibration on the bottle (exit 130). Before it starts, it asks \
            for confirmation on the terminal; --yes answers for scripts. Without a terminal and \
            without --yes it refuses (exit 2).

            Exit status: 0 calibrated; 1 the bottle reported an error, no step in time, the link \
            was lost or the bottle never advertised (the line says which); 2 refused; 130 cancelled.

            A running `run` service may connect to the bottle first; it disconnects after its \
            sync, and the calibration starts when the bottle advertises again.
            """)

    @Flag(name: .long, help: "Answer yes to every question (scripts, tests).")
    var yes = false

    @Option(help: ArgumentHelp("Seconds to wait for the bottle to advertise.", valueName: "S"))
    var timeout: Double = 120

    @OptionGroup var options: BottleOptions

    func validate() throws {
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
    }

    func run() async throws {
        let history = try open()
        let logger = Logger(label: "aquavate-bridge") { JournalLogHandler(label: $0, level: options.common.verbose ? .debug : .warning) }
        var calibration = CalibrationOptions()
        calibration.advertisingTimeout = .milliseconds(Int64(timeout * 1000))
        let bottleName: String
        do {
            let configuration = try options.common.loadConfiguration(history: history, logger: logger)
            calibration.adapter = configuration[Setting.bluetoothAdapter]
            let known = try knownBottle(history)
            calibration.bottleAddress = try RunCommand.bottleAddress(options.bottle ?? known?.address, history: history)
            bottleName = known.map { "\($0.name ?? $0.id) (\($0.serial ?? $0.address ?? $0.id))" } ?? options.bottle ?? "the Aquavate bottle in range"
        } catch let failure as CommandFailure {
            throw fail(failure.description)
        }

        // Calibration needs a person at the bottle: ask, unless told.
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                StandardError.writeLine("aquavate-bridge bottle calibrate: calibration needs a person at the bottle: run it on a terminal, or pass --yes")
                throw ExitCode(2)
            }
            say("Calibrate \(bottleName)? The bottle must be EMPTY to start, and you need 830 ml of water. [y/N] ", newline: false)
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                say("not calibrated")
                throw ExitCode(2)
            }
        }

        let runner = BottleCalibration(options: calibration, bottles: history.bottles, clock: SystemClock(), logger: logger) { say($0) }
        let service = CalibrationService(calibration: runner)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: service, successTerminationBehavior: .gracefullyShutdownGroup,
                             failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "calibration")],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: Logger(label: "aquavate-bridge.lifecycle") { _ in SwiftLogNoOpLogHandler() }))
        try await group.run()

        switch service.result {
        case .success(.calibration(.complete)):
            return
        case .success(.calibration(.cancelled(let onBottle, let confirmed))):
            if onBottle {
                say("calibration cancelled on the bottle" + (confirmed ? "" : " (it did not confirm; it ends when the link closes)"))
            } else {
                say("calibration cancelled; the link is closed")
            }
            throw ExitCode(130)
        case .success(.cancelledBeforeStart):
            say("calibration cancelled before it started")
            throw ExitCode(130)
        case .success(.calibration(.bottleError(let reason))):
            throw fail("calibration failed: \(reason)")
        case .success(.calibration(.timedOut(let reason))):
            throw fail("calibration cancelled: \(reason)")
        case .success(.calibration(.failed(let reason))):
            throw fail("calibration failed: \(reason)")
        case .failure(let error):
            throw fail("\(error)".split(whereSeparator: \.isNewline).joined(separator: " "))
        case nil:
            throw fail("stopped before the calibration ran")
        }
    }

    /// The history, or exit 1 with the reason.
    private func open() throws -> DrinkHistory {
        do {
            return try options.common.openHistory(path: options.common.databasePath)
        } catch let failure as CommandFailure {
            throw fail(failure.description)
        }
    }

    /// The bottle `--bottle` names, or the one adopted; nil when none is adopted yet (then the
    /// first bottle that advertises is calibrated). Several adopted and no --bottle: refused.
    private func knownBottle(_ history: DrinkHistory) throws -> BottleRecord? {
        if options.bottle == nil, (try? history.bottles.all().count) == 0 { return nil }
        do {
            return try BottleControl(history: history).bottle(named: options.bottle)
        } catch let refusal as BottleRequestRefused {
            // An address the history does not know yet is still a bottle to look for.
            if let name = options.bottle, (try? RunCommand.bottleAddress(name, history: history)) != nil { return nil }
            StandardError.writeLine("aquavate-bridge bottle calibrate: \(refusal.description)")
            throw ExitCode(2)
        }
    }

    private func fail(_ line: String) -> ExitCode {
        StandardError.writeLine("aquavate-bridge bottle calibrate: \(line)")
        return ExitCode.failure
    }
}

/// A line for the person, at once (unbuffered: standard output may be a pipe).
private func say(_ line: String, newline: Bool = true) {
    FileHandle.standardOutput.write(Data((newline ? line + "\n" : line).utf8))
}

/// The calibration as the service group's one service: a graceful shutdown (SIGINT, SIGTERM)
/// cancels it on the bottle instead of tearing the task down, so CANCEL_CALIBRATION is written.
private final class CalibrationService: Service, Sendable {
    let calibration: BottleCalibration
    private let outcome = Locked<Result<CalibrationRunOutcome, any Error>?>(nil)

    init(calibration: BottleCalibration) {
        self.calibration = calibration
    }

    var result: Result<CalibrationRunOutcome, any Error>? { outcome.withLock { $0 } }

    func run() async throws {
        let calibration = self.calibration
        let result: Result<CalibrationRunOutcome, any Error>
        do {
            result = .success(try await withGracefulShutdownHandler {
                try await calibration.run()
            } onGracefulShutdown: {
                calibration.cancel()
            })
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
    }
}
