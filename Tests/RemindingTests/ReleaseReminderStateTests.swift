// The reminder engines of a history written by the released bridge (HistoryTests'
// Fixtures/release-history.sqlite, made by two bridges of a household with three bottles) restore
// after the upgrade exactly the state the release saved: each engine's JSON document, as the
// release wrote it (Fixtures/release-history.expected), decoded, equals what the runner loads.

import Foundation
import History
import Logging
import Reminders
@testable import Reminding
@testable import Settings
import Testing
import Timekeeping

@Suite("the released history's reminder engines restore the state they saved")
struct ReleaseReminderStateTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("HistoryTests/Fixtures")

    @Test("every engine (every bottle's, and two bottles') loads the state its document held, field by field")
    func restored() throws {
        let folder = NSTemporaryDirectory() + "release-reminders-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/h.sqlite"
        try FileManager.default.copyItem(atPath: Self.fixtures.appendingPathComponent("release-history.sqlite").path, toPath: path)
        let history = try DrinkHistory(path: path)
        let expected = try String(contentsOf: Self.fixtures.appendingPathComponent("release-history.expected"), encoding: .utf8)
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        let settings = configuration.reminderSettings(personReachable: true).0
        var engines = 0
        for line in expected.split(separator: "\n") where line.hasPrefix("engine|reminders") {
            let fields = line.split(separator: "|", maxSplits: 2).map(String.init)
            let bottle: String? = fields[1] == "reminders" ? nil : String(fields[1].dropFirst("reminders@".count))
            let saved = try JSONDecoder().decode(ReminderState.self, from: Data(fields[2].utf8))
            let runner = ReminderRunner(history: history, settings: settings, logger: Logger(label: "test"), bottle: bottle) { _ in }
            #expect(runner.engine.state == saved, "\(fields[1])")
            engines += 1
        }
        #expect(engines == 3)
    }
}
