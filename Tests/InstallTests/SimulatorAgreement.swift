// The simulator checked against the real bluetoothd: the test bed's `simulator-agreement` scenario
// records the guest's system bus (dbus-monitor) while the packaged bridge syncs 10 records, queues
// `bottle goal 2300` and applies it at its next `run --once`; `simulated()` does the same with the
// same binary against `aquavate-sim` on a private bus. Both recordings are normalised
// (BusTranscript) and compared line by line: what the bridge called, how each call was answered,
// which signals it heard, and in which order. A difference passes only if it is in `allowed` below,
// each entry a behaviour of bluetoothd that the simulator models differently, written down in
// docs/bluez.md 8.6 with why.
import BusTestSupport
import Foundation
import ProcessSupport

enum SimulatorAgreement {
    /// How a line of one transcript differs from the other.
    enum Kind: String {
        /// In the transcript with bluetoothd only.
        case realOnly = "only with bluetoothd"
        /// In the transcript with aquavate-sim only.
        case simulatorOnly = "only with aquavate-sim"
        /// In both, as often, but at another place among the others.
        case moved = "elsewhere with aquavate-sim"
    }

    /// A difference that passes, and why.
    struct Allowance {
        var kinds: Set<Kind>
        /// The normalised line; "…" stands for any text.
        var line: String
        /// Why, in a few words (docs/bluez.md 8.6 says it in full).
        var why: String

        init(_ kinds: Set<Kind>, _ line: String, _ why: String) {
            (self.kinds, self.line, self.why) = (kinds, line, why)
        }

        func covers(_ difference: Difference) -> Bool { kinds.contains(difference.kind) && matches(difference.line) }

        func matches(_ candidate: String) -> Bool {
            let pieces = line.components(separatedBy: "…")
            var rest = Substring(candidate)
            for (index, piece) in pieces.enumerated() {
                if index == 0 {
                    guard rest.hasPrefix(piece) else { return false }
                    rest = rest.dropFirst(piece.count)
                } else if index == pieces.count - 1 {
                    return rest.hasSuffix(piece)
                } else {
                    guard let found = rest.range(of: piece) else { return false }
                    rest = rest[found.upperBound...]
                }
            }
            return rest.isEmpty
        }
    }

    /// The differences docs/bluez.md 8.6 explains, each a behaviour of bluetoothd the simulator
    /// models differently, or a property of the test bed's bottle; anything else fails the test.
    static let allowed: [Allowance] = [
        // The bridge's scanning connection clears its discovery filter while its session
        // connection calls Connect, and bluetoothd signals the end of discovery on its own
        // schedule: the order of these four is the processes' scheduling, not BlueZ's.
        Allowance([.moved], "call Adapter1.SetDiscoveryFilter hci0", "two connections of the bridge at once"),
        Allowance([.moved], "call Device1.Connect hci0/dev", "two connections of the bridge at once"),
        Allowance([.moved], "changed hci0 Adapter1 Discovering=false", "bluetoothd's own schedule"),
        Allowance([.moved], "changed hci0/dev Device1 RSSI:invalidated", "bluetoothd's own schedule"),
        // bluetoothd answers Connect() once the LE link is up, before the services are resolved;
        // the simulator answers it after ServicesResolved=true.
        Allowance([.moved], "return Device1.Connect hci0/dev", "Connect() answered at link-up"),
        // The battery plugin adds Battery1 when its profile has connected, after the services
        // were resolved or, from the cache, before; the simulator right after the Connect reply.
        Allowance([.moved], "added hci0/dev Battery1", "Battery1 when the battery profile connects"),
        // bluetoothd 5.66 exports the Battery Service's GATT objects as well as Battery1; the
        // simulator (--battery plugin) hides them.
        Allowance([.realOnly], "added hci0/dev/service:0x180f…", "the Battery Service exported beside Battery1"),
        // The test bed's bottle is served by Bumble's GATT server, whose GATT service has the
        // Client Supported Features and Database Hash characteristics; the firmware's has not.
        Allowance([.realOnly], "added hci0/dev/service:0x1801/char:0x2b29 GattCharacteristic1", "Bumble's GATT service"),
        Allowance([.realOnly], "added hci0/dev/service:0x1801/char:0x2b2a GattCharacteristic1", "Bumble's GATT service"),
        // At a connection from the cache, bluetoothd signals no MTU (the characteristics' MTU
        // is what it was), so the bridge asks for it; the simulator signals MTU on every
        // characteristic.
        Allowance([.simulatorOnly], "changed hci0/dev/service:…/char:… GattCharacteristic1 MTU=…", "MTU signalled again from the cache"),
        Allowance([.realOnly], "call org.freedesktop.DBus.Properties.Get hci0/dev/service:…/char:…", "the bridge reads the MTU"),
        Allowance([.realOnly], "return org.freedesktop.DBus.Properties.Get hci0/dev/service:…/char:…", "the bridge reads the MTU"),
        // After the Disconnect() reply the bridge leaves the bus. bluetoothd signals the link
        // down when the kernel reports the disconnection complete, the simulator at once: which
        // of these the bridge is still there to hear is a matter of milliseconds.
        Allowance([.realOnly, .simulatorOnly], "changed hci0/dev Device1 Connected=false", "the link down after the bridge left"),
        Allowance([.realOnly, .simulatorOnly], "changed hci0/dev/service:aquavate-0/char:… GattCharacteristic1 Notifying=false",
                  "notifications stopped after the bridge left"),
    ]

