// Fixtures the ingest, report, daemon and end-to-end tests share: run captures through a Replayer
// and collect what it reports, and build capture lines, records and chunks.

import AquavateProtocol
import Foundation
import History
@testable import Ingest
import Logging
@testable import Reports
@testable import Settings

/// The folder holding the shipped sample captures.
package let capturesFolder: String = {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("captures").path
}()

package func shippedCapture(_ name: String) -> String { capturesFolder + "/" + name }

/// What one replay run reported.
package struct ReplayOutcome {
    package init(events: [BridgeEvent] = [], rejectedLines: Int = 0, failedFiles: Int = 0) {
        self.events = events; self.rejectedLines = rejectedLines; self.failedFiles = failedFiles
    }
    package var events: [BridgeEvent] = []
    package var rejectedLines = 0
    package var failedFiles = 0

    package var drinks: [BridgeEvent.DrinkEvent] { events.compactMap { if case .drink(let d) = $0 { return d } else { return nil } } }
    package var syncs: [BridgeEvent.SyncEvent] { events.compactMap { if case .sync(let s) = $0 { return s } else { return nil } } }
    package var days: [BridgeEvent.DayEvent] { events.compactMap { if case .day(let d) = $0 { return d } else { return nil } } }
    package var states: [BridgeEvent.StateEvent] { events.compactMap { if case .state(let s) = $0 { return s } else { return nil } } }
    package var errors: [BridgeEvent.ErrorEvent] { events.compactMap { if case .error(let e) = $0 { return e } else { return nil } } }
    package var notifications: [BridgeEvent.NotificationEvent] { events.compactMap { if case .notification(let n) = $0 { return n } else { return nil } } }
}

package final class EventCollector: @unchecked Sendable {
    package init() {}
    package var events: [BridgeEvent] = []
}

/// Replays `paths` into `history` with the given `--set` assignments.
package func runReplay(_ paths: [String], history: DrinkHistory, settings: [String] = ["timezone=Europe/Madrid"],
               handleMap: [UInt16: Characteristic] = [:], reminders: Bool = false) throws -> ReplayOutcome {
    var configuration = Configuration()
    for assignment in settings { try configuration.applyOverride(assignment) }
    let collector = EventCollector()
    var logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    logger.logLevel = .critical
    let replayer = Replayer(history: history, configuration: configuration, logger: logger, reminders: reminders) {
        collector.events.append($0)
    }
    for path in paths { replayer.replay(path: path, handleMap: handleMap) }
    replayer.finish()
    return ReplayOutcome(events: collector.events, rejectedLines: replayer.rejectedLines, failedFiles: replayer.failedFiles)
}

/// A temporary folder removed at deinit.
package final class TemporaryFolder {
    package let path: String
    package init() {
        path = NSTemporaryDirectory() + "aquavate-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    package func write(_ name: String, _ text: String) -> String {
        let file = path + "/" + name
        _ = FileManager.default.createFile(atPath: file, contents: Data(text.utf8))
        return file
    }
}

// MARK: Building captures in tests

package let testHeader = #"{"aqcap":1,"created":"2026-11-21T08:00:00Z","source":"test","device":{"name":"Aquavate-A3F2","address":"F4:12:FA:00:A3:F4"},"mtu":247}"#

package func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

package func eventLine(_ t: Double, _ op: String, _ char: String? = nil, _ value: [UInt8]? = nil) -> String {
    var line = #"{"t":\#(t),"op":"\#(op)""#
    if let char { line += #","char":"\#(char)""# }
    if let value { line += #","value":"\#(hex(value))""# }
    return line + "}"
}

package func record(_ id: UInt32, _ timestamp: UInt32, _ amount: Int16, level: Int16 = 400, flags: UInt8 = 0) -> DrinkRecord {
    DrinkRecord(recordID: id, timestamp: timestamp, amountML: amount, bottleLevelML: level,
                typeRaw: amount >= 100 ? 1 : 0, flagsRaw: flags)
}

package func chunk(_ index: UInt16, of total: UInt16, _ records: [DrinkRecord]) -> [UInt8] {
    DrinkDataChunk(chunkIndex: index, totalChunks: total, records: records).encoded()
}

/// The lines of one complete, well-behaved sync of `records` starting at `t`.
package func syncLines(at t: Double, _ records: [DrinkRecord], chunkSize: Int = 17) -> [String] {
    var lines = [eventLine(t, "connect")]
    var now = t + 0.1
    lines.append(eventLine(now, "write", "sync-control", SyncControl.start(count: records.count, chunkSize: chunkSize).encoded()))
    let total = (records.count + chunkSize - 1) / chunkSize
    for index in 0..<total {
        let slice = Array(records[(index * chunkSize)..<min(records.count, (index + 1) * chunkSize)])
        now += 0.03
        lines.append(eventLine(now, "notify", "drink-data", chunk(UInt16(index), of: UInt16(total), slice)))
        now += 0.01
        lines.append(eventLine(now, "write", "sync-control", SyncControl.ack.encoded()))
    }
    lines.append(eventLine(now + 0.2, "disconnect"))
    return lines
}

/// Reads a database written by the command line.
package enum DrinkHistoryProbe {
    package static func delivered(_ path: String) throws -> [String] {
        try DrinkHistory(path: path).reminders.delivered().map(\.id)
    }
}
