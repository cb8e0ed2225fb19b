// One daemon at a time: two `run`s started together sync nothing, and one started mid-sync takes
// the first one's live link and stores records in its own database. So `run`
// takes an exclusive flock(2) before it talks to BlueZ, and holds it until it exits (the kernel
// drops it with the process, however it ends: no stale lock). The file holds the holder's PID,
// so a second `run` can say who holds it. `replay`, `history` and `status` take no lock.
//
// Where (the first that applies):
//   1. `$RUNTIME_DIRECTORY/aquavate-bridge.lock`: systemd's `RuntimeDirectory=aquavate-bridge`
//      (/run/aquavate-bridge, made for the service and removed when it stops);
//   2. `$XDG_RUNTIME_DIR/aquavate-bridge.lock`: a user's runtime directory (/run/user/UID);
//   3. `<database>.lock`, next to the history.
// A lock protects the daemons that look in the same place: the service and a hand-started
// `run` of the same user. Stop the service (`sudo systemctl stop aquavate-bridge`) before
// running the bridge by hand as someone else.

import Foundation
import Glibc

package final class InstanceLock: Sendable {
    package let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The lock file for a daemon with this environment and database.
    package static func path(environment: [String: String], databasePath: String) -> String {
        // RUNTIME_DIRECTORY lists every RuntimeDirectory= of the unit, colon-separated.
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !runtime.isEmpty {
            return "\(runtime)/aquavate-bridge.lock"
        }
        if let user = environment["XDG_RUNTIME_DIR"], !user.isEmpty {
            return "\(user)/aquavate-bridge.lock"
        }
        return databasePath + ".lock"
    }

    /// Takes the lock at `path` without waiting, and writes this process's PID into it.
    /// - Throws: `InstanceLockHeld` when another process holds it; `InstanceLockFailed` when the
    ///   file cannot be opened or locked.
    package static func acquire(path: String) throws -> InstanceLock {
        // No O_TRUNC: the holder's PID must stay readable until the lock is ours. O_NOFOLLOW: a
        // symlink planted at the path does not make the daemon write elsewhere. 0600: flock(2)
        // needs only a descriptor, even a read-only one, so a file others could open is a lock
        // any local user could take first; the bridge's own user reads the PID.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw InstanceLockFailed(path: path, reason: String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = readHolder(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK { throw InstanceLockHeld(path: path, pid: holder) }
            throw InstanceLockFailed(path: path, reason: String(cString: strerror(code)))
        }
        // A file left by an older bridge (0644) is closed too, now that it is ours.
        _ = fchmod(descriptor, 0o600)
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) != 0 || pwrite(descriptor, text, text.count, 0) != text.count {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw InstanceLockFailed(path: path, reason: "cannot write the PID: \(reason)")
        }
        return InstanceLock(path: path, descriptor: descriptor)
    }

    /// The PID written in the lock file, if it holds one.
    private static func readHolder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// Another `run` holds the lock.
package struct InstanceLockHeld: Error, CustomStringConvertible {
    package var path: String
    package var pid: Int32?
    package var description: String {
        let holder = pid.map { "PID \($0)" } ?? "another process"
        return "another aquavate-bridge run (\(holder)) holds \(path): only one may talk to the bottle; "
            + "stop it first (the service: sudo systemctl stop aquavate-bridge) — replay, history and status work beside it"
    }
}

/// The lock file could not be opened or locked.
package struct InstanceLockFailed: Error, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String {
        "cannot take the lock \(path): \(reason); check that its folder exists and is writable (or set XDG_RUNTIME_DIR)"
    }
}
