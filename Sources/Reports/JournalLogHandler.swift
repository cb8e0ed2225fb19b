// Logs to standard error, one line per event, in a journal-friendly form (docs/design.md 3.2).
//
// Under systemd (JOURNAL_STREAM is set) each line starts with the syslog priority prefix
// `<N>`, which journald turns into the entry's priority; elsewhere with a readable level word.

import Foundation
import Logging
import Settings

package struct JournalLogHandler: LogHandler {
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    private let label: String
    private let underJournal: Bool

    package init(label: String, level: Logger.Level = .info,
                environment: [String: String] = ProcessEnvironment.current) {
        self.label = label
        self.logLevel = level
        self.underJournal = environment["JOURNAL_STREAM"] != nil
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var text = underJournal ? "<\(Self.priority(event.level))>" : "\(event.level.rawValue): "
        text += Self.oneLine(event.message.description)
        // Metadata is rare (none of the daemon's own lines has any): no merge to find that out.
        if !metadata.isEmpty || !(event.metadata?.isEmpty ?? true) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            text += " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        StandardError.writeLine(text)
    }

    /// The message on one line: its line breaks become spaces. In Swift, not Foundation's
    /// `replacingOccurrences`, which goes through NSString: 25,000 instructions a line, and a
    /// sync logs a line per drink (600 lines: 6 % of a one-shot sync's instructions).
    package static func oneLine(_ message: String) -> String {
        let newline = UInt8(ascii: "\n")
        // A native string's bytes in place: the search over the UTF-8 view element by element
        // cost ~1,200 instructions a line.
        let hasNewline = message.utf8.withContiguousStorageIfAvailable { $0.contains(newline) } ?? message.utf8.contains(newline)
        guard hasNewline else { return message }
        return String(decoding: message.utf8.map { $0 == newline ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// syslog priorities (sd-daemon(3)).
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }
}

/// Writes to file descriptor 2 directly: `stderr` is shared mutable state that Swift 6 refuses
/// (docs/swift-linux.md P3).
package enum StandardError {
    package static func writeLine(_ text: String) { DescriptorLine.put(text, to: 2) }
}

/// Writes to file descriptor 1 directly, unbuffered: a story told on standard output while the
/// log goes to standard error reads in the order it happened when both are piped into one file
/// (`print` holds a piped line in stdio's buffer until exit).
package enum StandardOutput {
    package static func writeLine(_ text: String) { DescriptorLine.put(text, to: 1) }
}

private enum DescriptorLine {
    static func put(_ text: String, to descriptor: Int32) {
        // The line's own bytes, the newline appended in place (no second string, no array copy).
        var line = text
        line.append("\n")
        line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }
}
