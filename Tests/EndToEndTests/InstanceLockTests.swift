// Only one `run` at a time: where `run`'s instance lock lives, that a second taker is told who
// holds it, and that a symlink at the lock's path is not followed (docs/robustness.md, "Trust";
// SecondInstanceTests runs the real processes).

@testable import Daemon
import Foundation
import TestFixtures
import Testing

@Suite("Instance lock")
struct InstanceLockTests {
    @Test("RUNTIME_DIRECTORY (systemd), else XDG_RUNTIME_DIR, else next to the database")
    func where_() {
        #expect(InstanceLock.path(environment: ["RUNTIME_DIRECTORY": "/run/aquavate-bridge", "XDG_RUNTIME_DIR": "/run/user/1000"],
                                  databasePath: "/var/lib/h.sqlite") == "/run/aquavate-bridge/aquavate-bridge.lock")
        #expect(InstanceLock.path(environment: ["RUNTIME_DIRECTORY": "/run/a:/run/b"], databasePath: "/x")
                == "/run/a/aquavate-bridge.lock")
        #expect(InstanceLock.path(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], databasePath: "/var/lib/h.sqlite")
                == "/run/user/1000/aquavate-bridge.lock")
        #expect(InstanceLock.path(environment: [:], databasePath: "/var/lib/h.sqlite") == "/var/lib/h.sqlite.lock")
    }

    @Test("a second taker is refused with the holder's PID; the lock is free again once released")
    func exclusive() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/aquavate-bridge.lock"
        var first: InstanceLock? = try InstanceLock.acquire(path: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n")
        // Nobody else may open it: flock needs only a descriptor, so another user could take it.
        var status = stat()
        #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600, "mode \(String(status.st_mode & 0o777, radix: 8))")
        #expect(throws: InstanceLockHeld.self) { try InstanceLock.acquire(path: path) }
        do {
            _ = try InstanceLock.acquire(path: path)
        } catch let held as InstanceLockHeld {
            #expect(held.pid == getpid())
            #expect(held.description.hasPrefix("another aquavate-bridge run (PID \(getpid())) holds \(path)"))
        }
        #expect(first != nil)
        first = nil
        _ = try InstanceLock.acquire(path: path)
    }

    @Test("a symlink at the lock's path is not followed")
    func symlink() throws {
        let folder = TemporaryFolder()
        let target = folder.write("target", "precious\n")
        let path = folder.path + "/aquavate-bridge.lock"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        #expect(throws: InstanceLockFailed.self) { try InstanceLock.acquire(path: path) }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious\n")
    }
}
