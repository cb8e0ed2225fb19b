// A private dbus-daemon configured like the real system bus, with dbus/aquavate-bridge.conf
// included, and a stand-in for bluetoothd that owns org.bluez on it.
//
// The config is the system's own /usr/share/dbus-1/system.conf with only what cannot work in a
// test taken out (its <user>, <fork/>, pid file, syslog, service helper, and the includes of the
// machine's policy folders) and its socket moved to a scratch folder. So the default policy under
// test is exactly the system bus's: deny every method call, deny owning names. Added, as bluez's
// own /etc/dbus-1/system.d/bluetooth.conf does: root may own org.bluez and call it; the default
// context may not send to org.bluez. Then our file is included.
import BusTestSupport
import DBus
import Foundation
import ProcessSupport
import Locking

final class PolicyBus: @unchecked Sendable {
    let folder: ScratchFolder
    let address: String
    private let daemon: ChildProcess

    private init(folder: ScratchFolder, address: String, daemon: ChildProcess) {
        self.folder = folder
        self.address = address
        self.daemon = daemon
    }

    /// The system bus configuration with `policyFile` included; throws if the system's config no
    /// longer has the default-deny shape this test relies on.
    static func configuration(socket: String, policyFile: String) throws -> String {
        let system = try String(contentsOfFile: "/usr/share/dbus-1/system.conf", encoding: .utf8)
        let dropped = ["<user>", "<fork/>", "<standard_system_servicedirs/>", "<servicehelper>", "<pidfile>", "<syslog/>",
                       "<includedir>", "<include "]
        var lines = system.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { line in !dropped.contains { line.contains($0) } }
            .map { $0.contains("<listen>") ? "  <listen>unix:path=\(socket)</listen>" : $0 }
        let text = lines.joined(separator: "\n")
        for required in ["<type>system</type>", "<deny send_type=\"method_call\"/>", "<deny own=\"*\"/>", "<listen>unix:path=\(socket)"]
        where !text.contains(required) {
            throw HarnessFailure(description: "/usr/share/dbus-1/system.conf no longer yields \(required); revisit PolicyBus")
        }
        guard let end = lines.lastIndex(where: { $0.contains("</busconfig>") }) else {
            throw HarnessFailure(description: "/usr/share/dbus-1/system.conf has no </busconfig>")
        }
        lines.insert(contentsOf: [
            "  <policy user=\"root\">",
            "    <allow own=\"org.bluez\"/>",
            "    <allow send_destination=\"org.bluez\"/>",
            "    <allow own=\"org.example.Other\"/>",
            "    <allow send_destination=\"org.example.Other\"/>",
            "  </policy>",
            "  <policy context=\"default\">",
            "    <deny send_destination=\"org.bluez\"/>",
            "  </policy>",
            "  <include>\(policyFile)</include>",
        ], at: end)
        return lines.joined(separator: "\n")
    }

    static func start(policyFile: String) async throws -> PolicyBus {
        let folder = try ScratchFolder("policy-bus")
        let socket = folder.file("system_bus_socket")
        let config = try folder.write(try configuration(socket: socket, policyFile: policyFile), to: "system.conf")
        let addressFile = folder.file("address")
        let logFile = folder.file("daemon.log")
        _ = FileManager.default.createFile(atPath: addressFile, contents: nil)
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let daemon = try ChildProcess.spawn(
            "/usr/bin/dbus-daemon", ["--config-file=\(config)", "--nofork", "--nopidfile", "--print-address=1"],
            output: try FileHandle(forWritingTo: URL(fileURLWithPath: addressFile)),
            error: try FileHandle(forWritingTo: URL(fileURLWithPath: logFile)))
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, daemon.isRunning {
            let text = (try? String(contentsOfFile: addressFile, encoding: .utf8)) ?? ""
            if text.contains("\n"), let line = text.split(separator: "\n").first {
                return PolicyBus(folder: folder, address: String(line), daemon: daemon)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        daemon.killNow()
        let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        folder.remove()
        throw HarnessFailure(description: "dbus-daemon with the system policy did not start: \(log)")
    }

    /// What the daemon logged (e.g. "Unknown group" warnings).
    var log: String { (try? String(contentsOfFile: folder.file("daemon.log"), encoding: .utf8)) ?? "" }

    /// The environment that makes a child use this bus as its system bus (and no session bus).
    var environment: [String: String] {
        var environment = environmentWithoutBuses(["DBUS_SYSTEM_BUS_ADDRESS": address])
        environment["HOME"] = folder.path
        environment["XDG_CONFIG_HOME"] = folder.path
        environment["XDG_DATA_HOME"] = folder.path
        return environment
    }

    /// Runs `arguments` as `user` (setpriv with the user's groups) on this bus.
    func run(as user: String, _ arguments: [String], timeout: Duration = .seconds(30)) async throws -> ToolResult {
        try await runTool("/usr/bin/setpriv", SystemAccounts.asUser(user) + arguments, environment: environment,
                          directory: folder.path, timeout: timeout)
    }

    /// `dbus-send --system --print-reply` as `user`.
    func send(as user: String, destination: String = "org.bluez", path: String, _ method: String,
              _ arguments: [String] = []) async throws -> ToolResult {
        try await run(as: user, ["/usr/bin/dbus-send", "--system", "--print-reply", "--reply-timeout=10000",
                                 "--dest=\(destination)", path, method] + arguments)
    }

    func stop() {
        daemon.killNow()
        folder.remove()
    }
}

/// A stand-in for bluetoothd owning org.bluez (as root): an adapter at /org/bluez/hci0 with
/// Powered and StartDiscovery, an AgentManager1 at /org/bluez, and an ObjectManager at /.
final class FakeBlueZ: Sendable {
    let connection: BusConnection
    private let discoveryCalls = CallCounter()
    private let agentCalls = CallCounter()
    static let adapter: DBusObjectPath = "/org/bluez/hci0"

    var startDiscoveryCount: Int { discoveryCalls.count }
    var registerAgentCount: Int { agentCalls.count }

    init(address: String) async throws {
        connection = try await BusConnection.connect(.address(address))
        let discovery = discoveryCalls, agents = agentCalls
        try connection.addObjectManager(at: .root)
        try connection.export(Self.adapter, [ExportedInterface(
            "org.bluez.Adapter1",
            methods: [ExportedMethod("StartDiscovery", handler: .immediate { _ in
                discovery.increment()
                return []
            })],
            properties: [
                ExportedProperty("Address", signature: "s", value: .string("00:AA:01:02:03:04")),
                ExportedProperty("Powered", signature: "b", value: .bool(true)),
            ])])
        try connection.export("/org/bluez", [ExportedInterface(
            "org.bluez.AgentManager1",
            methods: [ExportedMethod("RegisterAgent", input: "os", handler: .immediate { _ in
                agents.increment()
                return []
            })])])
        let reply = try await connection.requestName("org.bluez")
        guard reply == .primaryOwner else {
            throw HarnessFailure(description: "the fake bluetoothd could not own org.bluez: \(reply)")
        }
    }

    /// Emits PropertiesChanged(Powered) on the adapter.
    func announcePowered(_ powered: Bool) throws {
        try connection.setProperties(Self.adapter, interface: "org.bluez.Adapter1", changed: ["Powered": .bool(powered)])
    }
}

/// A count shared between a method handler and the test.
final class CallCounter: Sendable {
    private let value = Locked(0)
    var count: Int { value.withLock { $0 } }
    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}
