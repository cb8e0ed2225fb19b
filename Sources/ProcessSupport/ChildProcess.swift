// A child process (dbus-daemon for `demo`, mosquitto, dbusmock, the tools tests run) that is
// started safely from many threads at once and awaited without ever blocking a thread.
//
// Why not Foundation's `Process` as it is: on Linux (swift-corelibs-foundation) `Process.run()`
// learns of a child's exit through a socket pair whose far end only the child holds; it creates
// the pair, then lists the descriptors to close in the child. Two `run()`s racing on two threads
// can hand one child's end of the pair to the other child as well: the first child's exit is then
// noticed only when the second child ends too. And `waitUntilExit()` blocks its thread in a run
// loop until that notice. On a 2-core machine the Swift concurrency pool has 2 threads: two tests
// blocked in `waitUntilExit()` for a child whose exit waits on a daemon that a third, starved test
// would stop, and the whole test process hangs forever, where no time limit can fire. (CI hung
// twice in this shape, with every pool thread's test stuck; the exact child was not caught.)
//
// So: every spawn of this process goes through one lock (no race, no stray inheritance), and the
// exit is recorded by the termination handler, installed before the spawn, and awaited by polling
// with the injected clock's sleep, under a time limit.

import Foundation
import Locking
import Timekeeping

package final class ChildProcess: Sendable {
    /// The child's pid.
    package let processIdentifier: Int32
    /// The program, as given (for messages).
    package let executable: String
    private let exit: ExitRecord

    /// Serialises every `Process.run()` of this program (see the top of this file), and counts them.
    private static let spawned = Locked(0)

    private init(processIdentifier: Int32, executable: String, exit: ExitRecord) {
        self.processIdentifier = processIdentifier
        self.executable = executable
        self.exit = exit
    }

    /// Starts `executable` with `arguments`. A `nil` output or error handle means /dev/null; input
    /// is always /dev/null (no child of ours reads a terminal). The child gets its own copies of
    /// `output` and `error`; this process's are closed once it runs (pass handles made for the
    /// child). Why: Foundation's Process keeps itself, and so these handles, alive after the
    /// child ended unless `waitUntilExit()` is called, which this type never does; a test run
    /// spawning hundreds of children then held 600 descriptors open.
    /// - Throws: Foundation's error when the program cannot be started (missing, not executable).
    package static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        directory: String? = nil, output: FileHandle? = nil, error: FileHandle? = nil
    ) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = error ?? FileHandle.nullDevice
        let exit = ExitRecord()
        // Installed before the spawn, so that even an instant exit is recorded.
        process.terminationHandler = { ended in exit.record(ended.terminationStatus) }
        defer {
            try? output?.close()
            if error !== output { try? error?.close() }
        }
        try spawned.withLock { count in
            try process.run()
            count += 1
        }
        return ChildProcess(processIdentifier: process.processIdentifier, executable: executable, exit: exit)
    }

    /// The exit status (or the signal that ended it), `nil` while it runs.
    package var exitStatus: Int32? { exit.status }

    package var isRunning: Bool { exit.status == nil }

    /// Sends `signal` (ignored once the child has ended).
    package func send(_ signal: Int32) {
        if isRunning { _ = Foundation.kill(processIdentifier, signal) }
    }

    /// Waits (without blocking a thread) for the child to end, at most `timeout` of `clock`'s time.
    /// - Returns: its exit status, or `nil` when it still runs after `timeout` (or on cancellation).
    package func waitForExit(timeout: Duration, clock: any WallClock = SystemClock()) async -> Int32? {
        let deadline = clock.deadline(after: timeout)
        while true {
            if let status = exit.status { return status }
            guard clock.instant < deadline, (try? await clock.sleep(for: .milliseconds(5))) != nil else {
                return exit.status
            }
        }
    }

    /// SIGKILL now, without waiting: for clean-up paths that cannot await. SIGKILL, not SIGTERM: a
    /// child spawned from a Swift Testing thread may inherit a mask that blocks SIGTERM
    /// (docs/swift-linux.md P7). The dead child is reaped by Foundation.
    package func killNow() {
        send(SIGKILL)
    }

    /// SIGKILL, then waits (at most `timeout`) until the child is gone.
    /// - Returns: whether it was seen to end in time.
    @discardableResult
    package func kill(timeout: Duration = .seconds(10)) async -> Bool {
        killNow()
        return await waitForExit(timeout: timeout) != nil
    }
}

/// The exit status, written once by Foundation's termination handler (on its own thread).
private final class ExitRecord: Sendable {
    private let value = Locked<Int32?>(nil)
    var status: Int32? { value.withLock { $0 } }
    func record(_ status: Int32) { value.withLock { $0 = status } }
}
