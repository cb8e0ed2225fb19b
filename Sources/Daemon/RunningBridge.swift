// Does a daemon (`aquavate-bridge run`) run on this history now? `doctor`, `notify test` and
// `bottle forget` ask before they open a broker connection: on a broker set with
// `use_username_as_clientid` (docs/household.md, "The second wall") a login has one connection,
// so one of theirs under the daemon's login would close the daemon's, and Home Assistant would
// see the bridge offline meanwhile. While the daemon runs they leave the broker to it.
//
// The daemon holds the flock(2) of its `InstanceLock` for as long as it runs. The kernel lists
// every flock in /proc/locks (its holder's PID, the file's device and inode), so the question is
// answered there, without taking the lock: even a shared lock held for an instant could make a
// daemon starting at that instant believe another one runs, and exit.

import Foundation
import Glibc

package enum RunningBridge {
    /// The PID of the daemon holding one of `lockPaths` (the lock of this environment and
    /// database first); nil when no process holds any of them. With `database`, a holder whose
    /// open files can be read and do not include it runs on another history (a user's runtime
    /// directory has one lock for all of that user's daemons) and is not counted.
    package static func pid(lockPaths: [String], database: String? = nil) -> Int32? {
        guard let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        var seen = Set<String>()
        for path in lockPaths where seen.insert(path).inserted {
            guard let file = fileID(path), let pid = holder(of: file, in: locks) else { continue }
            if let database, let open = openFiles(of: pid), !open.contains(realPath(database)) { continue }
            return pid
        }
        return nil
    }

    /// The files process `pid` has open, by their real paths; nil when they cannot be read
    /// (another user's process).
    static func openFiles(of pid: Int32) -> Set<String>? {
        let folder = "/proc/\(pid)/fd"
        guard let descriptors = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        return Set(descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0) })
    }

    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The lock files a daemon on `databasePath` may hold: the one `run` takes in this
    /// environment (InstanceLock.path), and the one next to the database (a daemon started
    /// without a runtime directory), then `extra` (the service's, for its database).
    package static func lockPaths(environment: [String: String], databasePath: String, extra: [String] = []) -> [String] {
        [InstanceLock.path(environment: environment, databasePath: databasePath), databasePath + ".lock"] + extra
    }

    /// A file as /proc/locks names it: `MAJOR:MINOR:INODE`, the device numbers in hex.
    struct FileID: Equatable {
        var major: UInt64
        var minor: UInt64
        var inode: UInt64
    }

    static func fileID(_ path: String) -> FileID? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let device = UInt64(status.st_dev)
        // glibc's major() and minor() of a dev_t (sys/sysmacros.h), which Swift does not import.
        let major = ((device >> 8) & 0xFFF) | ((device >> 32) & ~UInt64(0xFFF))
        let minor = (device & 0xFF) | ((device >> 12) & ~UInt64(0xFF))
        return FileID(major: major, minor: minor, inode: UInt64(status.st_ino))
    }

    /// The PID holding a flock on `file` in the text of /proc/locks, one lock a line:
    /// `1: FLOCK  ADVISORY  WRITE 4242 fe:00:16221590 0 EOF` (a waiter's line has `->` after
    /// its number and holds nothing).
    static func holder(of file: FileID, in locks: String) -> Int32? {
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]) else { continue }
            let parts = fields[5].split(separator: ":")
            guard parts.count == 3, let major = UInt64(parts[0], radix: 16), let minor = UInt64(parts[1], radix: 16),
                  let inode = UInt64(parts[2]) else { continue }
            if FileID(major: major, minor: minor, inode: inode) == file { return pid }
        }
        return nil
    }
}
