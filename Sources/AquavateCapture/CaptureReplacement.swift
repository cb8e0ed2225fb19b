// A finished capture written to a new temporary file beside its destination and renamed over it,
// so that a symlink planted at the destination cannot have its target truncated and overwritten
// (as opening the path with O_TRUNC would). mkstemp creates the file with O_EXCL, which never follows a link,
// and rename(2) replaces the directory entry itself: a link at the destination is replaced, its
// target is untouched. A reader never sees a half-written capture, and a failed import leaves
// what was there before.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

package final class CaptureReplacement {
    /// Where the capture ends up.
    package let path: String
    package let writer: CaptureWriter
    private let temporaryPath: String
    private var finished = false

    /// Opens the temporary file and writes the header. Throws `CaptureFileUnwritable` naming
    /// `path` (the folder is missing or not writable).
    package init(path: String, header: CaptureHeader) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var template = Array("\(folder)/.\(url.lastPathComponent).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw CaptureFileUnwritable(path: path, reason: String(cString: strerror(errno)))
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporaryPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        // mkstemp makes 0600; a capture is as readable as any file the user creates. umask can
        // only be read by setting it: a command-line tool's single thread is the only writer.
        let mask = umask(0o022)
        umask(mask)
        fchmod(descriptor, 0o644 & ~mask)
        self.path = path
        self.temporaryPath = temporaryPath
        do {
            writer = try CaptureWriter(descriptor: descriptor, path: temporaryPath, header: header)
        } catch {
            unlink(temporaryPath)
            throw CaptureFileUnwritable(path: path, reason: "\(error)")
        }
    }

    deinit {
        discard()
    }

    /// Flushes the capture to disk and renames it over `path`.
    package func commit() throws {
        guard !finished else { return }
        writer.close()
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw CaptureFileUnwritable(path: path, reason: reason)
        }
        finished = true
    }

    /// Removes the temporary file; `path` keeps what it had. Harmless after `commit()`.
    package func discard() {
        guard !finished else { return }
        finished = true
        writer.close()
        unlink(temporaryPath)
    }
}