    /// One line present in one transcript only, or moved (the longest common subsequence of the
    /// two transcripts left out).
    struct Difference: Equatable, CustomStringConvertible {
        var kind: Kind
        var line: String
        var description: String { "\(kind.rawValue): \(line)" }
    }

    /// The lines of each transcript that the other lacks, by a longest common subsequence; a line
    /// that one lacks here and the other there is `moved`.
    static func differences(real: [String], simulated: [String]) -> [Difference] {
        let n = real.count, m = simulated.count
        // common[i][j]: the length of the longest common subsequence of real[i...] and simulated[j...].
        var common = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i][j] = real[i] == simulated[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var realOnly: [Difference] = [], simulatorOnly: [Difference] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, real[i] == simulated[j] {
                i += 1; j += 1
            } else if j == m || (i < n && common[i + 1][j] >= common[i][j + 1]) {
                realOnly.append(Difference(kind: .realOnly, line: real[i])); i += 1
            } else {
                simulatorOnly.append(Difference(kind: .simulatorOnly, line: simulated[j])); j += 1
            }
        }
        var differences: [Difference] = []
        for var difference in realOnly {
            if let twin = simulatorOnly.firstIndex(where: { $0.line == difference.line }) {
                simulatorOnly.remove(at: twin)
                difference.kind = .moved
            }
            differences.append(difference)
        }
        return differences + simulatorOnly
    }

    /// The differences between the two transcripts that no allowance covers. The lines whose
    /// place may differ are compared by their number alone (a longest common subsequence cannot
    /// tell which of two swapped lines moved), the others line by line.
    static func unexplained(real: [String], simulated: [String]) -> [Difference] {
        let movable = allowed.filter { $0.kinds.contains(.moved) }
        func isMovable(_ line: String) -> Bool { movable.contains { $0.matches(line) } }
        var differences: [Difference] = []
        for line in Set(real + simulated).sorted() where isMovable(line) {
            let inReal = real.filter { $0 == line }.count, inSimulated = simulated.filter { $0 == line }.count
            if inReal > inSimulated { differences.append(Difference(kind: .realOnly, line: line)) }
            if inSimulated > inReal { differences.append(Difference(kind: .simulatorOnly, line: line)) }
        }
        differences += Self.differences(real: real.filter { !isMovable($0) }, simulated: simulated.filter { !isMovable($0) })
        return differences.filter { difference in !allowed.contains { $0.covers(difference) } }
    }

    /// The bridge of `bridge` through the scenario against `aquavate-sim --records 10
    /// --no-activity` (the test bed's bottle keeps no activity) on a private bus, as the test bed
    /// runs it: dbus-monitor's output.
    static func simulated(bridge: String) async throws -> String {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let folder = try ScratchFolder("simulator-agreement")
        defer { folder.remove() }
        let state = folder.file("sim.json")
        _ = try bus.spawn(simulator, ["--bus", bus.address, "--records", "10", "--no-activity", "--state-file", state],
                          logName: "sim")
        try await waitUntil(.seconds(60), "aquavate-sim to be ready: \(bus.log("sim"))") {
            FileManager.default.fileExists(atPath: state)
        }
        _ = try bus.spawn("/usr/bin/dbus-monitor", ["--address", bus.address], logName: "monitor")
        try await waitUntil(.seconds(60), "dbus-monitor to become a monitor") { bus.log("monitor").contains("NameLost") }
        // As the test bed runs it (scripts/real-bluez/guest/scenarios.py: sync_once, bridge).
        let home = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"), "XDG_DATA_HOME": folder.file("data")]
        let once = ["run", "--once", "--cooldown", "0", "--failure-pause", "1", "--timeout", "220",
                    "--db", folder.file("history.sqlite")]
        for arguments in [once, ["bottle", "goal", "2300", "--db", folder.file("history.sqlite")], once] {
            let run = try await bus.run(bridge, arguments, timeout: .seconds(240), environment: home)
            guard run.status == 0 else {
                throw HarnessFailure(description: "aquavate-bridge \(arguments.joined(separator: " ")) against aquavate-sim: "
                                     + "exit \(run.status): \(run.error)\nsimulator: \(bus.log("sim").suffix(2000))")
            }
        }
        return bus.log("monitor")
    }

    /// `aquavate-sim`, built next to the test bundle.
    static let simulator = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("aquavate-sim").path
}
