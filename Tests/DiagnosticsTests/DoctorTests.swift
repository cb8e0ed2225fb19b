// `aquavate-bridge doctor` (docs/design.md 3.1): each missing piece named with its fix, against an
// empty private bus, python-dbusmock's bluez5 template (a fake bluetoothd nobody here wrote),
// fake sysfs trees, local TCP listeners, and the kernel of this machine (which has no Bluetooth).
import BusTestSupport
import DBus
@testable import Diagnostics
import Foundation
import History
@testable import HostClock
import Testing

private let hci0Up = KernelBluetooth.controllers([HCIController(name: "hci0", address: "00:01:02:03:04:05", isUp: true)])

/// Doctor inputs on `bus` (nil: a bus address that does not exist) with files in `scratch`.
private func inputs(
    _ bus: PrivateBus?, _ scratch: ScratchFolder, overrides: [String] = ["desktop.enabled=false"],
    kernel: KernelBluetooth = hci0Up, session: Bool = false, clock: ClockSync = .synchronised
) -> DoctorInputs {
    var environment = environmentWithoutBuses(["DBUS_SYSTEM_BUS_ADDRESS": bus?.address ?? "unix:path=\(scratch.file("no-bus"))"])
    if session, let bus { environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
    return DoctorInputs(
        environment: environment, configPath: scratch.file("bridge.toml"), configMustExist: false,
        databasePath: scratch.file("db/history.sqlite"), overrides: overrides, sysfsRoot: scratch.file("sys"),
        kernel: { kernel }, timeout: .seconds(5), clockSync: FixedClockSync(clock))
}

/// Starts dbusmock's bluez5 template on `bus` and waits until it owns org.bluez.
private func startBlueZMock(_ bus: PrivateBus) async throws -> BusConnection {
    let client = try await BusConnection.connect(.address(bus.address))
    _ = try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "bluez5"], logName: "bluez5")
    try await waitUntil(.seconds(30), "dbusmock to own org.bluez (log: \(bus.log("bluez5")))") {
        try await client.nameOwner("org.bluez") != nil
    }
    return client
}

private func addAdapter(_ client: BusConnection, _ name: String) async throws {
    _ = try await client.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock", method: "AddAdapter",
                              arguments: [.string(name), .string("aquavate-hub")])
}

private func setPowered(_ client: BusConnection, _ adapter: String, _ powered: Bool) async throws {
    _ = try await client.call(destination: "org.bluez", path: DBusObjectPath("/org/bluez/\(adapter)"),
                              interface: "org.freedesktop.DBus.Properties", method: "Set",
                              arguments: [.string("org.bluez.Adapter1"), .string("Powered"), .variant(.bool(powered))])
}

private func line(_ report: DoctorReport, _ subject: String) -> String {
    report.findings(about: subject).map(\.description).joined(separator: "\n")
}

