// The packaged bridge against the real BlueZ. scripts/real-bluez/run.sh boots a QEMU VM (TCG) with
// Debian 12's kernel and its virtual HCI driver, the real bluetoothd 5.66 and D-Bus, and bottles
// emulated by Bumble on a virtual LE link (scripts/real-bluez/guest/bottle.py, written from
// docs/protocol.md); the bridge is the binary of the Debian package that scripts/test.sh built.
// One boot runs every scenario (a boot costs minutes of emulated CPU); each test below asserts
// one scenario's result: what the bridge stored, what the bottle was sent and in which order.
// A failure names the results folder, where the bridge's output, bluetoothd's debug log and the
// btmon capture of the boot are kept. The last test compares what the bridge said to bluetoothd
// and heard from it with what it says to and hears from aquavate-sim (SimulatorAgreement).
import BusTestSupport
import Foundation
import Testing

/// One boot of the test bed, shared by the tests.
enum RealBlueZ {
    /// The scenarios of scripts/real-bluez/guest/scenarios.py this suite expects, in its order.
    static let expected = ["discovery", "backlog-600", "drop-resume", "mtu-23", "commands", "two-bottles",
                           "bluetoothd-restart", "power-cycle", "simulator-agreement"]
    /// dbus-monitor's recording of the guest's system bus in `simulator-agreement`.
    static let busRecording = "simulator-agreement.dbus.txt"

    static let outcome: Task<TestBedBoot, any Error> = Task {
        try requireRoot("the real-BlueZ test bed (debootstrap, QEMU)")
        let deb = try await DebianPackage.built.value
        let boot = try await TestBedBoot.run("real-bluez", script: "run.sh", report: "results.json", expected: expected,
                                             limit: 840, keep: [busRecording]) { folder in
            let unpack = try await runTool("/usr/bin/dpkg-deb", ["-x", deb, folder.file("package")])
            guard unpack.status == 0 else { throw HarnessFailure(description: "dpkg-deb -x \(deb): \(unpack)") }
            return ["--bridge", folder.file("package/usr/bin/aquavate-bridge")] + expected
        }
        // A failed run keeps its logs, not the unpacked package.
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: boot.folder).deletingLastPathComponent().appendingPathComponent("package"))
        return boot
    }

    static func check(_ name: String) async throws { try await outcome.value.check(name) }
}

@Suite("The packaged bridge against the real bluetoothd, kernel and a virtual radio link", .serialized)
struct RealBlueZTests {
    @Test("bluetoothd finds the bottle by its advertised service and takes its name from the scan response")
    func discovery() async throws { try await RealBlueZ.check("discovery") }

    @Test("600 records synced at MTU 247 in chunks of 17, each ACKed only after it was stored; nothing lost or twice; a second sync finds nothing")
    func backlog() async throws { try await RealBlueZ.check("backlog-600") }

    @Test("the bottle drops the link after chunk 2: the next connection syncs everything again, nothing lost or stored twice")
    func dropAndResume() async throws { try await RealBlueZ.check("drop-resume") }

    @Test("a bottle that refuses a larger ATT MTU than 23 is synced one record per 20-byte chunk")
    func mtu23() async throws { try await RealBlueZ.check("mtu-23") }

    @Test("goal, delete, tare and shake-to-empty reach the bottle at its next connection, each once; calibration runs to its end")
    func commands() async throws { try await RealBlueZ.check("commands") }

    @Test("two bottles and a stranger with a bottle's name advertise: one bottle is adopted and synced, the stranger is never connected")
    func twoBottles() async throws { try await RealBlueZ.check("two-bottles") }

    @Test("bluetoothd killed and restarted mid-sync: the same run --once reconnects and completes, nothing lost or twice, CPU and memory bounded")
    func bluetoothdRestart() async throws { try await RealBlueZ.check("bluetoothd-restart") }

    @Test("the adapter powered off and on mid-sync: the daemon waits for the power and completes, nothing lost or twice, CPU and memory bounded")
    func powerCycle() async throws { try await RealBlueZ.check("power-cycle") }

    @Test("the bridge calls, is answered and hears the same against aquavate-sim as against bluetoothd, but for the differences docs/bluez.md 8.6 explains")
    func simulatorAgreement() async throws {
        try await RealBlueZ.check("simulator-agreement")
        let boot = try await RealBlueZ.outcome.value
        let recording = try #require(boot.files[RealBlueZ.busRecording], "no dbus-monitor recording in \(boot.folder)")
        let real = BusTranscript(monitorOutput: recording)
        let package = try ScratchFolder("simulator-agreement-bridge")
        defer { package.remove() }
        let unpack = try await runTool("/usr/bin/dpkg-deb", ["-x", try await DebianPackage.built.value, package.path])
        #expect(unpack.status == 0, "\(unpack)")
        let simulated = BusTranscript(monitorOutput: try await SimulatorAgreement.simulated(bridge: package.file("usr/bin/aquavate-bridge")))
        #expect(real.lines.contains("call Device1.Connect hci0/dev"), "the recording holds the bridge's calls: \(real.lines.prefix(20))")
        let unexplained = SimulatorAgreement.unexplained(real: real.lines, simulated: simulated.lines)
        #expect(unexplained.isEmpty, """
            \(unexplained.count) difference(s) docs/bluez.md 8.6 does not explain:
            \(unexplained.map(\.description).joined(separator: "\n"))
            bluetoothd:
            \(real.lines.joined(separator: "\n"))
            aquavate-sim:
            \(simulated.lines.joined(separator: "\n"))
            """)
    }

    @Test("every scenario of the test bed ran, and the suite has a test for each")
    func everyScenarioRan() async throws {
        let boot = try await RealBlueZ.outcome.value
        #expect(boot.report.results.map(\.name) == RealBlueZ.expected, "in \(boot.folder)")
    }
}
