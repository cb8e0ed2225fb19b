// `aquavate-bridge demo`: the whole bridge against a simulated bottle, on a private D-Bus bus —
// no hardware, no root (docs/design.md 3.1).

import AquavateProtocol
import ArgumentParser
import Bridge
import BottleSimulator
import DBus
import Foundation
import History
import Logging
import Reminders
import Locking
import Timekeeping

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Sync a simulated bottle with a day of drinks on a private D-Bus bus, then show the history.",
        discussion: """
            Starts a dbus-daemon of its own (no system bus, no root, no Bluetooth hardware), a \
            simulated Aquavate bottle on it (the BottleSimulator, faithful to BlueZ and to the \
            bottle's firmware), and the bridge's daemon against it for one sync, with the \
            reminder engine. Prints the notifications it sends, the sync, then the history.

            The history is kept in memory unless --db is given (then the simulated bottle's \
            drinks are stored there like a real bottle's). --fault injects the simulator's \
            faults (see `aquavate-sim --help`), to watch the bridge survive them.
            """
    )

    @Option(help: ArgumentHelp("Drinks the simulated bottle holds, 45 minutes apart, ending now.", valueName: "N"))
    var records = 12

    @Option(name: .customLong("fault"), help: ArgumentHelp("A simulator fault, e.g. drop-after-chunk=0 (repeatable).", valueName: "NAME[=ARG]"))
    var faults: [String] = []

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if !(0...600).contains(records) { throw ValidationError("--records must be 0 to 600 (the bottle's ring)") }
        for fault in faults {
            do { _ = try SimulatorFault(parsing: fault) } catch { throw ValidationError(error.description) }
        }
    }

    func run() async throws {
        let logger = common.makeLogger()
        do {
            let bus = try await PrivateDBusDaemon.start()
            do {
                try await demo(on: bus, logger: logger)
                await bus.stop()
            } catch {
                await bus.stop()
                throw error
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

    /// The simulated bottle on `bus`, the bridge syncing it once with reminders, then the history.
    private func demo(on bus: PrivateDBusDaemon, logger: Logger) async throws {
        let simulatorConfiguration = SimulatorConfiguration(
            records: records, faults: try faults.map { try SimulatorFault(parsing: $0) }, now: SystemClock().now
        ).withTestTimings()
        let simulator = try await BottleSimulator.start(bus: .address(bus.address), configuration: simulatorConfiguration)
        print("demo: private D-Bus bus \(bus.address)")
        print("demo: simulated bottle \(simulatorConfiguration.effectiveName) (\(simulatorConfiguration.address)) holding \(records) drink(s)")

        let history = try common.openHistory(path: common.db)
        let configuration = try common.loadConfiguration(history: common.db == nil ? nil : history, logger: logger)
        var options = DaemonOptions()
        options.bus = .address(bus.address)
        options.once = true
        options.onceTimeout = .seconds(30)
        options.adoptAny = true
        options.onceRetries = 5  // with --fault, show the bridge coming back
        options.failedSessionPause = .milliseconds(300)
        options.source = "aquavate-bridge \(BridgeVersion.string) demo"
        var policy = options.connectPolicy
        policy.disconnectTimeout = .seconds(3)
        options.connectPolicy = policy
        let delivered = Locked(0)
        let desk = ReminderDesk(history: history, configuration: configuration, logger: logger) { delivery in
            delivered.withLock { $0 += 1 }
            print("notification [\(delivery.kind.rawValue)] \(delivery.title): \(delivery.body)")
        }
        let outcome = try await RunCommand.runDaemon(
            options: options, history: history, configuration: configuration, logger: logger, desk: desk)
        let left = simulator.model.unsyncedCount
        await simulator.stop()
        switch outcome {
        case .succeeded(let summary):
            print("demo: \(summary); the bottle has \(left) unsynced record(s) left")
        case .failed(let reason):
            throw CommandFailure(reason)
        case .stopped:
            throw CommandFailure("stopped before the bottle was synced")
        }
        let status = await desk.status(at: SystemClock().now)
        print("demo: reminders: \(status.urgencyText), deficit \(status.displayedDeficitML) ml, "
              + "\(status.remindersTodayText), \(delivered.withLock { $0 }) notification(s) sent during the demo")
        print("demo: the bottle, as its connection read it (aquavate-bridge bottle info)")
        for bottle in try history.bottles() {
            print(BottleInfo.text(BottleInfo.event(bottle, pending: []), state: bottle.state))
        }
        print("demo: the history")
        let report = try HistoryReport.make(history: history, configuration: configuration, days: nil,
                                            now: SystemClock().now)
        for line in report.lines(format: .text) { print(line) }
    }
}
