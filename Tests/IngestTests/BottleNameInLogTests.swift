// A bottle command's failure is logged under the bottle's name, as every other line of its sync
// is ("Aquavate-A3F2: …"), not under its serial: one bottle, one name in the journal.

import AquavateProtocol
import BottleSession
import History
import Ingest
import Locking
import Logging
import Testing
import Timekeeping

/// Keeps every message logged through it.
private struct KeepingLogHandler: LogHandler {
    let messages: Locked<[String]>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        messages.withLock { $0.append(event.message.description) }
    }
}

@Suite struct BottleNameInLogTests {
    @Test func aFailedCommandIsLoggedUnderTheBottlesName() throws {
        let history = try DrinkHistory(path: nil)
        let serial = "F4:12:FA:00:A3:F2"
        try history.bottles.update(id: serial) { $0.address = "F4:12:FA:00:A3:F4" }
        let messages = Locked<[String]>([])
        let ingest = BottleIngest(history: history, bottleID: serial, name: "Aquavate-A3F2",
                                  logger: Logger(label: "test") { _ in KeepingLogHandler(messages: messages) },
                                  emit: { _ in }, remind: { _ in })
        let stored = try history.commands.queue(bottle: serial, command: BottleAction.tare.kind, argument: BottleAction.tare.argument,
                                              replacing: false, at: WallInstant(secondsSince1970: 100))
        #expect(ingest.claim(QueuedCommand(id: stored.id, action: .tare), at: WallInstant(secondsSince1970: 200)))
        // The bridge stopped while the tare was being sent; at the next connection it is failed.
        #expect(ingest.pendingCommands(bottle: serial, at: WallInstant(secondsSince1970: 300)).isEmpty)
        let failed = messages.withLock { $0 }.filter { $0.contains("command #\(stored.id)") }
        #expect(failed.count == 1 && failed.allSatisfy { $0.hasPrefix("Aquavate-A3F2: ") && !$0.contains(serial) }, "\(failed)")
    }
}
