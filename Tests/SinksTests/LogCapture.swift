// A swift-log handler that keeps every line, so tests can count what was logged.

import Foundation
import Logging

struct LogLine: Sendable, CustomStringConvertible {
    var level: Logger.Level
    var message: String
    var description: String { "\(level): \(message)" }
}

struct CapturingLogHandler: LogHandler {
    let lines: Recorder<LogLine>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(LogLine(level: event.level, message: event.message.description))
    }
}

func capturingLogger(_ lines: Recorder<LogLine>, level: Logger.Level = .trace) -> Logger {
    var logger = Logger(label: "sinks-test") { _ in CapturingLogHandler(lines: lines) }
    logger.logLevel = level
    return logger
}

extension Recorder where Element == LogLine {
    func matching(_ text: String, minimum level: Logger.Level = .trace) -> [LogLine] {
        all.filter { $0.message.contains(text) && $0.level >= level }
    }
}
