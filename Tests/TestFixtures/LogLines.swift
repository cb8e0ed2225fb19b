// A swift-log handler that keeps every message as text, so tests can count and search them.

import Locking
import Logging

/// Log lines as text, for counting.
package final class LogLines: Sendable {
    private let lines = Locked<[String]>([])
    package init() {}
    package func append(_ line: String) { lines.withLock { $0.append(line) } }
    package var all: [String] { lines.withLock { $0 } }
}

package struct LineHandler: LogHandler {
    package let lines: LogLines
    package var logLevel: Logger.Level = .trace
    package var metadata: Logger.Metadata = [:]
    package init(lines: LogLines) { self.lines = lines }
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    package func log(event: LogEvent) { lines.append(event.message.description) }
}
