import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the reader yields for each non-blank line.
package enum CaptureItem: Sendable, Equatable {
    case header(CaptureHeader)
    case event(CaptureEvent, line: Int)
    case error(CaptureLineError)
}

/// Streams an `.aqcap` file: one item per non-blank line, in file order.
///
/// The file is read in blocks and split on "\n" ("\r\n" and a missing final newline are fine),
/// so memory stays at one block plus the longest line however long the capture is. The first
/// non-blank line must be the header; when it is not, that line is an error and the events after
/// it are still read. A bad line is one `.error` and never stops the lines after it.
///
/// The reader is its own iterator: it reads the file once, and a second `for` loop goes on
/// from where the first stopped.
package final class CaptureReader: Sequence, IteratorProtocol {
    /// Block size used unless a test asks for another.
    package static let defaultBlockSize = 64 * 1024
    /// Longer lines are reported and skipped without being held in memory. A drink-data value
    /// is 572 hex digits; this leaves room for anything a capture legitimately holds.
    package static let maximumLineLength = 1 << 20

    private var source: ByteSource
    private let blockSize: Int
    private var parser: CaptureLineParser

    /// Bytes read but not yet split into lines; `lineStart` is where the next line begins and
    /// `scanFrom` is where the search for its newline resumes.
    private var buffer: [UInt8] = []
    private var lineStart = 0
    private var scanFrom = 0
    private var atEndOfInput = false
    private var finished = false
    private var lineNumber = 0
    private var headerSeen = false
    /// True while skipping the rest of a line longer than `maximumLineLength`.
    private var discardingLongLine = false
    /// The largest the buffer has been, in bytes: lets tests check that reading streams.
    private(set) var largestBufferCount = 0

    /// Opens `path` for streaming; throws when it cannot be opened (missing, a directory,
    /// no permission).
    package convenience init(path: String, blockSize: Int = CaptureReader.defaultBlockSize) throws {
        let file = try FileSource(path: path)
        self.init(source: .file(file), name: path, blockSize: blockSize)
    }

    /// Reads a capture held in memory, named `name` in errors (tests, fuzzing).
    package convenience init(data: [UInt8], name: String, blockSize: Int = CaptureReader.defaultBlockSize) {
        self.init(source: .memory(data, offset: 0), name: name, blockSize: blockSize)
    }

    private init(source: ByteSource, name: String, blockSize: Int) {
        self.source = source
        self.blockSize = Swift.max(1, blockSize)
        self.parser = CaptureLineParser(file: name)
    }

    package func next() -> CaptureItem? {
        while !finished {
            guard let line = nextLine() else {
                finished = true
                return nil
            }
            if let item = item(for: line) { return item }
        }
        return nil
    }

    // MARK: Lines

    private enum Line {
        case text(Range<Int>)
        case tooLong
        case unreadable(String)
    }

    /// The next physical line (its range in `buffer`, valid until the next call), or nil at
    /// the end of the input.
    private func nextLine() -> Line? {
        while true {
            if let newline = findNewline() {
                let range = lineStart..<newline
                lineStart = newline + 1
                scanFrom = lineStart
                return finishLine(range)
            }
            if atEndOfInput {
                guard lineStart < buffer.count || discardingLongLine else { return nil }
                let range = lineStart..<buffer.count
                lineStart = buffer.count
                scanFrom = lineStart
                return finishLine(range)
            }
            compact()
            if buffer.count > Self.maximumLineLength {
                buffer.removeAll(keepingCapacity: true)
                scanFrom = 0
                discardingLongLine = true
            }
            if let failure = readBlock() {
                lineNumber += 1
                atEndOfInput = true
                buffer.removeAll()
                lineStart = 0
                scanFrom = 0
                return .unreadable(failure)
            }
        }
    }

    /// Counts the line and tells whether it is usable or was too long.
    private func finishLine(_ range: Range<Int>) -> Line {
        lineNumber += 1
        if discardingLongLine || range.count > Self.maximumLineLength {
            discardingLongLine = false
            return .tooLong
        }
        return .text(range)
    }

    private func findNewline() -> Int? {
        guard scanFrom < buffer.count else { return nil }
        let found: Int? = buffer.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress,
                  let hit = memchr(base + scanFrom, Int32(UInt8(ascii: "\n")), all.count - scanFrom)
            else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
        if found == nil { scanFrom = buffer.count }
        return found
    }

    /// Drops the lines already handed out, keeping the partial line at the front.
    private func compact() {
        guard lineStart > 0 else { return }
        buffer.removeSubrange(0..<lineStart)
        scanFrom -= lineStart
        lineStart = 0
    }

    /// Appends one block; returns a message if reading failed.
    private func readBlock() -> String? {
        switch source.read(maxCount: blockSize, appendingTo: &buffer) {
        case .success(let count):
            if count == 0 { atEndOfInput = true }
            largestBufferCount = Swift.max(largestBufferCount, buffer.count)
            return nil
        case .failure(let failure):
            return failure.reason
        }
    }

    // MARK: Items

    private func item(for line: Line) -> CaptureItem? {
        switch line {
        case .tooLong:
            return .error(CaptureLineError(file: parser.file, line: lineNumber,
                message: "line longer than \(Self.maximumLineLength) bytes; skipped"))
        case .unreadable(let reason):
            return .error(CaptureLineError(file: parser.file, line: lineNumber,
                message: "read failed: \(reason); the rest of the file is not read"))
        case .text(var range):
            if lineNumber == 1, buffer[range].starts(with: [0xEF, 0xBB, 0xBF]) {
                range = (range.lowerBound + 3)..<range.upperBound
            }
            range = trimmed(range)
            guard !range.isEmpty else { return nil }
            let text = Data(buffer[range])
            if !headerSeen {
                headerSeen = true
                return parser.header(text, number: lineNumber)
            }
            return parser.event(text, number: lineNumber)
        }
    }

    /// `range` without trailing "\r" and surrounding spaces and tabs; empty for a blank line.
    private func trimmed(_ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        func isBlank(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        }
        while upper > lower, isBlank(buffer[upper - 1]) { upper -= 1 }
        while lower < upper, isBlank(buffer[lower]) { lower += 1 }
        return lower..<upper
    }
}
