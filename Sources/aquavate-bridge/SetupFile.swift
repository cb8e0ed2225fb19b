// Writes setup's answers into the config file: the new text from ConfigFileWriter, written to a
// temporary file beside it and renamed over it, so that a crash leaves the old file or the new
// one, never half of one. An existing file keeps its owner and mode (the service's file is
// root:aquavate 0640 because it may hold push.token); a new one is 0640.

import Foundation
import Glibc
import Settings

enum SetupFile {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static let header = """
        # aquavate-bridge configuration, written by `aquavate-bridge setup` (run it again to change
        # the answers). Every key: aquavate-bridge config list. Settings saved with `config set`
        # (in the database) override this file.

        """

    static func write(_ values: [(key: String, value: String)], to path: String) throws {
        let manager = FileManager.default
        let existing: String?
        if manager.fileExists(atPath: path) {
            guard let data = manager.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
                throw ConfigFileError.unreadable(path: path)
            }
            existing = text
        } else {
            existing = nil
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try manager.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        }
        let text = try ConfigFileWriter.text(updating: existing, path: path, with: values, header: header)
        var status = stat()
        let known = stat(path, &status) == 0
        let temporary = path + ".setup-new"
        unlink(temporary)
        // Created unreadable to others from the start: the text may hold push.token.
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let denied = errno == EACCES || errno == EPERM
            throw Failure("cannot create \(temporary): \(String(cString: strerror(errno)))"
                          + (denied ? " (the service's file needs root: sudo aquavate-bridge setup ...)" : ""))
        }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            guard written > 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                unlink(temporary)
                throw Failure("cannot write \(temporary): \(reason)")
            }
            offset += written
        }
        if known {
            fchmod(descriptor, status.st_mode & 0o7777)
            _ = fchown(descriptor, status.st_uid, status.st_gid)
        } else {
            fchmod(descriptor, 0o640)
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure("cannot replace \(path): \(reason)")
        }
    }
}
