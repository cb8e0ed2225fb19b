// A crafted capture must not make replay run for ever: one with `t` = 1e13 made `replay
// --reminders` tick the engine for ever (one tick per minute of its timeline). Capture times end
// at 2100-01-01 (a later one is a rejected line, with file and line), and replay ticks through a
// gap of at most 366 days: a longer one is replayed as what it is in practice, the bridge down for
// that long (a restart, docs/reminders.md 0).

import Foundation
import History
@testable import Ingest
import Logging
@testable import Settings
import TestFixtures
import Testing

@Suite("Replay: bounded times and ticks")
struct ReplayTimeBoundsTests {
    /// Friday 2026-11-20 06:00 Europe/Madrid.
    static let friday0600 = 1_795_150_800.0

    /// Replays `lines` (after the header) with reminders; returns the outcome and the ticks run.
    func replay(_ lines: [String]) throws -> (ReplayOutcome, ticks: Int, file: String) {
        let folder = TemporaryFolder()
        let file = folder.write("capture.aqcap", ([testHeader] + lines).joined(separator: "\n"))
        var configuration = Configuration()
        try configuration.applyOverride("timezone=Europe/Madrid")
        let collector = EventCollector()
        let replayer = Replayer(history: try DrinkHistory(path: nil), configuration: configuration,
                                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, reminders: true) {
            collector.events.append($0)
        }
        replayer.replay(path: file)
        replayer.finish()
        return (ReplayOutcome(events: collector.events, rejectedLines: replayer.rejectedLines, failedFiles: replayer.failedFiles),
                replayer.reminders?.ticksRun ?? -1, file)
    }

    @Test("a t of 1e13 is a rejected line with its file and line; the timeline around it is replayed")
    func hugeTime() throws {
        let start = Self.friday0600
        let (outcome, ticks, file) = try replay([
            eventLine(start, "connect"),
            eventLine(1e13, "note"),
            eventLine(start + 3600, "disconnect"),
        ])
        #expect(outcome.rejectedLines == 1)
        let error = try #require(outcome.errors.first)
        #expect(error.file == file)
        #expect(error.line == 3)
        #expect(error.message.contains("after 2100-01-01T00:00:00Z"))
        #expect(ticks == 61) // 06:00 to 07:00, both included (a tick at an event's instant runs before it)
    }

    @Test("a gap longer than 366 days is replayed as a restart, not ticked minute by minute")
    func longGap() throws {
        let start = Self.friday0600
        let later = start + 4 * 365 * 86_400 // 2030
        let (outcome, ticks, _) = try replay([
            eventLine(start, "connect"),
            eventLine(start + 3 * 3600, "disconnect"),
            eventLine(later, "connect"),
            eventLine(later + 3 * 3600, "disconnect"),
        ])
        #expect(outcome.rejectedLines == 0)
        // 06:00 to 09:00 on each side of the gap, both ends included.
        #expect(ticks == 2 * 181)
        // Each side reminds on its own (the attention reminder of 07:54 on both days).
        #expect(outcome.notifications.filter { $0.kind == "reminder" }.map(\.time)
                    .map(\.secondsSince1970) == [start + 114 * 60, later + 114 * 60])
    }

    @Test("a gap of up to 366 days is still ticked through (docs/reminders.md 0: one timeline)")
    func yearGapTicked() throws {
        let start = Self.friday0600
        let later = start + 366 * 86_400
        let (_, ticks, _) = try replay([eventLine(start, "connect"), eventLine(later, "disconnect")])
        #expect(ticks == 366 * 1440 + 1)
    }
}
