// What the daemon trusts of this machine's clock before a session writes SET_TIME, and what
// `status` says about it. The bottle accepts any SET_TIME and keeps it (docs/protocol.md B9), so a
// clock that is not synchronised, or is behind the drinks already stored, must not set it
// (docs/raspberry-pi.md 8, "SET_TIME withheld").

import AquavateProtocol
import BottleSession
import Foundation
import History
@testable import HostClock
@testable import Reports
@testable import Settings
import Testing

@Suite("Clock trust (SET_TIME)")
struct ClockTrustTests {
    static let now = 1_795_150_800.0

    /// A history holding one drink with record time `recordTime`, stored at `storedAt`.
    func history(recordTime: UInt32, storedAt: Double) throws -> DrinkHistory {
        let history = try DrinkHistory(path: nil)
        _ = try history.drinks.store([DrinkRecord(recordID: 1, timestamp: recordTime, amountML: 100, bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)],
                              bottle: "F4:12:FA:00:A3:F4", at: .init(secondsSince1970: storedAt))
        return history
    }

    @Test("not synchronised: SET_TIME withheld, whatever the history says")
    func notSynchronised() throws {
        let trust = ClockTrust.evaluate(source: FixedClockSync(.notSynchronised), drinks: try DrinkHistory(path: nil).drinks)
        let reason = try #require(trust.setTimePolicy.reasonToWithhold(now: .init(secondsSince1970: Self.now), bottleTime: nil))
        #expect(reason.contains("not synchronised"))
        #expect(trust.statusLine(at: .init(secondsSince1970: Self.now)) == "Clock: NOT synchronised — SET_TIME withheld")
    }

    @Test("synchronised and ahead of the newest stored drink: SET_TIME sent")
    func synchronised() throws {
        let trust = ClockTrust.evaluate(source: FixedClockSync(.synchronised),
                                        drinks: try history(recordTime: UInt32(Self.now - 3600), storedAt: Self.now - 3000).drinks,
                                        bottle: "F4:12:FA:00:A3:F4")
        #expect(trust.setTimePolicy.reasonToWithhold(now: .init(secondsSince1970: Self.now), bottleTime: .init(secondsSince1970: Self.now - 10)) == nil)
        #expect(trust.statusLine(at: .init(secondsSince1970: Self.now)) == "Clock: synchronised")
    }

    @Test("synchronised but behind a drink it stored itself, or far behind the newest drink's time: withheld")
    func behindTheHistory() throws {
        let stored = ClockTrust.evaluate(source: FixedClockSync(.synchronised),
                                         drinks: try history(recordTime: UInt32(Self.now - 86_400), storedAt: Self.now + 600).drinks)
        #expect(stored.setTimePolicy.reasonToWithhold(now: .init(secondsSince1970: Self.now), bottleTime: nil)?
                    .contains("600 s behind the time the newest drink was stored") == true)
        #expect(stored.statusLine(at: .init(secondsSince1970: Self.now)) == "Clock: synchronised, but 600 s behind the time the newest drink was stored — SET_TIME withheld")
        let recorded = ClockTrust.evaluate(source: FixedClockSync(.unknown("adjtimex failed: Operation not permitted")),
                                           drinks: try history(recordTime: UInt32(Self.now + 7200), storedAt: Self.now - 60).drinks)
        #expect(recorded.setTimePolicy.reasonToWithhold(now: .init(secondsSince1970: Self.now), bottleTime: nil)?
                    .contains("7200 s behind the newest stored drink") == true)
        // Unknown, and not behind anything: sent (a never-set bottle records nothing, docs/protocol.md 5.2).
        #expect(recorded.setTimePolicy.reasonToWithhold(now: .init(secondsSince1970: Self.now + 7200), bottleTime: nil) == nil)
    }

    @Test("status says whether the clock is synchronised and SET_TIME withheld")
    func statusLine() throws {
        let history = try DrinkHistory(path: nil)
        var configuration = Configuration()
        try configuration.applyOverride("timezone=Europe/Madrid")
        let unsynced = try StatusReport.make(history: history, configuration: configuration, at: .init(secondsSince1970: Self.now),
                                             clock: ClockTrust(sync: .notSynchronised))
        #expect(unsynced.textLines().contains("Clock: NOT synchronised — SET_TIME withheld"))
        #expect(unsynced.jsonLine().contains(#""clock_synchronised":false"#))
        #expect(unsynced.jsonLine().contains(#""set_time_withheld":true"#))
        let synced = try StatusReport.make(history: history, configuration: configuration, at: .init(secondsSince1970: Self.now),
                                           clock: ClockTrust(sync: .synchronised))
        #expect(synced.textLines().contains("Clock: synchronised"))
    }

    @Test("the kernel answers without privilege (or says why not)")
    func kernelAnswers() {
        // Whatever this machine's state: a read-only adjtimex needs no privilege outside a
        // seccomp filter, so the answer is one of the two, not a failure.
        #expect(KernelClockSync().read() == .synchronised || KernelClockSync().read() == .notSynchronised)
    }
}
