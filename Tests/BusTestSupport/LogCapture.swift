// A swift-log handler that keeps every line, so tests can count what was logged.

import Foundation
import Logging

public struct LogLine: Sendable, CustomStringConvertible {
    public var level: Logger.Level
    public var message: String
    public var description: String { "\(level): \(message)" }
}

public struct CapturingLogHandler: LogHandler {
    public let lines: Recorder<LogLine>
    public var logLevel: Logger.Level = .trace
    public var metadata: Logger.Metadata = [:]

    public init(lines: Recorder<LogLine>) { self.lines = lines }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        lines.append(LogLine(level: event.level, message: event.message.description))
    }
}

public func capturingLogger(_ lines: Recorder<LogLine>, level: Logger.Level = .trace) -> Logger {
    var logger = Logger(label: "sinks-test") { _ in CapturingLogHandler(lines: lines) }
    logger.logLevel = level
    return logger
}

extension Recorder where Element == LogLine {
    public func matching(_ text: String, minimum level: Logger.Level = .trace) -> [LogLine] {
        all.filter { $0.message.contains(text) && $0.level >= level }
    }
}