@Suite("doctor")
struct DoctorTests {
    @Test("empty system bus: the CLI names bluetoothd and the adapter as missing, with the fix, and exits 1")
    func emptyBus() async throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        try await withPrivateBus { bus in
            let result = try await runTool(bridgeBinary, ["doctor", "--db", scratch.file("history.sqlite")],
                                           environment: environmentWithoutBuses([
                                               "DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_CONFIG_HOME": scratch.path]))
            #expect(result.status == 1, "\(result)")
            #expect(result.lines.first?.contains(" kernel: ") == true, "the kernel comes first: \(result)")
            #expect(result.lines.contains("ok    system bus: connected to \(bus.address)"), "\(result)")
            #expect(result.lines.contains("FAIL  bluetoothd: bluetoothd is not running on the system bus (nobody owns org.bluez); "
                + "fix: sudo systemctl start bluetooth (install it first if needed: sudo apt install bluez)"), "\(result)")
            #expect(result.output.contains("FAIL  adapter: unknown: without bluetoothd no adapter can be used"), "\(result)")
            #expect(result.output.contains("ok    database: \(scratch.file("history.sqlite")) does not exist yet and can be created"))
            #expect(result.output.contains("ok    config: \(scratch.path)/aquavate/bridge.toml does not exist; the defaults apply"))
            #expect(result.output.contains("warn  desktop: no session bus"), "\(result)")
            #expect(result.error.isEmpty, "\(result)")
            #expect(!FileManager.default.fileExists(atPath: scratch.file("history.sqlite")), "the doctor creates nothing")
        }
    }

    @Test("no system bus at all: one FAIL naming the address and `systemctl start dbus`")
    func noSystemBus() async throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        let report = await Doctor.examine(inputs(nil, scratch))
        #expect(line(report, "system bus").hasPrefix("FAIL  system bus: cannot connect to unix:path=\(scratch.file("no-bus"))"))
        #expect(line(report, "system bus").hasSuffix("fix: sudo systemctl start dbus (or correct DBUS_SYSTEM_BUS_ADDRESS)"))
        #expect(report.findings(about: "bluetoothd").isEmpty)
        #expect(!report.readyForLiveUse)
    }

    @Test("dbusmock bluez5: no adapter, then hci0 found and powered (ready), then powered off (not ready)")
    func blueZMockAdapter() async throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        try await withPrivateBus { bus in
            let client = try await startBlueZMock(bus)
            var report = await Doctor.examine(inputs(bus, scratch))
            #expect(line(report, "bluetoothd").hasPrefix("ok    bluetoothd: org.bluez is on the system bus (owner :"))
            #expect(line(report, "D-Bus permission") == "ok    D-Bus permission: user root may call org.bluez")
            #expect(line(report, "adapter").hasPrefix("FAIL  adapter: bluetoothd shows no Bluetooth adapter (no org.bluez.Adapter1 object)"))
            #expect(line(report, "kernel").contains("warn  kernel: hci0 exists in the kernel but bluetoothd does not show it; fix: sudo systemctl restart bluetooth"))
            #expect(!report.readyForLiveUse)

            try await addAdapter(client, "hci0")
            report = await Doctor.examine(inputs(bus, scratch))
            #expect(line(report, "adapter") == "ok    adapter: hci0 (00:01:02:03:04:05)")
            #expect(line(report, "powered") == "ok    powered: hci0 is powered on")
            #expect(report.findings.allSatisfy { $0.status == .ok }, "\(report.findings.map(\.description))")
            #expect(report.readyForLiveUse)

            try await setPowered(client, "hci0", false)
            report = await Doctor.examine(inputs(bus, scratch))
            #expect(line(report, "powered") == "FAIL  powered: hci0 is powered off; fix: bluetoothctl power on (if it turns itself off again, check the rfkill line)")
            #expect(!report.readyForLiveUse)
        }
    }

    @Test("dbusmock bluez5: the CLI honours DBUS_SYSTEM_BUS_ADDRESS and finds the mock's adapter")
    func cliUsesTheSystemBusVariable() async throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        try await withPrivateBus { bus in
            let client = try await startBlueZMock(bus)
            try await addAdapter(client, "hci0")
            let result = try await runTool(bridgeBinary, ["doctor", "--db", scratch.file("history.sqlite"), "--set", "desktop.enabled=false"],
                                           environment: environmentWithoutBuses([
                                               "DBUS_SYSTEM_BUS_ADDRESS": bus.address, "XDG_CONFIG_HOME": scratch.path]))
            #expect(result.lines.contains("ok    adapter: hci0 (00:01:02:03:04:05)"), "\(result)")
            #expect(result.lines.contains("ok    powered: hci0 is powered on"), "\(result)")
            #expect(result.lines.contains("ok    desktop: desktop notifications are off (desktop.enabled = false)"), "\(result)")
            // Exit status 1 exactly when a line says FAIL (here: this machine's kernel has no Bluetooth).
            #expect((result.status == 1) == result.lines.contains { $0.hasPrefix("FAIL") }, "\(result)")
        }
    }

    @Test("adapter choice: bluetooth.adapter names a missing one; else the first powered; kernel-only hci1 is named")
    func adapterChoice() async throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        let twoControllers = KernelBluetooth.controllers([
            HCIController(name: "hci0", address: "00:01:02:03:04:05", isUp: true),
            HCIController(name: "hci1", address: "00:01:02:03:04:06", isUp: false),
        ])
        try await withPrivateBus { bus in
            let client = try await startBlueZMock(bus)
            try await addAdapter(client, "hci0")
            var report = await Doctor.examine(inputs(bus, scratch, overrides: ["bluetooth.adapter=hci1"], kernel: twoControllers))
            #expect(line(report, "adapter") == "FAIL  adapter: hci1 (bluetooth.adapter) is not there; bluetoothd shows hci0; "
                + "fix: aquavate-bridge config set bluetooth.adapter hci0, or config unset bluetooth.adapter")
            #expect(line(report, "kernel").contains("warn  kernel: hci1 exists in the kernel but bluetoothd does not show it"))

            try await addAdapter(client, "hci1")
            try await setPowered(client, "hci0", false)
            report = await Doctor.examine(inputs(bus, scratch, kernel: twoControllers))
            #expect(line(report, "adapter").hasPrefix("ok    adapter: hci1 ("), "the first powered adapter")
            #expect(line(report, "adapter").hasSuffix("; all: hci0, hci1"))
            #expect(line(report, "powered") == "ok    powered: hci1 is powered on")
            #expect(!line(report, "kernel").contains("warn"))
        }
    }

    @Test("kernel: no AF_BLUETOOTH, no controller, a controller, a refused socket — and this machine's own answer")
    func kernelLines() async throws {
        let none = KernelBluetooth.noBluetoothSockets.finding
        #expect(none.status == .fail)
        #expect(none.description.hasPrefix("FAIL  kernel: no Bluetooth here: socket(AF_BLUETOOTH) failed with EAFNOSUPPORT"))
        #expect(none.fix?.contains("sudo modprobe bluetooth btusb") == true)
        #expect(none.fix?.contains("--network host") == true)
        let empty = KernelBluetooth.controllers([]).finding
        #expect(empty.status == .fail && empty.detail.contains("sees no controller"))
        #expect(hci0Up.finding.description == "ok    kernel: Bluetooth controller(s): hci0 (up, 00:01:02:03:04:05)")
        let refused = KernelBluetooth.socketFailed(errno: EPERM).finding
        #expect(refused.status == .warn && refused.detail.contains("Operation not permitted"))

        // Without the bluetooth module (no /sys/module/bluetooth, as on this build machine) the real
        // probe must say so, and so must the CLI's first line.
        if !FileManager.default.fileExists(atPath: "/sys/module/bluetooth") {
            #expect(KernelBluetooth.probe() == .noBluetoothSockets)
            let result = try await runTool(bridgeBinary, ["doctor", "--db", "/nonexistent-dir/x.sqlite"],
                                           environment: environmentWithoutBuses())
            #expect(result.lines.first == none.description, "\(result)")
        }
    }

    @Test("database: under a regular file, a folder, writable, creatable")
    func databasePaths() throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        let file = try scratch.write("not a folder", to: "plain")
        let underFile = FileChecks.database(path: "\(file)/sub/history.sqlite")
        #expect(underFile == DoctorFinding(.fail, "database", "cannot create \(file)/sub/history.sqlite: \(file) is a file, not a folder",
                                           fix: "choose a --db path in a folder"))
        #expect(FileChecks.database(path: scratch.path).detail == "\(scratch.path) is a folder, not a database file")
        let existing = try scratch.write("", to: "history.sqlite")
        #expect(FileChecks.database(path: existing) == DoctorFinding(.ok, "database", "\(existing) is writable"))
        let deep = scratch.file("a/b/c/history.sqlite")
        #expect(FileChecks.database(path: deep) == DoctorFinding(.ok, "database", "\(deep) does not exist yet and can be created"))
    }

    @Test("config: bad TOML, a named file that is missing, an unknown key, a bad --set; `config set` values count")
    func configuration() async throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        let database = scratch.file("history.sqlite")
        let broken = try scratch.write("[mqtt\nurl = 1\n", to: "broken.toml")
        var (finding, _) = FileChecks.configuration(path: broken, mustExist: false, databasePath: database, overrides: [])
        #expect(finding.status == .fail && finding.detail.contains("not valid TOML"), "\(finding)")
        (finding, _) = FileChecks.configuration(path: scratch.file("missing.toml"), mustExist: true, databasePath: database, overrides: [])
        #expect(finding.status == .fail && finding.detail.contains("does not exist"), "\(finding)")
        let unknown = try scratch.write("colour = \"blue\"\n", to: "unknown.toml")
        (finding, _) = FileChecks.configuration(path: unknown, mustExist: true, databasePath: database, overrides: [])
        #expect(finding == DoctorFinding(.warn, "config", "\(unknown): unknown key 'colour' ignored", fix: "edit \(unknown)"))
        (finding, _) = FileChecks.configuration(path: unknown, mustExist: true, databasePath: database, overrides: ["daily_goal_ml=lots"])
        #expect(finding.status == .fail && finding.detail.hasPrefix("--set daily_goal_ml=lots: invalid value"), "\(finding)")

        // A broker saved with `config set` (in the database) is the one the doctor tries.
        let listener = try LocalListener()
        defer { listener.close() }
        try DrinkHistory(path: database).settings.set("mqtt.url", "mqtt://127.0.0.1:\(listener.port)")
        let report = await Doctor.examine(DoctorInputs(
            environment: environmentWithoutBuses(), configPath: scratch.file("none.toml"), configMustExist: false,
            databasePath: database, sysfsRoot: scratch.file("sys"), kernel: { hci0Up }, timeout: .seconds(5)))
        #expect(line(report, "mqtt") == "ok    mqtt: broker 127.0.0.1:\(listener.port) accepts TCP connections")
    }

    @Test("config: a database owned by another user is not opened (no root-owned -wal/-shm for the service), and that is said")
    func foreignDatabaseIsLeftAlone() throws {
        try requireRoot("chown to another user")
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        let database = scratch.file("history.sqlite")
        try DrinkHistory(path: database).settings.set("daily_goal_ml", "1800")
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        for name in before { chown(scratch.file(name), 65534, 65534) }
        let (finding, configuration) = FileChecks.configuration(
            path: scratch.file("none.toml"), mustExist: false, databasePath: database, overrides: [])
        #expect(finding.status == .warn)
        #expect(finding.detail == "settings saved with `config set` were not read: \(database) belongs to another user")
        #expect(finding.fix?.contains("sudo -u aquavate aquavate-bridge doctor --service") == true)
        #expect(configuration.value("daily_goal_ml") == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == before, "nothing created next to it")

        // Owned by this user: read.
        for name in before { chown(scratch.file(name), geteuid(), getegid()) }
        let (own, mine) = FileChecks.configuration(path: scratch.file("none.toml"), mustExist: false, databasePath: database, overrides: [])
        #expect(own.status == .ok && mine.value("daily_goal_ml") == "1800")
    }

    @Test("--service run by someone other than aquavate says so first; the checks name the service's files")
    func serviceAsAnotherUser() async throws {
        let scratch = try ScratchFolder("doctor")
        defer { scratch.remove() }
        var asService = inputs(nil, scratch)
        asService.expectedUser = "aquavate"
        let report = await Doctor.examine(asService)
        let me = BlueZChecks.currentUserName()
        #expect(report.findings.first == DoctorFinding(
            .warn, "user", "checking as \(me), not as aquavate, so permissions may differ",
            fix: "sudo -u aquavate aquavate-bridge doctor --service"))
        asService.expectedUser = me
        #expect(await Doctor.examine(asService).findings(about: "user").isEmpty)

        let result = try await runTool(bridgeBinary, ["doctor", "--service"], environment: environmentWithoutBuses())
        #expect(result.lines.first == "warn  user: checking as \(me), not as aquavate, so permissions may differ; "
            + "fix: sudo -u aquavate aquavate-bridge doctor --service", "\(result)")
        #expect(result.output.contains("/var/lib/aquavate-bridge/history.sqlite"), "\(result)")
        #expect(result.output.contains("/etc/aquavate/bridge.toml"), "\(result)")
    }

    @Test("AccessDenied: the service user or a bluetooth member is told to reload D-Bus, anyone else how to be named")
    func accessDeniedFix() {
        for caller in [BusCaller(user: "aquavate", groups: ["aquavate"]), BusCaller(user: "pi", groups: ["bluetooth"])] {
            let fix = BlueZChecks.accessFix(for: caller, user: caller.user)
            #expect(fix.contains("the bus has not loaded it") && fix.hasSuffix("then sudo systemctl reload dbus"), "\(fix)")
            #expect(!fix.contains("usermod"), "\(fix)")
        }
        let outsider = BlueZChecks.accessFix(for: BusCaller(user: "pi", groups: ["pi"]), user: "pi")
        #expect(outsider.hasPrefix("sudo usermod -aG bluetooth pi, then log out and in again"), "\(outsider)")
    }

    @Test("mqtt: unset, reachable, refused, unresolvable")
    func broker() throws {
        #expect(BrokerReachability.finding(url: nil, timeout: .seconds(2)).status == .ok)
        let listener = try LocalListener()
        let port = listener.port
        #expect(BrokerReachability.finding(url: "mqtt://127.0.0.1:\(port)", timeout: .seconds(2))
            == DoctorFinding(.ok, "mqtt", "broker 127.0.0.1:\(port) accepts TCP connections"))
        listener.close()
        let refused = BrokerReachability.finding(url: "mqtt://127.0.0.1:\(port)", timeout: .seconds(2))
        #expect(refused.description.hasPrefix("FAIL  mqtt: cannot reach the broker 127.0.0.1:\(port): Connection refused; fix: start the broker"))
        let unresolvable = BrokerReachability.finding(url: "mqtts://no-such-broker.invalid", timeout: .seconds(2))
        #expect(unresolvable.detail.hasPrefix("cannot reach the broker no-such-broker.invalid:8883: cannot resolve no-such-broker.invalid"))
    }

    @Test("clock: synchronised is ok; not synchronised warns that SET_TIME is withheld, with the fix")
    func clock() async throws {
        let scratch = try ScratchFolder("doctor-clock")
        defer { scratch.remove() }
        let synced = await Doctor.examine(inputs(nil, scratch, clock: .synchronised))
        #expect(line(synced, "clock") == "ok    clock: synchronised (NTP)")
        let unsynced = await Doctor.examine(inputs(nil, scratch, clock: .notSynchronised))
        #expect(line(unsynced, "clock") == "warn  clock: not synchronised: SET_TIME is withheld, so the bottle keeps its own time; "
                + "fix: sudo timedatectl set-ntp true, then wait until timedatectl says 'System clock synchronized: yes'")
    }

    @Test("rfkill: no switch, unblocked, soft-blocked, hard-blocked; Wi-Fi switches are ignored")
    func rfkill() throws {
        let scratch = try ScratchFolder("sysfs")
        defer { scratch.remove() }
        let root = scratch.path
        #expect(RFKillCheck.finding(sysfsRoot: root).status == .ok)
        func addSwitch(_ id: String, type: String, name: String, soft: Int, hard: Int) throws {
            let folder = "\(root)/class/rfkill/\(id)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (file, value) in [("type", type), ("name", name), ("soft", "\(soft)"), ("hard", "\(hard)")] {
                try "\(value)\n".write(toFile: "\(folder)/\(file)", atomically: true, encoding: .utf8)
            }
        }
        try addSwitch("rfkill0", type: "wlan", name: "phy0", soft: 1, hard: 0)
        try addSwitch("rfkill1", type: "bluetooth", name: "hci0", soft: 0, hard: 0)
        #expect(RFKillCheck.finding(sysfsRoot: root) == DoctorFinding(.ok, "rfkill", "hci0 not blocked"))
        try addSwitch("rfkill1", type: "bluetooth", name: "hci0", soft: 1, hard: 0)
        let soft = RFKillCheck.finding(sysfsRoot: root)
        #expect(soft.description.hasPrefix("FAIL  rfkill: hci0 (rfkill1) soft-blocked; fix: rfkill unblock bluetooth"))
        try addSwitch("rfkill1", type: "bluetooth", name: "hci0", soft: 1, hard: 1)
        let hard = RFKillCheck.finding(sysfsRoot: root)
        #expect(hard.status == .fail && hard.detail.contains("hard-blocked"))
    }

    @Test("desktop: off, no session bus, a session bus without a server, dbusmock's notification daemon")
    func desktop() async throws {
        #expect(await DesktopCheck.finding(enabled: false, environment: [:]).status == .ok)
        let noBus = await DesktopCheck.finding(enabled: true, environment: [:])
        #expect(noBus.status == .warn && noBus.detail.hasPrefix("no session bus"))
        try await withPrivateBus { bus in
            let environment = ["DBUS_SESSION_BUS_ADDRESS": bus.address]
            let empty = await DesktopCheck.finding(enabled: true, environment: environment)
            #expect(empty.description.hasPrefix("warn  desktop: no notification server (org.freedesktop.Notifications) on the session bus"))
            let client = try await BusConnection.connect(.address(bus.address))
            _ = try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "notification_daemon"], logName: "notifyd")
            try await waitUntil(.seconds(30), "dbusmock to own org.freedesktop.Notifications") {
                try await client.nameOwner("org.freedesktop.Notifications") != nil
            }
            let served = await DesktopCheck.finding(enabled: true, environment: environment)
            #expect(served.description.hasPrefix("ok    desktop: a notification server is on the session bus"))
        }
    }
}

/// A TCP listener on 127.0.0.1 and a free port: connections complete through the backlog.
private final class LocalListener: @unchecked Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(descriptor, generic, length) == 0 && listen(descriptor, 8) == 0
                    && getsockname(descriptor, generic, &length) == 0
            }
        }
        guard bound else { throw HarnessFailure(description: "cannot listen on 127.0.0.1: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(descriptor) }
}
