// A real mosquitto broker on 127.0.0.1 and a free port, for the MQTT tests (docs/design.md 4).
//
// docs/swift-linux.md P6: mosquitto 2 started as root drops to user `mosquitto` unless told
// `user root`; P7: a child of a Swift Testing test inherits a blocked SIGTERM, so it is stopped
// with SIGKILL. No persistence: a restarted broker has forgotten every retained message, which
// is what the reconnection test wants to see repaired.

import Foundation
import ProcessSupport

package final class MosquittoBroker: @unchecked Sendable {
    package let port: Int
    package let directory: URL
    private let lock = NSLock()
    private var process: ChildProcess?

    /// Starts a broker; `extraConfiguration` lines are appended to its config file.
    package init(port: Int? = nil, extraConfiguration: [String] = []) throws {
        self.port = try port ?? freeTCPPort()
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("sinks-mosquitto-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var lines = [
            "listener \(self.port) 127.0.0.1",
            "allow_anonymous true",
            "persistence false",
            "log_dest file \(directory.path)/mosquitto.log",
            "log_type all",
        ]
        if getuid() == 0 { lines.append("user root") }
        lines += extraConfiguration
        try (lines.joined(separator: "\n") + "\n").write(to: configurationFile, atomically: true, encoding: .utf8)
    }

    package var configurationFile: URL { directory.appendingPathComponent("mosquitto.conf") }

    /// What the broker logged so far, and whether it still runs (for failure messages).
    package var log: String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("mosquitto.log"), encoding: .utf8)) ?? ""
        let state = lock.withLock { process.map { $0.exitStatus.map { "exited with \($0)" } ?? "running" } ?? "stopped" }
        return "mosquitto \(state); its log:\n\(text.suffix(1500))"
    }
    package var url: String { "mqtt://127.0.0.1:\(port)" }

    /// Starts (or restarts) the broker and returns once it accepts connections. Waits with
    /// `Task.sleep`, never blocking a thread of the test pool.
    package func start() async throws {
        let process = try ChildProcess.spawn("/usr/sbin/mosquitto", ["-c", configurationFile.path])
        lock.withLock { self.process = process }
        // Readiness: poll until the port accepts a TCP connection (a few ms normally).
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if canConnect(port: port) { return }
            if let status = process.exitStatus {
                throw BrokerFailed(reason: "mosquitto exited with \(status): \(log)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw BrokerFailed(reason: "mosquitto did not listen on \(port) within 20 s")
    }

    /// SIGKILL (P7). Not waited for (that would block a thread; ChildProcess says why): the port
    /// is free once the kernel has killed it, before it is reaped.
    package func kill() {
        lock.lock()
        let process = self.process
        self.process = nil
        lock.unlock()
        process?.killNow()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }

    package struct BrokerFailed: Error, CustomStringConvertible {
        package var reason: String
        package init(reason: String) { self.reason = reason }
        package var description: String { reason }
    }
}
