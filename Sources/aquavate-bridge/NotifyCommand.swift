// `aquavate-bridge notify test`: a test notification 5 s later through every enabled sink.

import ArgumentParser
import Daemon
import Delivery
import Foundation
import History
import Household
import Reminders
import Reminding
import Reports
import Settings
import Sinks
import Timekeeping

struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify",
        abstract: "Notification tools.",
        subcommands: [Test.self]
    )

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "test",
            abstract: "Send a test notification in 5 seconds through every enabled sink.",
            discussion: """
                The journal always gets it; the desktop, Home Assistant (mqtt.url) and the phone \
                (push.url) get it when configured. Each sink's result is printed: delivered, or \
                what went wrong and what to check. Exit status 1 when a configured sink did not \
                deliver within --wait seconds. With household.mqtt_username set (a broker that \
                allows a login one connection, docs/household.md) and `run` running on the same \
                history, Home Assistant is left to it: a connection of this command under \
                mqtt.url's login would close the running bridge's.
                """
        )

        @Option(help: ArgumentHelp("Seconds to wait for every sink after sending.", valueName: "S"))
        var wait: Double = 15

        @OptionGroup var common: CommonOptions

        func run() async throws {
            let logger = common.makeLogger()
            let history: DrinkHistory
            let configuration: Configuration
            do {
                history = try common.openHistory(path: common.databasePath)
                configuration = try common.loadConfiguration(history: history, logger: logger)
            } catch let failure as CommandFailure {
                StandardError.writeLine("aquavate-bridge notify test: \(failure.description)")
                throw ExitCode.failure
            }
            let bottle = try? history.bottles.all().max { ($0.lastSeen ?? .epoch) < ($1.lastSeen ?? .epoch) }
            var sinks = SinkSetup.sinks(configuration: configuration, bottle: bottle, role: .visitor(command: "notify"), logger: logger)
            // A running daemon holds mqtt.url's login, which the broker of two logins per bridge
            // lets have one connection: this command's own would close the daemon's, and Home
            // Assistant would see the bridge offline meanwhile.
            if HouseholdMembership.loginsHoldOneConnection(configuration), let daemon = common.runningBridge(),
               sinks.contains(where: { $0 is MQTTSink }) {
                sinks.removeAll { $0 is MQTTSink }
                print("mqtt: not tried from here: the running bridge (PID \(daemon)) holds mqtt.url's connection, and Home Assistant shows it "
                      + "(the bridge's availability); its reminders go that way")
            }
            let hub = SinkHub(sinks: sinks, logger: logger)
            await hub.start()
            var deliveries: [Delivery] = []
            let runner = ReminderRunner(history: history, settings: configuration.effective(for: bottle).hydrationSettings(bottleGoal: bottle?.goalML),
                                        logger: logger) { deliveries.append($0) }
            let clock = SystemClock()
            guard runner.scheduleTestNotification(at: clock.now) else {
                StandardError.writeLine("aquavate-bridge notify test: not scheduled (notifications.enabled is false, or 64 notifications are pending)")
                await hub.stop()
                throw ExitCode.failure
            }
            print("test notification in 5 s through: \(hub.sinkNames.joined(separator: ", "))")
            try await clock.sleep(for: .seconds(5))
            runner.fireDue(at: clock.now)
            for delivery in deliveries {
                hub.deliver(SinkSetup.notification(delivery))
            }
            let deadline = clock.now + .seconds(wait)
            var statuses = hub.status()
            while clock.now < deadline, statuses.contains(where: { $0.delivered + $0.rejected < deliveries.count }) {
                try await clock.sleep(for: .milliseconds(100))
                statuses = hub.status()
            }
            await hub.stop()
            var failed = false
            for status in statuses {
                if status.delivered >= deliveries.count {
                    print("\(status.sink): delivered")
                } else {
                    failed = true
                    print("\(status.sink): NOT delivered: \(status.lastProblem ?? "no answer within \(Int(wait)) s")")
                }
            }
            if failed || deliveries.isEmpty { throw ExitCode.failure }
        }
    }
}
