// `aquavate-bridge demo`: the whole bridge against a simulated bottle, on a private D-Bus bus —
// no hardware, no root (docs/design.md 3.1).

import AquavateProtocol
import ArgumentParser
import BottleSimulator
import DBus
import Daemon
import Delivery
import Foundation
import History
import HostClock
import Locking
import Logging
import Reminders
import Reports
import Settings
import Sinks
import Timekeeping
import Web

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "A simulated day with the bridge: a bottle synced over a private D-Bus bus, the reminders, the history.",
        discussion: """
            Starts a dbus-daemon of its own (no system bus, no root, no Bluetooth hardware), a \
            simulated Aquavate bottle on it (the BottleSimulator, faithful to BlueZ and to the \
            bottle's firmware), and tells one day, 2026-11-20 in the configured time zone, on an \
            accelerated clock (a few seconds of wall time, the same output every run):

            07:30 the bridge's daemon syncs the bottle over Bluetooth (yesterday's drinks); no \
            drink all morning, so the person falls behind pace and gets hydration reminders \
            (`Reminders Today: 2/12`); at noon a drink, synced, and the "Back On Track!" alert; \
            12:30 a scheduled intake reminder (Vitamin D, daily); the afternoon's drinks are \
            synced at 18:30, the goal reached (2500 ml for the story). Then the bottle as the \
            bridge read it and the history, in local time.

            The story's reminder settings are fixed (a goal of 2500 ml, the default pace window); \
            --set timezone=ZONE chooses the zone it happens in. The history is kept in memory \
            unless --db is given (then the simulated drinks are stored there like a real \
            bottle's). --fault injects the simulator's faults (see `aquavate-sim --help`), to \
            watch the bridge survive them.

            With --mqtt URL (or the setting mqtt.url) the demo's bridge publishes to that broker \
            as the daemon does: the simulated bottle appears in Home Assistant (as bridge `demo` \
            unless bridge.id is set), its entities changing as the story goes (the story waits \
            3 s after each sync, so that Home Assistant, and whoever watches it, can follow), and \
            Home Assistant's controls reach the simulated bottle at its next sync.

            With --serve the demo's history stays served afterwards, the dashboard, JSON API and \
            metrics of `serve` at the end of the story's day, until Ctrl-C (on --http [ADDR:]PORT, \
            default 127.0.0.1:8080).
            """
    )

    @Option(help: ArgumentHelp("Drinks the simulated bottle holds from before the day, 45 minutes apart, the last at 21:00 the evening before.", valueName: "N"))
    var records = 12

    @Option(name: .customLong("fault"), help: ArgumentHelp("A simulator fault, e.g. drop-after-chunk=0 (repeatable).", valueName: "NAME[=ARG]"))
    var faults: [String] = []

    @Flag(help: "After the story, serve its history on the web (dashboard, JSON API, metrics) until Ctrl-C.")
    var serve = false

    @Option(help: ArgumentHelp("With --serve: listen on [ADDR:]PORT (default 127.0.0.1:8080).", valueName: "[ADDR:]PORT"))
    var http: String?

    @Option(help: ArgumentHelp("Publish the story to this MQTT broker for Home Assistant (default: mqtt.url; none when unset).",
                               valueName: "URL"))
    var mqtt: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if http != nil && !serve { throw ValidationError("--http only applies with --serve") }
        if !(0...600).contains(records) { throw ValidationError("--records must be 0 to 600 (the bottle's ring)") }
        for fault in faults {
            do { _ = try SimulatorFault(parsing: fault) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        let logger = common.makeLogger()
        do {
            let bus = try await PrivateDBusDaemon.start()
            let served: WebContext
            do {
                served = try await demo(on: bus, logger: logger)
                await bus.stop()
            } catch {
                await bus.stop()
                throw error
            }
            if serve {
                let address: ListenAddress
                do {
                    address = try WebServer.address(option: http, configuration: served.baseConfiguration) ?? ListenAddress(port: 8080)
                } catch {
                    throw CommandFailure(error.description)
                }
                try await WebServing.serveUntilSignal(context: served, address: address, logger: logger, command: "demo")
            }
        } catch let failure as CommandFailure {
            StandardError.writeLine("aquavate-bridge demo: \(failure.description)")
            throw ExitCode.failure
        } catch let error as ExitCode {
            throw error
        } catch {
            StandardError.writeLine("aquavate-bridge demo: \(error)")
            throw ExitCode.failure
        }
    }

    /// The simulated bottle on `bus`, the day's steps on the demo's clock (the reminder engine
    /// ticking every minute between them, the daemon syncing the bottle at each sync step), then
    /// the bottle and the history.
    /// Returns what `--serve` serves: the story's history and settings, at its end.
    private func demo(on bus: PrivateDBusDaemon, logger: Logger) async throws -> WebContext {
        let history = try common.openHistory(path: common.db)
        var configuration = try common.loadConfiguration(history: common.db == nil ? nil : history, logger: logger)
        for setting in DemoDay.settings { try configuration.applyOverride(setting) }
        configuration.useSchedules([DemoDay.schedule])
        let timeZone = configuration.timeZone
        @Sendable func local(_ instant: WallInstant) -> String { LocalTimeText.format(instant, in: timeZone) }

        let backlogEnd = DemoDay.instant(hour: DemoDay.backlogEnd.hour, minute: DemoDay.backlogEnd.minute, in: timeZone)
        let dayStart = DemoDay.instant(hour: 7, minute: 0, in: timeZone)
        let clock = DemoClock(dayStart)
        // The generated drinks end a minute before `now`.
        let simulatorConfiguration = SimulatorConfiguration(
            records: records, faults: try faults.map { try SimulatorFault(parsing: $0) }, now: backlogEnd + .seconds(60)
        ).withTestTimings()
        let simulator = try await BottleSimulator.start(bus: .address(bus.address), configuration: simulatorConfiguration, clock: clock)
        StandardOutput.writeLine("demo: private D-Bus bus \(bus.address)")
        StandardOutput.writeLine("demo: simulated bottle \(simulatorConfiguration.effectiveName) at \(simulatorConfiguration.address) holding \(records) drink(s) from before \(DemoDay.date)")
        StandardOutput.writeLine("demo: the day of \(DemoDay.date) in \(timeZone.identifier) on an accelerated clock; goal 2500 ml, pace window 07:00-22:00")

        var options = DaemonOptions()
        options.bus = .address(bus.address)
        options.once = true
        options.onceTimeout = .seconds(30)
        options.adoptAny = true
        options.onceRetries = 5  // with --fault, show the bridge coming back
        options.failedSessionPause = .milliseconds(300)
        options.source = "aquavate-bridge \(BridgeVersion.string) demo"
        // The story runs on its own clock, not this machine's: whether the host is NTP-synchronised
        // says nothing about it, and the simulated bottle is given the story's time.
        options.clockSync = FixedClockSync(.synchronised)
        var policy = options.connectPolicy
        policy.disconnectTimeout = .seconds(3)
        options.connectPolicy = policy
        let delivered = Locked(0)
        let hub = try await mqttHub(&configuration, logger: logger)
        let desk = ReminderDesk(history: history, configuration: configuration, logger: logger, hub: hub) { delivery in
            delivered.withLock { $0 += 1 }
            StandardOutput.writeLine("\(local(delivery.time))  notification [\(delivery.kind.rawValue)] \(delivery.title): \(delivery.body)")
        }
        // Home Assistant's controls, on the story's clock: queued for the bottle's next sync.
        let commands = hub.map { hub in
            Task { for await command in hub.commands { await desk.handle(command, at: clock.now) } }
        }
        defer { commands?.cancel() }
        // Published live, the story pauses after each sync (and before the first): a Home
        // Assistant first has to subscribe to the new device's topics, and a person watching it
        // has to see each step. Unpaced, the day took 4 s and Home Assistant showed 0 then 900 ml
        // of the story's 0, 900 and 2550 (the last state went out with the demo's goodbye).
        let pause = hub == nil ? 0 : Self.mqttPause
        try await clock.sleep(for: pause)
        var ticked = dayStart - .seconds(60)
        do {
            for (hour, minute, step) in DemoDay.steps {
                let instant = DemoDay.instant(hour: hour, minute: minute, in: timeZone)
                // The reminder ticker's work, a minute at a time, up to this step.
                while ticked + .seconds(60) <= instant {
                    ticked += .seconds(60)
                    clock.set(ticked)
                    await desk.advance(to: ticked)
                }
                clock.set(instant)
                switch step {
                case .drink(let amount):
                    simulator.addDrink(amountML: amount)
                    StandardOutput.writeLine("\(local(instant))  the person drinks \(amount) ml (kept in the bottle until the next sync)")
                case .sync(let what):
                    let status = await desk.status(at: instant)
                    StandardOutput.writeLine("\(local(instant))  \(status.urgencyText), deficit \(status.displayedDeficitML) ml, \(status.remindersTodayText)")
                    StandardOutput.writeLine("\(local(instant))  \(what)")
                    try await sync(options: options, history: history, configuration: configuration, logger: logger,
                                   desk: desk, clock: clock, simulator: simulator)
                    let after = await desk.status(at: instant)
                    StandardOutput.writeLine("\(local(instant))  today \(after.pace.dayTotalML) ml of 2500 ml: \(after.urgencyText), "
                          + "deficit \(after.displayedDeficitML) ml, \(after.remindersTodayText)")
                    try await clock.sleep(for: pause)
                }
            }
        } catch {
            await simulator.stop()
            await hub?.stop()
            throw error
        }
        await simulator.stop()
        if let hub {
            await hub.stop()
            StandardOutput.writeLine("demo: published to \(hub.sinkNames.joined(separator: ", ")); the device stays in Home Assistant, offline")
        }
        let end = clock.now
        let status = await desk.status(at: end)
        StandardOutput.writeLine("demo: end of the story at \(local(end)): \(status.urgencyText), today \(status.pace.dayTotalML) ml, "
              + "\(status.remindersTodayText), \(delivered.withLock { $0 }) notification(s) sent during the demo")
        StandardOutput.writeLine("demo: the bottle, as its connection read it (aquavate-bridge bottle info)")
        for bottle in try history.bottles.all() {
            StandardOutput.writeLine(BottleInfo.text(BottleInfo.event(bottle, pending: []), state: bottle.state, timeZone: timeZone))
        }
        StandardOutput.writeLine("demo: the history (aquavate-bridge history)")
        let report = try HistoryReport.make(history: history, configuration: configuration, days: nil, now: end)
        for line in report.lines(format: .text) { StandardOutput.writeLine(line) }
        return WebContext(history: history, baseConfiguration: configuration, clock: ManualClock(end))
    }

    /// Seconds of real time the story waits after each sync when it is published (see `demo(on:)`).
    static let mqttPause = 3.0

    /// The MQTT sink of `--mqtt` or `mqtt.url`, started (nil when neither is given). The demo is
    /// a bridge of its own on the broker: `bridge.id` is `demo` unless set, so a daemon running
    /// on the same machine keeps its own availability and device.
    private func mqttHub(_ configuration: inout Configuration, logger: Logger) async throws -> SinkHub? {
        do {
            if let mqtt { try configuration.applyOverride("\(Setting.mqttURL.name)=\(mqtt)") }
            guard let url = configuration[Setting.mqttURL] else { return nil }
            if configuration[Setting.bridgeID] == nil { try configuration.applyOverride("\(Setting.bridgeID.name)=demo") }
            let sinks = SinkSetup.sinks(configuration: configuration, bottle: nil, logger: logger).filter { $0.name == "mqtt" }
            guard !sinks.isEmpty else { throw CommandFailure("MQTT \(Redaction.url(url)) is not usable (the line above says why)") }
            let hub = SinkHub(sinks: sinks, logger: logger)
            await hub.start()
            StandardOutput.writeLine("demo: publishing to MQTT \(Redaction.url(url)) as bridge \(configuration[Setting.bridgeID] ?? "demo")")
            return hub
        } catch let error as SettingError {
            throw CommandFailure(error.description)
        }
    }

    /// One run of the daemon until the bottle is synced, on the demo's clock.
    private func sync(options: DaemonOptions, history: DrinkHistory, configuration: Configuration, logger: Logger,
                      desk: ReminderDesk, clock: DemoClock, simulator: BottleSimulator) async throws {
        let outcome = try await RunCommand.runDaemon(
            options: options, history: history, configuration: configuration, logger: logger, desk: desk, clock: clock)
        let left = simulator.model.unsyncedCount
        switch outcome {
        case .succeeded(let summary):
            StandardOutput.writeLine("demo: \(summary); the bottle has \(left) unsynced record(s) left")
        case .failed(let reason):
            throw CommandFailure(reason)
        case .stopped:
            throw CommandFailure("stopped before the bottle was synced")
        }
    }
}
