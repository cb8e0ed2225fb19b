// The bottle-driven calibration flow (docs/protocol.md 6.5 A) over a scripted link: the steps a
// person is told, the readings COMPLETE carries, ERROR, loop-backs, the 60 s silence rule, a lost
// link and a cancel. The fake link's waits cost no time (they move the fake clock), so the
// minute-long time-outs run in milliseconds.

import AquavateProtocol
import BlueZ
import BottleSession
import Locking
import Testing
import TestSupport
import Timekeeping

@Suite("calibration session over a scripted link")
struct CalibrationSessionTests {
    /// FakeLink, with a bottle that answers START_CALIBRATION with `script` (Calibration State
    /// notifications, a Current State between each as in calibration mode), and CANCEL with
    /// state 0 when `answersCancel`; `dropAfterScript` loses the link after the last one.
    final class CalibratingLink: BottleLink, Sendable {
        let base: FakeLink
        let script: [CalibrationState]
        let answersCancel: Bool
        let dropAfterScript: Bool

        init(_ base: FakeLink, script: [CalibrationState], answersCancel: Bool = true, dropAfterScript: Bool = false) {
            self.base = base
            self.script = script
            self.answersCancel = answersCancel
            self.dropAfterScript = dropAfterScript
        }

        var address: String { base.address }
        var name: String? { base.name }
        func mtu() async -> Int? { await base.mtu() }
        func offers(_ c: Characteristic) -> Bool { base.offers(c) }
        func read(_ c: Characteristic) async throws -> [UInt8] { try await base.read(c) }
        func startNotifications(_ c: Characteristic) async throws { try await base.startNotifications(c) }
        func startBatteryReports() async throws -> Int? { try await base.startBatteryReports() }
        func nextEvent(within timeout: Duration) async -> LinkEvent? { await base.nextEvent(within: timeout) }
        func disconnect() async { await base.disconnect() }

        func write(_ c: Characteristic, _ value: [UInt8]) async throws {
            try await base.write(c, value)
            guard c == .command else { return }
            switch Command.parse(value) {
            case .startCalibration?:
                for state in script {
                    base.inject(.value(.calibrationState, state.encoded()))
                    base.inject(.value(.currentState, Array(repeating: 0, count: 14)))
                }
                if dropAfterScript { base.drop("supervision timeout") }
            case .cancelCalibration?:
                if answersCancel { base.inject(.value(.calibrationState, CalibrationState(phase: .idle).encoded())) }
            default:
                break
            }
        }
    }

    /// What one run produced.
    struct Run {
        var outcome: CalibrationOutcome
        var progress: [CalibrationProgress]
        var journal: [Journal.Entry]
        var elapsed: Double
        var disconnects: Int

        var lines: [String] { progress.map(\.line) }
        var commands: [Command] {
            journal.compactMap { entry in
                if case .write(.command, let bytes) = entry { return Command.parse(bytes) }
                return nil
            }
        }
    }

    static func states(_ phases: [UInt8]) -> [CalibrationState] {
        phases.map { CalibrationState(phase: CalibrationPhase(rawValue: $0), flags: $0 == 10 ? 1 : 0) }
    }

    static let points = CalibrationPoints(emptyADC: 120_000, fullADC: 120_000 + 830 * 250)
    static let complete = CalibrationState(phase: .complete, emptyADC: points.emptyADC, fullADC: points.fullADC)

    func run(_ script: [CalibrationState], answersCancel: Bool = true, dropAfterScript: Bool = false,
             cancelAt phase: CalibrationPhase? = nil) async -> Run {
        let clock = FakeClock()
        let journal = Journal()
        let base = FakeLink(bottle: FakeBottle(), clock: clock, journal: journal)
        let link = CalibratingLink(base, script: script, answersCancel: answersCancel, dropAfterScript: dropAfterScript)
        let seen = Locked<[CalibrationProgress]>([])
        let box = Locked<CalibrationSession?>(nil)
        let session = CalibrationSession(link: link, clock: clock) { progress in
            seen.withLock { $0.append(progress) }
            if let phase, progress.phase == phase { box.withLock { $0 }?.cancel() }
        }
        box.withLock { $0 = session }
        let start = clock.now
        let outcome = await session.run()
        return Run(outcome: outcome, progress: seen.withLock { $0 }, journal: journal.all, elapsed: (clock.now - start).inSeconds,
                   disconnects: base.disconnects)
    }

