// A dbus-daemon of our own, on a socket in a temporary folder, allowing everything: the bus
// `demo` puts the simulated bottle and the bridge on, so that it needs neither the system bus,
// nor root, nor Bluetooth hardware (docs/design.md 3.1).

import Foundation
import ProcessSupport
import Timekeeping

package final class PrivateDBusDaemon: Sendable {
    /// The bus address, e.g. `unix:path=/tmp/aquavate-demo-…/bus.sock,guid=…`.
    package let address: String
    package let directory: URL
    private let process: ChildProcess

    private init(address: String, directory: URL, process: ChildProcess) {
        self.address = address
        self.directory = directory
        self.process = process
    }

    /// Starts `/usr/bin/dbus-daemon` (or `executable`) and waits at most `timeout` for its address.
    package static func start(executable: String = "/usr/bin/dbus-daemon", timeout: Duration = .seconds(10),
                             clock: any WallClock = SystemClock()) async throws
        -> PrivateDBusDaemon
    {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw PrivateBusFailed(reason: "\(executable) is not there; install the dbus package (apt install dbus)")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("aquavate-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(directory.appendingPathComponent("bus.sock").path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow user="*"/> <allow own="*"/>
                <allow send_type="method_call"/> <allow send_type="method_return"/>
                <allow send_type="error"/> <allow send_type="signal"/>
                <allow receive_type="method_call"/> <allow receive_type="method_return"/>
                <allow receive_type="error"/> <allow receive_type="signal"/>
              </policy>
            </busconfig>
            """.write(to: config, atomically: true, encoding: .utf8)
        let addressFile = directory.appendingPathComponent("address")
        _ = FileManager.default.createFile(atPath: addressFile.path, contents: nil)
        let process = try ChildProcess.spawn(
            executable, ["--config-file=\(config.path)", "--nofork", "--nopidfile", "--print-address=1"],
            output: try FileHandle(forWritingTo: addressFile))
        let deadline = clock.deadline(after: timeout)
        while clock.instant < deadline, process.isRunning {
            let text = (try? String(contentsOf: addressFile, encoding: .utf8)) ?? ""
            if text.contains("\n"), let line = text.split(separator: "\n").first {
                return PrivateDBusDaemon(address: String(line), directory: directory, process: process)
            }
            try await clock.sleep(for: .milliseconds(10))
        }
        process.killNow()
        try? FileManager.default.removeItem(at: directory)
        throw PrivateBusFailed(reason: "dbus-daemon did not start within \(timeout)")
    }

    /// Stops the daemon (SIGKILL: a blocked SIGTERM cannot stall us, docs/swift-linux.md P7), waits
    /// a moment for it to be gone, and removes its folder.
    package func stop() async {
        await process.kill(timeout: .seconds(5))
        try? FileManager.default.removeItem(at: directory)
    }
}

/// The private bus could not be started.
package struct PrivateBusFailed: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { "cannot start a private D-Bus bus: \(reason)" }
}
