// A swift-log handler that keeps every line, so tests can count what was logged.

import Foundation
import Logging

package struct LogLine: Sendable, CustomStringConvertible {
    package var level: Logger.Level
    package var message: String
    package var description: String { "\(level): \(message)" }
}

package struct CapturingLogHandler: LogHandler {
    package let lines: Recorder<LogLine>
    package var logLevel: Logger.Level = .trace
    package var metadata: Logger.Metadata = [:]

    package init(lines: Recorder<LogLine>) { self.lines = lines }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        lines.append(LogLine(level: event.level, message: event.message.description))
    }
}

package func capturingLogger(_ lines: Recorder<LogLine>, level: Logger.Level = .trace) -> Logger {
    var logger = Logger(label: "sinks-test") { _ in CapturingLogHandler(lines: lines) }
    logger.logLevel = level
    return logger
}

extension Recorder where Element == LogLine {
    package func matching(_ text: String, minimum level: Logger.Level = .trace) -> [LogLine] {
        all.filter { $0.message.contains(text) && $0.level >= level }
    }
}