    @Test("happy path 1→2→3→4→6→7→9: one line per step, the saved readings, scale (full−empty)/830, disconnected")
    func happyPath() async throws {
        let run = await run(Self.states([1, 2, 3, 4, 6, 7]) + [Self.complete])
        #expect(run.outcome == .complete(Self.points))
        #expect(Self.points.scale == 250)
        #expect(run.progress.map(\.phase) == [nil, .triggered, .started, .waitEmpty, .measureEmpty, .waitFull, .measureFull, .complete])
        #expect(run.lines[3].contains("place the EMPTY bottle upright"), "\(run.lines)")
        #expect(run.lines[4].contains("measuring empty"))
        #expect(run.lines[5].contains("fill it with 830 ml"))
        #expect(run.lines[6].contains("measuring full"))
        #expect(run.lines[7] == "done: scale 250.0 counts per gram (empty 120000, full 327500); the bottle saved it")
        #expect(Array(run.journal.prefix(3)) == [.subscribe(.calibrationState), .subscribe(.currentState),
                                                 .write(.command, Command.startCalibration.encoded())])
        #expect(run.commands == [.startCalibration], "no CANCEL after COMPLETE")
        #expect(run.journal.last == .disconnect, "B12: calibration mode ends only with the link")
        #expect(run.disconnects == 1)
    }

    @Test("an unsteady measurement loops back (4→3, 7→6): the person is told to place the bottle again")
    func loopBack() async throws {
        let run = await run(Self.states([1, 2, 3, 4, 3, 4, 6, 7, 6, 7]) + [Self.complete])
        #expect(run.outcome == .complete(Self.points))
        let again = run.lines.filter { $0.contains("moved while it was being weighed") }
        #expect(again.count == 2, "\(run.lines)")
        #expect(again.first?.contains("EMPTY") == true)
        #expect(run.progress.filter { $0.phase == .measureEmpty }.count == 2)
        #expect(run.journal.last == .disconnect)
    }

    @Test("ERROR ends the flow with the likely reason; nothing to cancel; disconnected")
    func bottleError() async throws {
        let run = await run(Self.states([1, 2, 3, 10]))
        guard case .bottleError(let reason) = run.outcome else {
            Issue.record("expected the bottle's error, got \(run.outcome)")
            return
        }
        #expect(reason.contains("empty bottle was not placed"), "\(reason)")
        #expect(run.lines.last?.hasPrefix("the bottle reported an error") == true)
        #expect(run.commands == [.startCalibration])
        #expect(run.journal.last == .disconnect)

        let full = await self.run(Self.states([1, 2, 3, 4, 6, 10]))
        guard case .bottleError(let fullReason) = full.outcome else {
            Issue.record("expected the bottle's error, got \(full.outcome)")
            return
        }
        #expect(fullReason.contains("830 ml"), "\(fullReason)")
    }

    @Test("60 s without a new step: CANCEL_CALIBRATION written, state 0 awaited, disconnected — in fake time")
    func silence() async throws {
        let run = await run(Self.states([1, 2, 3]))
        guard case .timedOut(let reason) = run.outcome else {
            Issue.record("expected a time-out, got \(run.outcome)")
            return
        }
        #expect(reason.contains("60 s"), "\(reason)")
        #expect(reason.contains("waiting for the empty bottle"), "\(reason)")
        #expect(run.commands == [.startCalibration, .cancelCalibration])
        #expect(run.elapsed >= 60 && run.elapsed < 61, "cancelled after 60 s of silence: \(run.elapsed)")
        #expect(run.journal.last == .disconnect)

        // While the bottle waits to be filled, its own limit is 120 s: the flow waits longer.
        let filling = await self.run(Self.states([1, 2, 3, 4, 6]), answersCancel: false)
        guard case .timedOut(let fillReason) = filling.outcome else {
            Issue.record("expected a time-out, got \(filling.outcome)")
            return
        }
        #expect(fillReason.contains("125 s"), "\(fillReason)")
        #expect(filling.commands == [.startCalibration, .cancelCalibration])
        #expect(filling.elapsed >= 128 && filling.elapsed < 129, "125 s, then 3 s for a state 0 that never came: \(filling.elapsed)")
        #expect(filling.journal.last == .disconnect)
    }

    @Test("the link lost mid-flow ends it at once with the reason; no hang, no CANCEL on a dead link")
    func linkLost() async throws {
        let run = await run(Self.states([1, 2, 3]), dropAfterScript: true)
        guard case .failed(let reason) = run.outcome else {
            Issue.record("expected a failure, got \(run.outcome)")
            return
        }
        #expect(reason.contains("link was lost"), "\(reason)")
        #expect(reason.contains("waiting for the empty bottle"), "\(reason)")
        #expect(run.elapsed < 1, "no waiting on a dead link: \(run.elapsed)")
        #expect(run.commands == [.startCalibration])
        #expect(run.disconnects == 1)
    }

    @Test("cancel() mid-flow (Ctrl-C): CANCEL_CALIBRATION, the bottle's state 0, disconnected")
    func cancelMidFlow() async throws {
        let run = await run(Self.states([1, 2, 3, 4, 6]), cancelAt: .waitEmpty)
        #expect(run.outcome == .cancelled(onBottle: true, confirmed: true))
        #expect(run.commands == [.startCalibration, .cancelCalibration])
        #expect(run.journal.last == .disconnect)
        #expect(run.elapsed < 1, "noticed within one poll: \(run.elapsed)")
    }

    @Test("cancel() before the flow starts writes nothing to the bottle")
    func cancelBeforeStart() async throws {
        let clock = FakeClock()
        let journal = Journal()
        let link = FakeLink(bottle: FakeBottle(), clock: clock, journal: journal)
        let session = CalibrationSession(link: link, clock: clock)
        session.cancel()
        #expect(await session.run() == .cancelled(onBottle: false, confirmed: false))
        #expect(!journal.all.contains { if case .write = $0 { return true } else { return false } })
        #expect(journal.all.last == .disconnect)
    }
}
