// The watchdog's decision (LoopProgress, WatchdogPinger) on a manual clock: it pings
// while the loops make progress or wait within what they declared, and stops pinging when a loop
// stalls or spins, however the spinning loop dresses itself up in waits. No sleeping: time moves
// only when a test moves it.

@testable import Daemon
import Locking
import Logging
import TestFixtures
import Testing
import Timekeeping

/// Records what would have been sent to systemd.
private final class RecordingManager: ServiceManager {
    let sent = Locked<[String]>([])
    var isListening: Bool { true }
    var watchdogTimeout: Duration? { .seconds(120) }
    func notify(_ assignments: String) { sent.withLock { $0.append(assignments) } }
    var pings: Int { sent.withLock { $0.filter { $0 == "WATCHDOG=1" }.count } }
}

private let patience: Duration = .seconds(120)
/// Half of the shipped unit's WatchdogSec=120s: how often the pinger asks.
private let interval: Duration = .seconds(60)

private func isPing(_ verdict: WatchdogVerdict) -> Bool { verdict == .ping }

@Suite("watchdog: pings only on progress")
struct WatchdogTests {
    let clock = ManualClock()

    @Test("pings while marks come, however long that goes on")
    func pingsWhileMarksCome() {
        let progress = LoopProgress(clock: clock)
        let daemon = progress.participant("daemon", patience: patience)
        for chunk in 1...30 {
            clock.advance(by: interval)
            daemon.mark("\(chunk) record(s) stored")
            #expect(isPing(progress.check()), "after mark \(chunk)")
        }
    }

    @Test("pings during a declared wait, up to its deadline and the grace, and not after")
    func pingsDuringADeclaredWait() {
        let progress = LoopProgress(clock: clock, grace: .seconds(5))
        let daemon = progress.participant("daemon", patience: patience)
        daemon.mark("cycle started")
        daemon.waiting(for: .seconds(3600), "waiting for a bottle to advertise on hci0")
        _ = progress.check()
        // An hour of silence: no marks, and that is fine, the loop said it would be away.
        for _ in 1...60 {
            clock.advance(by: interval)
            #expect(isPing(progress.check()))
        }
        clock.advance(by: .seconds(5))
        #expect(isPing(progress.check()), "exactly at the end of the grace")
        clock.advance(by: .seconds(1))
        guard case .stalled(let stalls) = progress.check() else {
            Issue.record("a loop one second past its deadline and grace must stop the pings")
            return
        }
        #expect(stalls.map(\.participant) == ["daemon"])
        #expect(stalls.first?.doing == "waiting for a bottle to advertise on hci0")
        #expect(stalls.first?.overdue == .seconds(6))
    }

