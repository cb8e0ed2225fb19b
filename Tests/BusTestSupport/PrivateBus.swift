// A private dbus-daemon for one test, and child processes (dbusmock, gdbus) pointed at it.
//
// Shared by every test target that needs a bus (the BusTestSupport target). Why it looks the way it
// does (docs/swift-linux.md):
//   * The daemon gets its own config and socket in a fresh temporary folder, allows everything,
//     and runs in the foreground (`--nofork`) so that its pid is ours to kill.
//   * Children are stopped with SIGKILL: a child spawned from a Swift Testing thread inherits a
//     signal mask that blocks SIGTERM, so `Process.terminate()` may do nothing (P7).
//   * Output goes to files, not pipes, so a chatty child can never block on a full pipe, and
//     nothing here blocks a Swift concurrency thread while waiting: polling with a deadline uses
//     `Task.sleep`. Children are `ChildProcess`es (ProcessSupport): spawned under one lock and
//     never waited for with `Process.waitUntilExit()`, which hung the test process in CI.
//   * As root, dbus-daemon prints "Failed to set fd limit" (P8); it is harmless.
import Foundation
import ProcessSupport

/// Something expected did not happen in time, or a helper process failed.
package struct HarnessFailure: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
}

/// A dbus-daemon of our own, listening on a socket in a temporary folder.
package final class PrivateBus: @unchecked Sendable {
    /// The folder holding the config, the socket and the logs.
    package let directory: URL
    /// The bus address, e.g. `unix:path=/tmp/…/bus.sock,guid=…`.
    package let address: String
    private let daemon: ChildProcess
    private let lock = NSLock()
    private var children: [ChildProcess] = []
    private var stopped = false

    /// The environment that makes a child use this bus as both its system and its session bus.
    package var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["DBUS_SYSTEM_BUS_ADDRESS"] = address
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        // The runtime directory holds `run`'s instance lock: each bus (each test) has its own,
        // so daemons of tests running in parallel do not take each other's lock.
        env["XDG_RUNTIME_DIR"] = directory.path
        env.removeValue(forKey: "RUNTIME_DIRECTORY")
        return env
    }

    private init(directory: URL, address: String, daemon: ChildProcess) {
        self.directory = directory
        self.address = address
        self.daemon = daemon
    }

    /// Writes the config, starts the daemon and waits (at most `timeout`) for its address.
    package static func start(timeout: Duration = .seconds(10)) async throws -> PrivateBus {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("dbus-test-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus.sock").path
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>system</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/>
                <allow own="*"/>
                <allow send_type="method_call"/>    <allow send_type="method_return"/>
                <allow send_type="error"/>          <allow send_type="signal"/>
                <allow receive_type="method_call"/> <allow receive_type="method_return"/>
                <allow receive_type="error"/>       <allow receive_type="signal"/>
                <allow eavesdrop="true"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)

        let addressFile = directory.appendingPathComponent("address.txt")
        _ = FileManager.default.createFile(atPath: addressFile.path, contents: nil)
        let daemon = try ChildProcess.spawn(
            "/usr/bin/dbus-daemon", ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address=1"],
            output: try FileHandle(forWritingTo: addressFile),
            error: try FileHandle(forWritingTo: logFile(directory, "dbus-daemon.log")))

        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let text = (try? String(contentsOf: addressFile, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first, text.contains("\n") {
                return PrivateBus(directory: directory, address: String(line), daemon: daemon)
            }
            if !daemon.isRunning { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        daemon.killNow()
        let log = (try? String(contentsOf: directory.appendingPathComponent("dbus-daemon.log"), encoding: .utf8)) ?? ""
        throw HarnessFailure(description: "dbus-daemon did not print its address within \(timeout): \(log)")
    }

    private static func logFile(_ directory: URL, _ name: String) -> URL {
        let url = directory.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }

    /// Starts a long-running child on this bus (stopped with SIGKILL by `stop()`). Its output
    /// goes to `<name>.log` in the bus folder.
    package func spawn(_ executable: String, _ arguments: [String], logName: String) throws -> ChildProcess {
        let log = try FileHandle(forWritingTo: Self.logFile(directory, logName + ".log"))
        let child = try ChildProcess.spawn(executable, arguments, environment: environment, output: log, error: log)
        lock.withLock { children.append(child) }
        return child
    }

    /// The log a spawned child wrote so far.
    package func log(_ logName: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(logName + ".log"), encoding: .utf8)) ?? ""
    }

    /// Runs a short-lived tool on this bus and returns its exit status, standard output and error.
    package func run(_ executable: String, _ arguments: [String], timeout: Duration = .seconds(20),
                    environment overrides: [String: String] = [:]) async throws
        -> (status: Int32, output: String, error: String)
    {
        let result = try await runTool(executable, arguments, environment: environment.merging(overrides) { _, new in new },
                                       timeout: timeout)
        return (result.status, result.output, result.error)
    }

    /// Kills the children and the daemon (SIGKILL) and removes the folder. Idempotent. It does not
    /// wait for them to be reaped: SIGKILL cannot be refused, and waiting here would block the
    /// caller's thread (see ProcessSupport's ChildProcess for how that hung the suite).
    package func stop() {
        let (children, alreadyStopped) = lock.withLock { () -> ([ChildProcess], Bool) in
            defer { stopped = true }
            return (self.children, stopped)
        }
        guard !alreadyStopped else { return }
        for child in children + [daemon] { child.killNow() }
        // AQUAVATE_KEEP_TEST_FILES=1 keeps the folder (every child's log, Home Assistant's own)
        // for reading after a run that passed; its path is printed.
        if ProcessInfo.processInfo.environment["AQUAVATE_KEEP_TEST_FILES"] == "1" {
            print("kept \(directory.path)")
        } else {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    deinit { stop() }
}
