// `aquavate-bridge doctor`: what is missing for live use, one line per check with the fix.

import ArgumentParser
import Diagnostics
import Foundation
import Settings

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check what live use needs: kernel Bluetooth, bluetoothd, the adapter, permissions, files, MQTT.",
        discussion: """
            One line per check: ok, warn or FAIL, and for the last two what to do. Exit status 0 \
            when nothing needed for live use is missing (warnings allowed), 1 otherwise. The \
            system bus is DBUS_SYSTEM_BUS_ADDRESS when set. To check the installed service as its \
            own user: sudo -u aquavate aquavate-bridge doctor --service

            With --service, also the unit's Type, WatchdogSec, MemoryHigh and MemoryMax, one line \
            each: what keeps a daemon stuck in a loop, or one whose memory runs away, from taking \
            the Pi down. They are read from systemd (systemctl show aquavate-bridge) when it runs, \
            else from \(ServicePaths.unit) and its drop-ins, or from the unit file --unit names.
            """
    )

    @Flag(help: "Check the service's files: --config \(ServicePaths.config) --db \(ServicePaths.database).")
    var service = false

    @Option(help: ArgumentHelp(
        "With --service: read the unit's settings from this unit file (and FILE.d/*.conf) instead of the installed service.",
        valueName: "FILE"))
    var unit: String?

    @Option(help: ArgumentHelp("Seconds to wait for bluetoothd and the MQTT broker.", valueName: "S"))
    var timeout: Double = 3

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if service, common.config != nil || common.db != nil {
            throw ValidationError("--service sets --config and --db; give either --service or those options")
        }
        if unit != nil, !service {
            throw ValidationError("--unit only applies with --service; give both")
        }
        guard timeout > 0, timeout <= 60 else { throw ValidationError("--timeout must be between 0 and 60 seconds") }
    }

    func run() async throws {
        let configPath = service ? ServicePaths.config : (common.config ?? BridgePaths.defaultConfigFile())
        let inputs = DoctorInputs(
            environment: ProcessEnvironment.current,
            configPath: configPath,
            configMustExist: service || common.config != nil,
            databasePath: service ? ServicePaths.database : common.databasePath,
            overrides: common.assignments,
            timeout: .milliseconds(Int(timeout * 1000)),
            expectedUser: service ? ServicePaths.user : nil,
            serviceUnit: service ? (unit.map { .file($0) } ?? .installed) : nil,
            runningBridge: common.runningBridge(databasePath: service ? ServicePaths.database : common.databasePath))
        let report = await Doctor.examine(inputs)
        for finding in report.findings {
            print(finding)
        }
        if !report.readyForLiveUse { throw ExitCode.failure }
    }
}

/// Where the installed service keeps its files (systemd/aquavate-bridge.service).
enum ServicePaths {
    static let config = "/etc/aquavate/bridge.toml"
    static let database = "/var/lib/aquavate-bridge/history.sqlite"
    /// The service's InstanceLock (its RuntimeDirectory=aquavate-bridge).
    static let lock = "/run/aquavate-bridge/aquavate-bridge.lock"
    static let user = "aquavate"
    static let unit = "/etc/systemd/system/aquavate-bridge.service (or the package's in /lib/systemd/system)"
}
