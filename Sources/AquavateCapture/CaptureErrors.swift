/// One bad line of a capture (or one bad record of a btsnoop file). The rest of the file is
/// still used: a bad line never stops the lines around it (docs/design.md 3.3).
public struct CaptureLineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as it was named to the reader.
    public var file: String
    /// 1-based line number, the header being line 1; for btsnoop, the record number.
    public var line: Int
    /// What was wrong, one line.
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `capture.aqcap:7: value is not hex: "0x12"`.
    public var description: String { "\(file):\(line): \(message)" }
}

/// A capture file could not be opened or read at all.
public struct CaptureFileUnreadable: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

/// A capture file could not be created or written.
public struct CaptureFileUnwritable: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot write \(path): \(reason)" }
}

/// The writer refused an event that no reader would accept back.
public struct CaptureEventRejected: Error, Sendable, Equatable, CustomStringConvertible {
    public var problem: String

    public init(problem: String) { self.problem = problem }

    public var description: String { "capture event not written: \(problem)" }
}
