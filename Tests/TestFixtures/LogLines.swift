// A swift-log handler that keeps every message as text, so tests can count and search them.

import Locking
import Logging

/// Log lines as text, for counting.
public final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    public init() {}
    public func append(_ line: String) { lines.withLock { $0.append(line) } }
    public var all: [String] { lines.withLock { $0 } }
}

public struct LineHandler: LogHandler {
    public let lines: LogLines
    public var logLevel: Logger.Level = .trace
    public var metadata: Logger.Metadata = [:]
    public init(lines: LogLines) { self.lines = lines }
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    public func log(event: LogEvent) { lines.append(event.message.description) }
}
