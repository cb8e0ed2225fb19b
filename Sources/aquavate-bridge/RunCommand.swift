// `aquavate-bridge run`: the daemon (docs/design.md 3.1).

import AquavateProtocol
import ArgumentParser
import BlueZ
import DBus
import Daemon
import Delivery
import Foundation
import History
import Household
import Logging
import Reports
import ServiceLifecycle
import Settings
import Sinks
import Timekeeping
import Web

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Watch for the bottle, sync it whenever it advertises, keep the history, run the reminders.",
        discussion: """
            Runs until SIGTERM or SIGINT (graceful: the sync in progress stops after its current \
            chunk is stored; nothing is lost, the bottle sends unacknowledged records again).

            The first bottle seen is adopted and remembered (in the history database); other \
            Aquavate bottles are ignored unless --adopt or --bottle says otherwise. Every adopted \
            bottle is synced when it advertises, one connection at a time; --adopt adds the next \
            new bottle seen (`bottle forget` removes one). A bottle just synced is left alone for \
            the cool-down while the others may be synced.

            With mqtt.url set, the bridges sharing that broker form one household (bridge.id \
            names this one, default the host name): every drink is replicated to the others, one \
            bridge at a time syncs a bottle (a claim through the broker, the strongest signal \
            wins), and only the bridge that synced a bottle last sends its reminders.

            With --once: sync once and exit. Exit status 0 when the bottle was synced or had \
            nothing to sync; 1 with the reason on one line otherwise. A bottle that falls asleep \
            mid-sync is synced again when it next advertises, and bluetoothd restarting once \
            the bottle was seen is waited for. The whole run is bounded by \
            --timeout (default 120 s); when it runs out, the line says what the bridge was \
            waiting for.

            BlueZ is reached on the system bus (DBUS_SYSTEM_BUS_ADDRESS when set).

            Only one `run` at a time: it holds an exclusive lock on aquavate-bridge.lock in \
            $RUNTIME_DIRECTORY (the service), else $XDG_RUNTIME_DIR, else next to the database \
            (DB.lock); a second `run` names the PID holding it and exits 1. replay, history and \
            status take no lock.

            Under systemd (NOTIFY_SOCKET set, a Type=notify unit) it says READY=1 once the \
            history is open and its services run, what it is doing as STATUS=, and STOPPING=1 on \
            shutdown. With WatchdogSec= (WATCHDOG_USEC) it pings WATCHDOG=1 every half time-out, \
            and only while its loops make progress: a bridge stuck in a loop stops pinging and \
            systemd restarts it. Without NOTIFY_SOCKET none of this happens.

            With --http [ADDR:]PORT (or the setting web.listen) it also serves the dashboard, \
            the JSON API and /metrics, as `serve` does (see `aquavate-bridge serve --help`), with \
            the syncs of this run in aquavate_syncs_total. An address other than loopback needs \
            web.token and web.behind_proxy=true (a TLS reverse proxy), else `run` refuses to \
            start. A web server that fails later (its port taken) is logged and the daemon goes \
            on; the server never waits on the Bluetooth path.
            """
    )

    @Flag(help: "Sync once, then exit (0: synced or nothing to sync; 1: failed, with the reason).")
    var once = false

    @Option(help: ArgumentHelp(
        "With --once: give up after this many seconds (default 120), saying what it was waiting for.", valueName: "S"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Record everything heard from the bottle to an .aqcap capture (replay it with `replay`).", valueName: "FILE"))
    var record: String?

    @Option(help: ArgumentHelp("Bluetooth adapter to use (default: the first powered one).", valueName: "hciN"))
    var adapter: String?

    @Option(help: ArgumentHelp(
        "Sync only this bottle: its Bluetooth address, or the serial of a bottle synced before (default: bottle.address, set by setup).",
        valueName: "ADDRESS|SERIAL"))
    var bottle: String?

    @Flag(help: "Adopt the next new bottle seen, besides the bottles adopted before.")
    var adopt = false

    @Option(help: ArgumentHelp("Seconds to leave the bottle alone after a session (default 60).", valueName: "S"))
    var cooldown: Double = 60

    @Option(name: .customLong("failure-pause"), help: ArgumentHelp(
        "Seconds to wait after a failed session before looking for the bottle again (default 5).", valueName: "S"))
    var failurePause: Double = 5

    @Option(name: .customLong("scan-refresh"), help: ArgumentHelp(
        "Restart discovery after this many seconds without an advertisement (default 300): revives a scanner that went silent.",
        valueName: "S"))
    var scanRefresh: Double = 300

    @Option(help: ArgumentHelp("Also serve the dashboard, JSON API and metrics on [ADDR:]PORT (default: web.listen; off when neither).", valueName: "[ADDR:]PORT"))
    var http: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if let timeout, timeout <= 0 { throw ValidationError("--timeout must be a positive number of seconds") }
        if timeout != nil && !once { throw ValidationError("--timeout only applies with --once") }
        if cooldown < 0 { throw ValidationError("--cooldown must not be negative") }
        if !(failurePause >= 0) { throw ValidationError("--failure-pause must not be negative") }
        if !(scanRefresh > 0) { throw ValidationError("--scan-refresh must be more than 0 seconds") }
    }

    func run() async throws {
        HeapTrim.limitArenas()
        // What loading, the runtime's first casts and argument parsing touched (ResidentCode).
        ResidentCode.releaseStartupPages()
        let logger = common.makeLogger()
        // Before anything else (BlueZ, the database): one daemon at a time (InstanceLock says why).
        let lock: InstanceLock
        let claim: BusClaim
        do {
            let environment = ProcessEnvironment.current
            lock = try InstanceLock.acquire(path: InstanceLock.path(environment: environment, databasePath: common.databasePath))
            // The lock file guards one place; the claim guards the Bluetooth stack, whoever
            // started the other daemon (the service, or a user by hand).
            claim = try BusClaim.claim(BusClaim.name(busAddress: environment["DBUS_SYSTEM_BUS_ADDRESS"]))
        } catch {
            StandardError.writeLine("aquavate-bridge run: \(error)")
            throw ExitCode.failure
        }
        defer { withExtendedLifetime((lock, claim)) {} }
        if let squatted = claim.squatterWarning { logger.warning("\(squatted)") }
        // BlueZ's objects are read while the history opens (BlueZHeadStart says why).
        let bluez = BlueZHeadStart(bus: .system)
        let run: Result<DaemonOutcome, any Error>
        do {
            let history = try common.openHistory(path: common.databasePath)
            let configuration = try common.loadConfiguration(history: history, logger: logger)
            var options = DaemonOptions()
            // The command line wins over the settings (docs/design.md 3.2), which are honoured.
            options.adapter = adapter ?? configuration[Setting.bluetoothAdapter]
            options.once = once
            options.onceTimeout = once ? .milliseconds(Int64((timeout ?? 120) * 1000)) : nil
            options.recordPath = record
            // The bottle `setup` adopted (bottle.address), unless --bottle or --adopt says otherwise.
            options.bottleAddress = try Self.bottleAddress(bottle ?? (adopt ? nil : configuration[Setting.bottleAddress]), history: history)
            options.adoptAny = adopt
            options.cooldown = .milliseconds(Int64(cooldown * 1000))
            options.failedSessionPause = .milliseconds(Int64(failurePause * 1000))
            options.scanRefresh = .milliseconds(Int64(scanRefresh * 1000))
            options.source = "aquavate-bridge \(BridgeVersion.string)"
            options.bluezHeadStart = bluez
            var web: WebLaunch?
            do {
                if let address = try WebServer.address(option: http, configuration: configuration) {
                    try WebServer.checkAccess(address: address, token: configuration[Setting.webToken],
                                              publicName: configuration[Setting.webPublicName],
                                              behindProxy: configuration[Setting.webBehindProxy])
                    web = WebLaunch(address: address, base: try common.loadConfiguration(history: nil, logger: logger))
                }
            } catch let refused as WebStartRefused {
                throw CommandFailure(refused.description)
            }
            run = .success(try await Self.runDaemon(options: options, history: history, configuration: configuration,
                                                    logger: logger, web: web))
        } catch {
            run = .failure(error)
        }
        // Whatever happened: a client the daemon never took is closed.
        await bluez.discard()
        let outcome: DaemonOutcome
        do {
            outcome = try run.get()
        } catch let failure as CommandFailure {
            StandardError.writeLine("aquavate-bridge run: \(failure.description)")
            throw ExitCode.failure
        }
        switch outcome {
        case .succeeded(let summary):
            if once { print(summary) }
        case .failed(let reason):
            StandardError.writeLine("aquavate-bridge run: \(reason)")
            throw ExitCode.failure
        case .stopped:
            if once {
                StandardError.writeLine("aquavate-bridge run: stopped before the bottle was synced")
                throw ExitCode.failure
            }
        }
    }

    /// Where `run --http` serves, and the configuration it serves with.
    struct WebLaunch {
        var address: ListenAddress
        var base: Configuration

        /// The dashboard's address as a person opens it (Home Assistant's "Visit" link): the
        /// host name where it listens on every address; nil for port 0 (known only once bound).
        var dashboardURL: String? {
            guard address.port != 0 else { return nil }
            var host = address.host
            if host == "0.0.0.0" || host == "::" {
                host = ProcessInfo.processInfo.hostName
            } else if host.contains(":") {
                host = "[\(host)]"
            }
            return "http://\(host):\(address.port)/"
        }
    }

    /// `--bottle` (or `bottle.address`) as the address discovery matches: a serial the history
    /// knows becomes that bottle's address.
    static func bottleAddress(_ text: String?, history: DrinkHistory) throws -> String? {
        guard let text else { return nil }
        if let known = try? history.bottles.bottle(named: text), let address = known.address { return address }
        guard BottleIdentity.isSerial(text) else {
            throw CommandFailure("--bottle \(text) is neither a Bluetooth address (XX:XX:XX:XX:XX:XX) nor a bottle the history knows")
        }
        return text.uppercased()
    }

    /// The daemon and the reminder ticker in one service group, shut down gracefully on
    /// SIGTERM/SIGINT; with --once the group ends when the daemon does. Under systemd
    /// (NOTIFY_SOCKET) the watchdog service joins them: READY=1, STATUS=, STOPPING=1, and
    /// WATCHDOG=1 only while both loops make progress. `clock` is the system's except in the
    /// demo, whose day runs on a clock it steps.
    static func runDaemon(options: DaemonOptions, history: DrinkHistory, configuration: Configuration,
                          logger: Logger, desk givenDesk: ReminderDesk? = nil,
                          clock: any WallClock = SystemClock(), web: WebLaunch? = nil) async throws -> DaemonOutcome {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        let systemd = Systemd()
        let progress = systemd.isListening ? LoopProgress(onStatus: { systemd.status($0) }) : nil
        let daemonBeat = progress?.participant("daemon", patience: BridgeDaemon.watchdogPatience, reportsStatus: true)
        let reminderBeat = progress?.participant("reminders", patience: BridgeDaemon.watchdogPatience)
        let desk: ReminderDesk
        var household: HouseholdClaims?
        if let given = givenDesk {
            desk = given
        } else {
            // The sinks (journal, desktop, MQTT, push) of the configuration, for the daemon.
            let bottle = try? history.bottles.all().max { ($0.lastSeen ?? .epoch) < ($1.lastSeen ?? .epoch) }
            // Refused broker commands are counted in the history, for /metrics and doctor.
            let refusals = configuration[Setting.mqttURL] == nil ? CommandRefusals()
                : RefusedCommandLedger(commands: history.commands, clock: clock, logger: logger).refusals
            let hub = SinkHub(sinks: SinkSetup.sinks(configuration: configuration, bottle: bottle ?? options.bottleAddress.map {
                BottleRecord(id: $0, address: $0)
            }, dashboardURL: web?.dashboardURL, refusals: refusals, logger: logger), logger: logger)
            desk = ReminderDesk(history: history, configuration: configuration, logger: logger, hub: hub)
            services.append(.init(service: SinkService(hub: hub, desk: desk, clock: clock), serviceName: "sinks"))
            // Bridges sharing the broker form one household (docs/design.md 6).
            if configuration[Setting.mqttURL] != nil, HouseholdMembership.key(configuration) == nil {
                // Not believing the broker's other clients means no household without the key.
                logger.notice("\(HouseholdMembership.withoutKey)")
            }
            if let url = HouseholdMembership.brokerURL(configuration), let key = HouseholdMembership.key(configuration) {
                do {
                    let replication = try HouseholdReplication(
                        history: history, url: url, bridgeID: SinkSetup.bridgeID(configuration), key: key,
                        topicPrefix: configuration[Setting.mqttTopicPrefix], caFile: configuration[Setting.mqttCAFile],
                        clock: clock, logger: logger) { bottle in
                        Task { await desk.historyChangedElsewhere(bottle: bottle) }
                    }
                    await desk.whenDrinksStored { replication.kick() }
                    // A person is reminded once: by the bridge that last synced the bottle, or at a
                    // hand-over by one other (HouseholdClaims).
                    let claims = replication.claims
                    await desk.deliverOnlyWhere { key, reminder, later in
                        claims.shouldDeliver(bottle: key, address: try? history.bottles.bottle(id: key)?.address, id: reminder.id,
                                             kind: reminder.kind, time: reminder.time, later: later)
                    }
                    household = claims
                    services.append(.init(service: replication, serviceName: "household"))
                } catch {
                    logger.warning("the household link is not used: \(error)")
                }
            }
        }
        let daemon = BridgeDaemon(options: options, history: history, desk: desk, clock: clock, logger: logger,
                                  heartbeat: daemonBeat ?? .unobserved, household: household)
        if let web {
            // Beside the daemon, never in its way: its failure is logged and ignored.
            let context = WebContext(history: history, baseConfiguration: web.base, clock: clock, syncs: daemon.syncs) { bottle in
                Task { await desk.historyChangedElsewhere(bottle: bottle) }
            }
            do {
                let server = try WebServer(context: context, address: web.address, logger: logger)
                services.append(.init(service: server.serviceBesideDaemon(), successTerminationBehavior: .ignore,
                                      failureTerminationBehavior: .ignore, serviceName: "web"))
            } catch {
                logger.error("web: \(error.description); the daemon goes on without it")
            }
        }
        if let progress {
            services.append(.init(service: WatchdogService(progress: progress, manager: systemd, logger: logger), serviceName: "watchdog"))
        }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: daemon, successTerminationBehavior: .gracefullyShutdownGroup,
                      failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "daemon"),
                .init(service: ReminderTicker(desk: desk, clock: clock, heartbeat: reminderBeat ?? .unobserved), serviceName: "reminders"),
            ] + services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: Logger(label: "aquavate-bridge.lifecycle") { _ in SwiftLogNoOpLogHandler() }))
        try await group.run()
        return daemon.outcome
    }
}
