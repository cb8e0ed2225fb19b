// The daemon's count of refused broker commands in the history (RefusedCommandLedger): every
// reason appears at 0 from the start (a counter `/metrics` shows before any refusal), the first
// refusal after a quiet spell is saved at once, a flood is saved at most every 10 s and never
// lost (a timer saves what came after the last save), and counts add to an earlier run's.

@testable import Daemon
import History
import Logging
@testable import Sinks
import Testing
import Timekeeping

@Suite struct RefusedCommandLedgerTests {
    let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    @Test func aFloodIsSavedAtMostEveryTenSecondsAndNothingIsLost() throws {
        let history = try DrinkHistory(path: nil)
        let clock = ManualClock()
        let ledger = RefusedCommandLedger(commands: history.commands, clock: clock, logger: logger)
        #expect(history.commands.refused() == Dictionary(uniqueKeysWithValues: SinkCommandRefusalReason.allCases.map { ($0.rawValue, 0) }))
        let refusals = ledger.refusals
        refusals.count(.notPermitted)
        #expect(history.commands.refused()["not_permitted"] == 1, "the first refusal is saved at once")
        for _ in 0..<500 { refusals.count(.rateLimit) }
        #expect(history.commands.refused()["rate_limit"] == 0, "a flood is not a flood of writes")
        #expect(clock.runningTimers == 1, "one save pending")
        clock.advance(by: .seconds(10))
        #expect(history.commands.refused()["rate_limit"] == 500, "what came after the last save is saved when the interval ends")
        #expect(refusals.snapshot == [.notPermitted: 1, .rateLimit: 500])
        // The next run adds to it.
        let next = RefusedCommandLedger(commands: history.commands, clock: clock, logger: logger)
        clock.advance(by: .seconds(60))
        next.counted(.malformed)
        #expect(history.commands.refused()["rate_limit"] == 500 && history.commands.refused()["malformed"] == 1)
    }
}
