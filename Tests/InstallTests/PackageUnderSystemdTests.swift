// The Debian package as a Raspberry Pi owner installs it (docs/raspberry-pi.md 2 and 9), on a
// machine booted with systemd as PID 1: scripts/real-bluez/package.sh boots the real-BlueZ test
// bed's `systemd` image (the real bluetoothd 5.66 started by its own unit, BlueZ's blanket D-Bus
// rule removed so that the package's own policy is the only way to org.bluez, a bottle with a
// backlog on an emulated LE link) and installs the .deb that scripts/test.sh built, offline.
// One boot runs every step of scripts/real-bluez/guest/package_scenario.py in order, each on the
// machine the one before left; each test below asserts one step's result. A failure names the
// results folder, which keeps every command's output, the boot's journal and the guest's log.
import BusTestSupport
import Foundation
import Testing

/// One boot of the test bed under systemd, shared by the tests.
enum PackageUnderSystemd {
    /// The steps of package_scenario.py, in its order.
    static let expected = ["install", "first-start", "setup", "service", "remove-install", "purge", "upgrade", "journal"]

    static let outcome: Task<TestBedBoot, any Error> = Task {
        try requireRoot("the real-BlueZ test bed under systemd (debootstrap, QEMU)")
        let deb = try await DebianPackage.built.value
        // Most of the boot is dpkg under the emulated CPU.
        return try await TestBedBoot.run("package-systemd", script: "package.sh", report: "package.json",
                                         expected: expected, limit: 900) { _ in ["--deb", deb] }
    }

    static func check(_ name: String) async throws { try await outcome.value.check(name) }
}

@Suite("The Debian package installed, set up, upgraded and removed on a machine running systemd and the real bluetoothd", .serialized)
struct PackageUnderSystemdTests {
    @Test("apt install of the .deb works offline: the system user aquavate, the service enabled and started, the settings root:aquavate 0640")
    func install() async throws { try await PackageUnderSystemd.check("install") }

    @Test("the first start after the installation reaches BlueZ through the package's own D-Bus policy, never refused, and syncs a 120-record backlog")
    func firstStart() async throws { try await PackageUnderSystemd.check("first-start") }

    @Test("setup --yes keeps the settings file's owner and mode; after systemctl restart the next sync loses nothing")
    func setup() async throws { try await PackageUnderSystemd.check("setup") }

    @Test("the service runs as aquavate with no capabilities, NoNewPrivs and a seccomp filter; doctor --service has no FAIL and status works")
    func service() async throws { try await PackageUnderSystemd.check("service") }

    @Test("apt remove keeps the settings and the history; apt install again finds them and syncs")
    func removeAndInstall() async throws { try await PackageUnderSystemd.check("remove-install") }

    @Test("apt purge removes the settings and keeps the drink history and the user")
    func purge() async throws { try await PackageUnderSystemd.check("purge") }

    @Test("an upgrade from an earlier package keeps the history and the settings, and the service runs the new version")
    func upgrade() async throws { try await PackageUnderSystemd.check("upgrade") }

    @Test("the journal holds no error of the bridge or of bluetoothd but 'No matching connection', once per session the bridge ended; no refused call, no thread-priority complaint")
    func journal() async throws { try await PackageUnderSystemd.check("journal") }

    @Test("every step of the scenario ran, and the suite has a test for each")
    func everyStepRan() async throws {
        let boot = try await PackageUnderSystemd.outcome.value
        #expect(boot.report.results.map(\.name) == PackageUnderSystemd.expected, "in \(boot.folder)")
    }
}
