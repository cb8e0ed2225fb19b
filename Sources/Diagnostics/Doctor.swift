// `aquavate-bridge doctor` (docs/design.md 3.1): what is missing for live use, one line per check.
//
// Every input is a parameter (environment, paths, the sysfs root, the kernel probe), so tests
// run the real checks against a private bus, a fake sysfs tree and a scripted kernel answer.
// The order follows the path a sync takes: kernel → system bus → bluetoothd → permission →
// adapter → powered → rfkill → clock, then the bridge's own files and the places it delivers to.
import DBus
import Delivery
import Foundation
import Glibc
import History
import HostClock
import Household
import MQTT
import Settings

/// What the doctor examines.
package struct DoctorInputs: Sendable {
    /// The process environment: DBUS_SYSTEM_BUS_ADDRESS, DBUS_SESSION_BUS_ADDRESS, XDG_RUNTIME_DIR.
    package var environment: [String: String]
    package var configPath: String
    /// True when the config file was named (--config): then it must exist, as for `run`.
    package var configMustExist: Bool
    package var databasePath: String
    /// `--set KEY=VALUE` overrides.
    package var overrides: [String]
    /// Where sysfs is (`/sys`; tests give a fake tree for rfkill).
    package var sysfsRoot: String
    /// Asks the kernel about Bluetooth (tests give a scripted answer).
    package var kernel: @Sendable () -> KernelBluetooth
    /// How long to wait for bluetoothd and the MQTT broker.
    package var timeout: Duration
    /// The user the checked setup runs as (`aquavate` for the service); a run as anyone else
    /// says that permissions may differ.
    package var expectedUser: String?
    /// Whether this machine's clock is synchronised (tests give a fixed answer).
    package var clockSync: any ClockSyncSource
    /// Where to read the service unit's watchdog and memory settings (`--service`); nil: not checked.
    package var serviceUnit: ServiceUnitSource?
    /// The PID of a daemon running on this history (the command line finds it): its broker
    /// logins are left to it, and what it recorded is read instead.
    package var runningBridge: Int32?

    package init(
        environment: [String: String], configPath: String, configMustExist: Bool, databasePath: String,
        overrides: [String] = [], sysfsRoot: String = "/sys",
        kernel: @escaping @Sendable () -> KernelBluetooth = KernelBluetooth.probe, timeout: Duration = .seconds(3),
        expectedUser: String? = nil, clockSync: any ClockSyncSource = KernelClockSync(),
        serviceUnit: ServiceUnitSource? = nil, runningBridge: Int32? = nil
    ) {
        self.runningBridge = runningBridge
        self.clockSync = clockSync
        self.environment = environment
        self.configPath = configPath
        self.configMustExist = configMustExist
        self.databasePath = databasePath
        self.overrides = overrides
        self.sysfsRoot = sysfsRoot
        self.kernel = kernel
        self.timeout = timeout
        self.expectedUser = expectedUser
        self.serviceUnit = serviceUnit
    }
}

package enum Doctor {
    /// Runs every check; never throws (a check that cannot run is itself a finding).
    package static func examine(_ inputs: DoctorInputs) async -> DoctorReport {
        let kernel = inputs.kernel()
        let (configFinding, configuration) = FileChecks.configuration(
            path: inputs.configPath, mustExist: inputs.configMustExist, databasePath: inputs.databasePath,
            overrides: inputs.overrides)
        let systemBus = (try? BusAddress.system.resolve { inputs.environment[$0] }) ?? BusAddress.defaultSystemAddress

        var findings: [DoctorFinding] = []
        if let expected = inputs.expectedUser, BlueZChecks.currentUserName() != expected {
            findings.append(DoctorFinding(
                .warn, "user", "checking as \(BlueZChecks.currentUserName()), not as \(expected), so permissions may differ",
                fix: "sudo -u \(expected) aquavate-bridge doctor --service"))
        }
        findings.append(kernel.finding)
        findings += await BlueZChecks.findings(
            systemBus: systemBus, adapterSetting: configuration[Setting.bluetoothAdapter], kernel: kernel,
            timeout: inputs.timeout)
        findings.append(RFKillCheck.finding(sysfsRoot: inputs.sysfsRoot))
        // SET_TIME is written only from a synchronised clock: say whether this one is.
        findings.append(ClockTrust(sync: inputs.clockSync.read()).finding)
        findings.append(FileChecks.database(path: inputs.databasePath))
        // The service's own group may read its files (install.sh: root:aquavate 0640).
        let ownGroups = Set([SecretFileCheck.groupName(getegid())] + (inputs.expectedUser.map { [$0] } ?? []))
        findings += HistoryPrivacyCheck.findings(databasePath: inputs.databasePath, ownGroups: ownGroups)
        findings += BottleClockCheck.findings(databasePath: inputs.databasePath)
        findings += BottleSyncCheck.findings(databasePath: inputs.databasePath)
        findings.append(configFinding)
        if let secrets = SecretFileCheck.finding(path: inputs.configPath, configuration: configuration, ownGroups: ownGroups,
                                                  serviceGroup: inputs.expectedUser) {
            findings.append(secrets)
        }
        let reachability = BrokerReachability.finding(url: configuration[Setting.mqttURL], timeout: inputs.timeout)
        findings.append(reachability)
        if let url = configuration[Setting.mqttURL], reachability.status == .ok, MosquittoLibrary.problem == nil {
            findings.append(BrokerAccessCheck.finding(await AnonymousAccessProbe.probe(
                url: url, topicPrefix: configuration[Setting.mqttTopicPrefix], caFile: configuration[Setting.mqttCAFile], timeout: inputs.timeout)))
        }
        // Only an existing history is read: the doctor creates nothing.
        let history = FileManager.default.fileExists(atPath: inputs.databasePath) ? try? DrinkHistory(path: inputs.databasePath) : nil
        let drops = history.map(HouseholdMembership.drops) ?? [:]
        // Beside a running daemon, on a broker where a login has one connection, the household
        // is not asked under the daemon's login: what the daemon heard is read instead.
        let besideDaemon = HouseholdMembership.loginsHoldOneConnection(configuration) ? inputs.runningBridge : nil
        let heard = besideDaemon == nil ? [] : HouseholdCheck.heardMembers((try? history?.household.replay().marks) ?? [],
                                                                                     topicPrefix: configuration[Setting.mqttTopicPrefix])
        if HouseholdMembership.key(configuration) != nil, let login = HouseholdLoginCheck.finding(
            url: configuration[Setting.mqttURL], householdUser: configuration[Setting.householdMQTTUsername],
            householdPassword: configuration[Setting.householdMQTTPassword], bridgeID: SinkSetup.bridgeID(configuration)) {
            findings.append(login)
        }
        findings += await HouseholdCheck.findings(url: configuration[Setting.mqttURL], key: HouseholdMembership.key(configuration), drops: drops,
                                                  topicPrefix: configuration[Setting.mqttTopicPrefix],
                                                  ownID: SinkSetup.bridgeID(configuration), timeout: inputs.timeout,
                                                  runningBridge: besideDaemon, heard: heard)
        findings.append(await DesktopCheck.finding(
            enabled: configuration[Setting.desktopEnabled] && configuration[Setting.notificationsEnabled],
            environment: inputs.environment))
        if let unit = inputs.serviceUnit {
            findings += await ServiceUnitCheck.findings(unit, timeout: inputs.timeout)
        }
        return DoctorReport(findings: findings)
    }
}
