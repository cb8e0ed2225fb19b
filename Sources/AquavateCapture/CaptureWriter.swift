import Foundation
import Locking
import Timekeeping
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
private let systemClose = Glibc.close
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
private let systemClose = Darwin.close
#endif

/// Writes an `.aqcap` file, one line per event, for `run --record` (docs/design.md 3.3).
///
/// Each line goes to the kernel in a single `write(2)` as soon as it is written: nothing waits
/// in a user-space buffer, so a crash or `kill -9` loses at most the line being written.
/// `flush()` additionally asks the disk to keep what was written (`fsync`), which is what a
/// power cut needs. Safe to share between threads.
package final class CaptureWriter: Sendable {
    package let path: String
    private let file: Locked<OpenFile>

    private struct OpenFile {
        /// -1 once closed.
        var descriptor: Int32
        var lastTime: WallInstant?
    }

    /// Creates (or truncates) `path` and writes the header line. For a live recording, which
    /// must be on disk as it grows; a finished capture goes through CaptureReplacement instead.
    package convenience init(path: String, header: CaptureHeader) throws {
        // O_NOFOLLOW: a symlink planted at the path is refused, not followed and its target
        // truncated (`import -o` writes a temporary file and renames it over the path).
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link; give the recording's own path" : String(cString: strerror(errno))
            throw CaptureFileUnwritable(path: path, reason: reason)
        }
        try self.init(descriptor: descriptor, path: path, header: header)
    }

    /// Writes into an open file, which the writer then owns (and closes), starting with the header.
    init(descriptor: Int32, path: String, header: CaptureHeader) throws {
        self.path = path
        self.file = Locked(OpenFile(descriptor: descriptor))
        try writeLine(header.jsonLine())
    }

    deinit {
        let descriptor = file.withLock { $0.descriptor }
        if descriptor >= 0 { _ = systemClose(descriptor) }
    }

    /// Appends `event`. Throws `CaptureEventRejected` for an event a reader would reject
    /// (see `CaptureEvent.validationProblem()`), including one earlier than the event before
    /// it: captures are in time order, so a recorder should stamp events with a clock that
    /// never goes back.
    package func write(_ event: CaptureEvent) throws {
        if let problem = event.validationProblem() { throw CaptureEventRejected(problem: problem) }
        try file.withLock { (file: inout OpenFile) throws(any Error) in
            if let lastTime = file.lastTime, event.time < lastTime {
                throw CaptureEventRejected(problem: "out of time order: t \(event.time) is earlier than the previous event's \(lastTime)")
            }
            try writeLine(event.jsonLine(), to: file)
            file.lastTime = event.time
        }
    }

    /// Asks the kernel to put what was written on disk.
    package func flush() {
        file.withLock { file in
            if file.descriptor >= 0 { _ = fsync(file.descriptor) }
        }
    }

    /// Flushes and closes the file; later writes throw. Closing twice is harmless.
    package func close() {
        file.withLock { file in
            guard file.descriptor >= 0 else { return }
            _ = fsync(file.descriptor)
            _ = systemClose(file.descriptor)
            file.descriptor = -1
        }
    }

    private func writeLine(_ line: String) throws {
        try file.withLock { (file: inout OpenFile) throws(any Error) in try writeLine(line, to: file) }
    }

    /// Writes under the lock (the caller holds it: `file` is its guarded value).
    private func writeLine(_ line: String, to file: OpenFile) throws {
        let descriptor = file.descriptor
        guard descriptor >= 0 else { throw CaptureFileUnwritable(path: path, reason: "the writer is closed") }
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { all in
                systemWrite(descriptor, all.baseAddress! + written, all.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw CaptureFileUnwritable(path: path, reason: String(cString: strerror(errno)))
            }
            written += result
        }
    }
}