    @Test("a stalled loop stops the pings: marks stop, the deadline passes, no ping (and none after)")
    func stalledLoopStopsThePings() {
        let progress = LoopProgress(clock: clock)
        let daemon = progress.participant("daemon", patience: patience)
        daemon.mark("connected to F4:12:FA:00:A3:F4")
        daemon.waiting(for: patience, "syncing Aquavate-A3F2")
        daemon.mark("17 record(s) stored")
        #expect(isPing(progress.check()))
        // The session's events stop (a session spinning on a lost link asks an ended queue again).
        clock.advance(by: interval)
        #expect(isPing(progress.check()), "still within the patience after the last chunk")
        clock.advance(by: interval)
        #expect(isPing(progress.check()), "120 s: at the deadline")
        clock.advance(by: interval)
        let verdict = progress.check()
        #expect(verdict == .stalled([Stall(participant: "daemon", doing: "syncing Aquavate-A3F2", lastMark: "17 record(s) stored",
                                           sinceLastMark: .seconds(180), overdue: .seconds(60))]))
        clock.advance(by: interval)
        #expect(!isPing(progress.check()), "stays stalled while nothing happens")
    }

    @Test("a loop that spins through declared waits cannot push its deadline out")
    func spinningThroughWaitsIsCaught() {
        let progress = LoopProgress(clock: clock)
        let daemon = progress.participant("daemon", patience: patience)
        daemon.mark("discovering on hci0")
        _ = progress.check()
        // Each pass declares a 300 s wait and is back a millisecond later, with nothing marked;
        // the pinger asks every minute.
        for second in 1...310 {
            for _ in 0..<1000 {
                daemon.waiting(for: .seconds(300), "waiting for a bottle to advertise on hci0")
                clock.advance(by: .milliseconds(1))
            }
            if second % 60 == 0 {
                #expect(isPing(progress.check()), "\(second) s: still within the first wait's 300 s")
            }
        }
        // Past the first wait's deadline and the grace: a spin dressed as waits gets no more.
        #expect(!isPing(progress.check()), "a spin dressed as waits must not keep the pings going")
        // ... and it stays caught, although its latest wait "ran its course" in between.
        for _ in 0..<1000 {
            daemon.waiting(for: .seconds(300), "waiting for a bottle to advertise on hci0")
            clock.advance(by: .milliseconds(1))
        }
        #expect(!isPing(progress.check()))
        // Real progress lifts it.
        daemon.mark("Aquavate-A3F2 (F4:12:FA:00:A3:F4) advertised")
        #expect(isPing(progress.check()))
    }

    @Test("waits that run their course may follow each other without marks (hours of no advertisement)")
    func waitsThatRunTheirCourse() {
        let progress = LoopProgress(clock: clock)
        let daemon = progress.participant("daemon", patience: patience)
        daemon.mark("discovering on hci0")
        for _ in 1...48 {  // four hours, in the daemon's 300 s scan-refresh waits
            daemon.waiting(for: .seconds(300), "waiting for a bottle to advertise on hci0")
            clock.advance(by: .seconds(300))
            #expect(isPing(progress.check()))
        }
    }

    @Test("a few early wake-ups without a mark are tolerated; the deadline moves with the new waits")
    func occasionalEarlyWakeUps() {
        let progress = LoopProgress(clock: clock)
        let daemon = progress.participant("daemon", patience: patience)
        daemon.mark("discovering on hci0")
        for _ in 1...LoopProgress.wakeUpsForNothingAllowed {
            daemon.waiting(for: .seconds(300), "waiting for a bottle to advertise on hci0")
            clock.advance(by: .seconds(100))  // back early for nothing
        }
        daemon.waiting(for: .seconds(300), "waiting for a bottle to advertise on hci0")
        clock.advance(by: .seconds(290))
        #expect(isPing(progress.check()))
    }

    @Test("every loop must get somewhere: the reminder ticker's progress does not cover a stalled daemon")
    func oneLoopDoesNotCoverAnother() {
        let progress = LoopProgress(clock: clock)
        let daemon = progress.participant("daemon", patience: patience)
        let reminders = progress.participant("reminders", patience: patience)
        daemon.mark("cycle started")
        for minute in 1...3 {
            reminders.waiting(for: .seconds(60), "waiting for the next reminder tick")
            clock.advance(by: .seconds(60))
            reminders.mark("reminder tick")
            let verdict = progress.check()
            if minute < 3 {
                #expect(isPing(verdict), "minute \(minute): the daemon is within its patience")
            } else {
                #expect(verdict == .stalled([Stall(participant: "daemon", doing: "starting", lastMark: "cycle started",
                                                   sinceLastMark: .seconds(180), overdue: .seconds(60))]))
            }
        }
    }

    @Test("a loop that never marked stalls once its first patience runs out")
    func neverStarted() {
        let progress = LoopProgress(clock: clock)
        _ = progress.participant("daemon", patience: patience)
        clock.advance(by: patience)
        #expect(isPing(progress.check()))
        clock.advance(by: .seconds(10))
        #expect(progress.check() == .stalled([Stall(participant: "daemon", doing: "starting", lastMark: nil,
                                                     sinceLastMark: nil, overdue: .seconds(10))]))
    }

    @Test("the status goes out when what the daemon does changes, once per change")
    func statusOnChange() {
        let statuses = Locked<[String]>([])
        let progress = LoopProgress(clock: clock) { text in statuses.withLock { $0.append(text) } }
        let daemon = progress.participant("daemon", patience: patience, reportsStatus: true)
        let reminders = progress.participant("reminders", patience: patience)
        daemon.status("waiting for a bottle to advertise on hci0")
        daemon.waiting(for: .seconds(300))
        daemon.status("waiting for a bottle to advertise on hci0")
        daemon.waiting(for: .seconds(300))
        reminders.status("waiting for the next reminder tick")
        daemon.mark("Aquavate-A3F2 (F4:12:FA:00:A3:F4) advertised")
        daemon.status("syncing Aquavate-A3F2 (F4:12:FA:00:A3:F4)")
        daemon.waiting(for: .seconds(120))
        daemon.mark("3 record(s) stored")
        #expect(statuses.withLock { $0 } == ["waiting for a bottle to advertise on hci0", "syncing Aquavate-A3F2 (F4:12:FA:00:A3:F4)"])
        #expect(daemon.doing == "syncing Aquavate-A3F2 (F4:12:FA:00:A3:F4)")
    }

    @Test("the pinger sends WATCHDOG=1 on progress only, and pings again once progress resumes")
    func pingerPingsOnProgressOnly() {
        let progress = LoopProgress(clock: clock)
        let daemon = progress.participant("daemon", patience: patience)
        let manager = RecordingManager()
        let pinger = WatchdogPinger(progress: progress, manager: manager, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        daemon.mark("cycle started")
        #expect(pinger.tick())
        #expect(manager.pings == 1)
        clock.advance(by: patience + .seconds(30))
        #expect(!pinger.tick())
        #expect(!pinger.tick())
        #expect(manager.pings == 1, "no ping while stalled")
        daemon.mark("cycle started")
        #expect(pinger.tick())
        #expect(manager.sent.withLock { $0 } == ["WATCHDOG=1", "WATCHDOG=1"])
    }
}
