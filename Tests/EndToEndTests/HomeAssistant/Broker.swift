// mosquitto on 127.0.0.1 at a port the kernel picked free, that can be stopped and started again
// on the same port (the broker-restart check). No persistence: a restarted broker has forgotten
// every retained message, so what Home Assistant shows afterwards is what the bridge sent again.

import BusTestSupport
import Foundation
import ProcessSupport

final class Broker: @unchecked Sendable {
    let port: Int
    let directory: URL
    private let lock = NSLock()
    private var process: ChildProcess?

    init(directory: URL) throws {
        guard let listener = LoopbackListener() else { throw HomeAssistantFailure(description: "no free port") }
        port = listener.port
        close(listener.descriptor)
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let lines = ["listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false",
                     "log_dest file \(directory.path)/mosquitto.log"] + (getuid() == 0 ? ["user root"] : [])
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.appendingPathComponent("mosquitto.conf"))
    }

    var url: String { "mqtt://127.0.0.1:\(port)" }

    func start() async throws {
        let child = try ChildProcess.spawn("/usr/sbin/mosquitto", ["-c", directory.appendingPathComponent("mosquitto.conf").path])
        lock.withLock { process = child }
        let port = self.port
        try await waitUntil(.seconds(20), "mosquitto to listen on \(port)") {
            guard child.isRunning else { throw HomeAssistantFailure(description: "mosquitto exited") }
            return Self.accepts(port: port)
        }
    }

    /// SIGKILL (the test's children may not see SIGTERM), and waits for it to be gone.
    func stop() async {
        guard let child = lock.withLock({ process }) else { return }
        child.killNow()
        _ = await child.waitForExit(timeout: .seconds(10))
        lock.withLock { process = nil }
    }

    static func accepts(port: Int) -> Bool {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
