// The bottle-driven calibration (docs/protocol.md 6.5 A) over one link, for `bottle calibrate`:
// subscribe to Calibration State and Current State, write START_CALIBRATION, then follow the
// bottle's steps (1 → 2 → 3 → 4 → 6 → 7 → 9, with 4 → 3 and 7 → 6 when a measurement was not
// steady) and tell the person each one. COMPLETE carries the two raw readings: the bottle has
// already saved them. The bottle never answers START itself and never leaves calibration mode by
// itself (B12), so the session always disconnects at the end, whatever happened.
//
// Waits are bounded on the injected clock: a step that does not change for `silence` (the iOS
// app's 60 s; longer while the bottle waits to be filled, its own limit there is 120 s) is
// cancelled on the bottle, and so is the whole flow after `overall`. A lost link ends it at once.
// `cancel()` (Ctrl-C) is noticed within one `poll`: CANCEL_CALIBRATION, a short wait for the
// bottle's state 0, disconnect.

import AquavateProtocol
import Locking
import Logging
import Timekeeping

/// How long the calibration flow waits for what.
package struct CalibrationTiming: Sendable, Equatable {
    /// No new step for this long: cancelled (the iOS app's rule, docs/protocol.md 6.5).
    package var silence: Duration = .seconds(60)
    /// No new step for this long while the bottle waits to be filled (WAIT_FULL): the bottle's own
    /// limit there is 120 s (3.9), and filling a bottle takes a person longer than placing it.
    package var waitFullSilence: Duration = .seconds(125)
    /// The whole flow ends by then, however the steps loop back.
    package var overall: Duration = .seconds(600)
    /// After CANCEL_CALIBRATION, how long to wait for the bottle's state 0.
    package var cancelConfirmation: Duration = .seconds(3)
    /// The longest single wait for an event: how soon a `cancel()` is noticed.
    package var poll: Duration = .milliseconds(250)

    package init() {}

    package static let standard = CalibrationTiming()
}

/// One step of the flow, as the person should read it.
package struct CalibrationProgress: Sendable, Equatable {
    /// The bottle's step (nil for lines of the bridge's own, such as "starting").
    package var phase: CalibrationPhase?
    package var line: String

    package init(phase: CalibrationPhase?, line: String) {
        self.phase = phase
        self.line = line
    }
}

/// How the flow ended.
package enum CalibrationOutcome: Sendable, Equatable {
    /// COMPLETE: the readings the bottle saved.
    case complete(CalibrationPoints)
    /// ERROR, with what probably went wrong.
    case bottleError(String)
    /// No step within the time allowed (CANCEL_CALIBRATION was written).
    case timedOut(String)
    /// `cancel()`; `onBottle`: CANCEL_CALIBRATION was written (false when it came before START or
    /// the link was gone); `confirmed`: the bottle answered with state 0.
    case cancelled(onBottle: Bool, confirmed: Bool)
    /// The link was lost or an operation failed.
    case failed(String)

    package var isComplete: Bool {
        if case .complete = self { return true }
        return false
    }
}

