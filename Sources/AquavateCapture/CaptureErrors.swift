/// One bad line of a capture (or one bad record of a btsnoop file). The rest of the file is
/// still used: a bad line never stops the lines around it (docs/design.md 3.3).
package struct CaptureLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named to the reader.
    package var file: String
    /// 1-based line number, the header being line 1; for btsnoop, the record number.
    package var line: Int
    /// What was wrong, one line.
    package var message: String

    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `capture.aqcap:7: value is not hex: "0x12"`.
    package var description: String { "\(file):\(line): \(message)" }
}

/// A capture file could not be opened or read at all.
package struct CaptureFileUnreadable: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "cannot read \(path): \(reason)" }
}

/// A capture file could not be created or written.
package struct CaptureFileUnwritable: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var reason: String

    package init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "cannot write \(path): \(reason)" }
}

/// The writer refused an event that no reader would accept back.
package struct CaptureEventRejected: Error, Sendable, Equatable, CustomStringConvertible {
    package var problem: String

    package init(problem: String) { self.problem = problem }

    package var description: String { "capture event not written: \(problem)" }
}
