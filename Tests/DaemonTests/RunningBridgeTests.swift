// `doctor`, `notify test` and `bottle forget` ask whether a daemon runs on their history before
// they connect to the broker under its logins (RunningBridge): the daemon is found by the flock
// of its InstanceLock, read from /proc/locks without taking it.

@testable import Daemon
import Foundation
import Glibc
import History
import TestFixtures
import Testing

@Suite("a running bridge, found by its lock")
struct RunningBridgeTests {
    @Test("a held lock names its holder; a lock file nobody holds, or none, names no one")
    func heldLockNamesItsHolder() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/aquavate-bridge.lock", other = folder.path + "/history.sqlite.lock"
        #expect(RunningBridge.pid(lockPaths: [path, other]) == nil, "no lock file")
        do {
            let lock = try InstanceLock.acquire(path: path)
            #expect(RunningBridge.pid(lockPaths: [other, path]) == getpid())
            #expect(RunningBridge.pid(lockPaths: [other]) == nil)
            withExtendedLifetime(lock) {}
        }
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(RunningBridge.pid(lockPaths: [path]) == nil, "the file stays after the daemon; its lock does not")
        // Asking took no lock: a daemon starting now gets it.
        let again = try InstanceLock.acquire(path: path)
        withExtendedLifetime(again) {}
    }

    @Test("a holder that can be seen not to have the database open runs on another history: not counted")
    func anotherHistory() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/aquavate-bridge.lock", database = folder.path + "/history.sqlite"
        let lock = try InstanceLock.acquire(path: path)
        #expect(RunningBridge.pid(lockPaths: [path], database: database) == nil, "this process has no history open")
        let history = try DrinkHistory(path: database)
        #expect(RunningBridge.pid(lockPaths: [path], database: database) == getpid())
        // Named another way (through a symbolic link), it is the same file.
        let link = folder.path + "/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
        #expect(RunningBridge.pid(lockPaths: [path], database: link) == getpid())
        withExtendedLifetime((lock, history)) {}
    }

    @Test("the lock files of a database: the environment's, the one beside the database, then the service's")
    func lockPaths() {
        let paths = RunningBridge.lockPaths(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], databasePath: "/data/history.sqlite",
                                            extra: ["/run/aquavate-bridge/aquavate-bridge.lock"])
        #expect(paths == ["/run/user/1000/aquavate-bridge.lock", "/data/history.sqlite.lock", "/run/aquavate-bridge/aquavate-bridge.lock"])
    }

    @Test("only a held flock of that very file counts: waiters, POSIX locks and other files do not")
    func procLocksLines() {
        let file = RunningBridge.FileID(major: 0xFE, minor: 0, inode: 16_221_590)
        let locks = """
            1: POSIX  ADVISORY  WRITE 11 fe:00:16221590 0 EOF
            2: FLOCK  ADVISORY  WRITE 22 fe:01:16221590 0 EOF
            3: FLOCK  ADVISORY  WRITE 33 fe:00:16221591 0 EOF
            3: -> FLOCK  ADVISORY  WRITE 44 fe:00:16221590 0 EOF
            """
        #expect(RunningBridge.holder(of: file, in: locks) == nil)
        #expect(RunningBridge.holder(of: file, in: locks + "\n4: FLOCK  ADVISORY  WRITE 4242 fe:00:16221590 0 EOF\n") == 4242)
    }
}