package final class CalibrationSession: Sendable {
    package let link: any BottleLink
    /// How the log names the bottle: its advertised name, else its address.
    private var bottleName: String { link.name.flatMap { $0.isEmpty ? nil : $0 } ?? link.address }
    private let clock: any WallClock
    private let timing: CalibrationTiming
    private let logger: Logger
    private let onProgress: @Sendable (CalibrationProgress) -> Void
    private let cancelRequested = Locked(false)

    package init(link: any BottleLink, clock: any WallClock, timing: CalibrationTiming = .standard,
                logger: Logger = Logger(label: "calibration"),
                onProgress: @escaping @Sendable (CalibrationProgress) -> Void = { _ in }) {
        self.link = link
        self.clock = clock
        self.timing = timing
        self.logger = logger
        self.onProgress = onProgress
    }

    /// Asks the running flow to stop: it cancels the calibration on the bottle and disconnects.
    /// Safe from any thread (a signal handler's task), before or during `run()`.
    package func cancel() { cancelRequested.withLock { $0 = true } }

    private var isCancelled: Bool { cancelRequested.withLock { $0 } || Task.isCancelled }

    /// Runs the whole flow, then disconnects (always: calibration mode ends only then, B12).
    package func run() async -> CalibrationOutcome {
        let outcome: CalibrationOutcome
        do {
            outcome = try await follow()
        } catch let failure as CalibrationFailure {
            outcome = .failed(failure.description)
        } catch {
            outcome = .failed("\(error)")
        }
        await link.disconnect()
        logger.info("calibration of \(bottleName): \(outcome)")
        return outcome
    }

    // MARK: The flow

    private func follow() async throws -> CalibrationOutcome {
        try await perform("subscribe to calibration-state") { try await link.startNotifications(.calibrationState) }
        try await perform("subscribe to current-state") { try await link.startNotifications(.currentState) }
        if isCancelled { return .cancelled(onBottle: false, confirmed: false) }
        try await perform("write START_CALIBRATION") { try await link.write(.command, Command.startCalibration.encoded()) }
        onProgress(CalibrationProgress(phase: nil, line: "calibration started: follow these steps (the bottle's display shows them too)"))

        let started = clock.now
        // A monotonic safety net over the injected clock's limit, which a clock step could move.
        let hardLimit = clock.deadline(after: timing.overall + .seconds(60))
        var phase = CalibrationPhase.idle
        var changed = clock.now
        // Progress: each pass takes one event or waits at most `poll`; it ends at a final step, a
        // lost link (thrown), a cancel, the silence limit or the overall limit, all on clocks
        // that only move forward here (the fake clock moves by each wait).
        while true {
            if isCancelled {
                let confirmed = await cancelOnBottle()
                return .cancelled(onBottle: confirmed != nil, confirmed: confirmed == true)
            }
            let silence = phase == .waitFull ? timing.waitFullSilence : timing.silence
            let quiet = clock.now - changed
            if quiet >= silence {
                let what = "no new step for \(Int(silence.inSeconds)) s while the bottle was \(Self.describe(phase))"
                onProgress(CalibrationProgress(phase: nil, line: "\(what): cancelling the calibration"))
                _ = await cancelOnBottle()
                return .timedOut(what)
            }
            if clock.now - started >= timing.overall || clock.instant >= hardLimit {
                let what = "the calibration took longer than \(Int(timing.overall.inSeconds)) s"
                onProgress(CalibrationProgress(phase: nil, line: "\(what): cancelling it"))
                _ = await cancelOnBottle()
                return .timedOut(what)
            }
            let wait = min(timing.poll, Self.duration((silence - quiet).inSeconds))
            guard let event = await link.nextEvent(within: wait) else { continue }
            let state: CalibrationState
            switch event {
            case .lost(let why):
                throw CalibrationFailure("the link was lost \(Self.describeWhile(phase)): \(why)")
            case .value(.calibrationState, let bytes):
                do {
                    state = try CalibrationState(decoding: bytes)
                } catch {
                    logger.warning("\(bottleName): a \(bytes.count)-byte Calibration State is not valid (expected 12); ignored")
                    continue
                }
            default:
                // Current State comes every 0.5 s in calibration mode: the link is alive, but only
                // a new step counts as progress.
                continue
            }
            // Only changes count: a repeated value is no new step.
            guard state.phase != phase else { continue }
            let previous = phase
            phase = state.phase
            changed = clock.now
            switch phase {
            case .complete:
                let points = state.completedPoints ?? CalibrationPoints(emptyADC: state.emptyADC, fullADC: state.fullADC)
                onProgress(CalibrationProgress(phase: phase, line: Self.doneLine(points)))
                return .complete(points)
            case .error:
                let reason = Self.errorReason(after: previous)
                onProgress(CalibrationProgress(phase: phase, line: "the bottle reported an error: \(reason)"))
                return .bottleError(reason)
            case .idle:
                let reason = "the bottle left calibration (cancelled on the bottle, or by another app)"
                onProgress(CalibrationProgress(phase: phase, line: reason))
                return .failed(reason)
            default:
                onProgress(CalibrationProgress(phase: phase, line: Self.line(for: phase, after: previous)))
            }
        }
    }

    /// CANCEL_CALIBRATION, then a short wait for the bottle's state 0. Nil: it could not be
    /// written (the link is gone); else whether state 0 came.
    private func cancelOnBottle() async -> Bool? {
        do {
            try await link.write(.command, Command.cancelCalibration.encoded())
        } catch {
            logger.notice("\(bottleName): CANCEL_CALIBRATION could not be written: \(error)")
            return nil
        }
        let deadline = clock.now + timing.cancelConfirmation
        // Progress: each pass takes one event or waits out the rest of the (short) deadline.
        while clock.now < deadline {
            guard let event = await link.nextEvent(within: min(timing.poll, Self.duration((deadline - clock.now).inSeconds))) else {
                continue
            }
            switch event {
            case .lost: return false
            case .value(.calibrationState, let bytes):
                if (try? CalibrationState(decoding: bytes))?.phase == .idle { return true }
            default: continue
            }
        }
        return false
    }

    private func perform(_ what: String, _ operation: () async throws -> Void) async throws {
        do {
            try await operation()
        } catch {
            throw CalibrationFailure("\(what): \(error)")
        }
    }

    // MARK: Words for the person

    static func line(for phase: CalibrationPhase, after previous: CalibrationPhase) -> String {
        switch phase {
        case .triggered:
            return "the bottle took the command: calibration mode is on"
        case .started:
            return "the bottle is starting its calibration (about 3 s)…"
        case .waitEmpty:
            if previous == .measureEmpty {
                return "the bottle moved while it was being weighed: place the EMPTY bottle upright again and leave it still"
            }
            return "step 1 of 2: place the EMPTY bottle upright on a level surface and leave it still (within 60 s)"
        case .measureEmpty:
            return "measuring empty… keep it still (about 5 s)"
        case .waitFull:
            if previous == .measureFull {
                return "the bottle moved while it was being weighed: place the full bottle upright again and leave it still"
            }
            return "step 2 of 2: fill it with 830 ml of water and place it upright, still (within 120 s)"
        case .measureFull:
            return "measuring full… keep it still (about 5 s)"
        default:
            return "the bottle is in calibration step \(phase.rawValue)"
        }
    }

    static func doneLine(_ points: CalibrationPoints) -> String {
        let scale = (Double(points.scale) * 100).rounded() / 100
        return "done: scale \(scale) counts per gram (empty \(points.emptyADC), full \(points.fullADC)); the bottle saved it"
    }

    /// What an ERROR after `previous` most likely means (3.9: time-out, scale out of range, or a
    /// failed save; the bottle does not say which).
    static func errorReason(after previous: CalibrationPhase) -> String {
        switch previous {
        case .waitEmpty, .triggered, .started:
            return "the empty bottle was not placed upright and still within 60 s; nothing was saved"
        case .waitFull:
            return "the bottle was not filled (830 ml) and placed upright and still within 120 s; nothing was saved"
        default:
            return "the measured calibration was out of range or could not be saved; nothing was saved"
        }
    }

    static func describe(_ phase: CalibrationPhase) -> String {
        switch phase {
        case .idle, .triggered, .started: return "starting"
        case .waitEmpty: return "waiting for the empty bottle"
        case .measureEmpty: return "measuring empty"
        case .waitFull: return "waiting for the full bottle"
        case .measureFull: return "measuring full"
        default: return "in step \(phase.rawValue)"
        }
    }

    private static func describeWhile(_ phase: CalibrationPhase) -> String {
        "while the bottle was \(describe(phase))"
    }

    private static func duration(_ seconds: Double) -> Duration {
        .milliseconds(Int64((max(0, seconds) * 1000).rounded(.up)))
    }
}

/// Why the flow stopped, in one line.
struct CalibrationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
