// `aquavate-bridge bottle …`: control the bottle as its phone app does (docs/design.md 3.5).
//
// Every subcommand but `calibrate` only writes to the durable queue in the history: `run` (the
// service) or `run --once` applies it at the bottle's next connection, after the sync, and
// reports the result as a `command` event. A bad value is refused at once (exit 2) with the
// valid range, and nothing is queued.

import AquavateProtocol
import ArgumentParser
import Daemon
import Delivery
import Foundation
import History
import Household
import Reminders
import Reports
import Settings
import Sinks
import Timekeeping

struct BottleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bottle",
        abstract: "Control the bottle: goal, delete a drink, tare, shake-to-empty, activity, calibration.",
        discussion: """
            Commands are kept in the history database and applied by `run` (or `run --once`) at \
            the bottle's next connection, after its drinks are synced; they survive restarts, and \
            a newer goal replaces a pending one. `bottle info` and `status` list what is pending; \
            the result of each is logged and published as a `command` event (pending, applied, \
            failed with the reason). A command the bottle did not take stays visible as failed.

            `bottle calibrate` is the exception: it runs live, with a person at the bottle. \
            `bottle restore` and `bottle discard` act on the history at once: they resolve a \
            quarantined record (`history --quarantined`), a record the bottle sent that cannot \
            be a drink.

            --bottle picks the bottle (address or serial) where more than one is adopted.
            """,
        subcommands: [BottleInfoCommand.self, BottleGoalCommand.self, BottleDeleteCommand.self, BottleTareCommand.self,
                      BottleShakeCommand.self, BottleActivityCommand.self, BottleCalibrateCommand.self, BottleForgetCommand.self,
                      BottleRestoreCommand.self, BottleDiscardCommand.self]
    )
}

/// `--bottle`, and the history every subcommand opens.
struct BottleOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The bottle, by address or serial (needed only where several are adopted).", valueName: "ADDRESS|SERIAL"))
    var bottle: String?

    @OptionGroup var common: CommonOptions

    /// The history, the person's time zone, and the bottle `--bottle` names (nil: every bottle).
    func open() throws -> (history: DrinkHistory, timeZone: TimeZone, bottle: BottleRecord?) {
        let history = try common.openHistory(path: common.databasePath)
        let timeZone = try common.loadConfiguration(history: history, logger: common.makeLogger()).timeZone
        guard let name = bottle else { return (history, timeZone, nil) }
        do {
            return (history, timeZone, try BottleControl(history: history).bottle(named: name))
        } catch let refusal as BottleRequestRefused {
            throw CommandFailure(refusal.description)
        }
    }
}

/// Exit 2: the request itself was wrong (a value out of range, an unknown drink).
private func refused(_ command: String, _ refusal: BottleRequestRefused) -> ExitCode {
    StandardError.writeLine("aquavate-bridge bottle \(command): \(refusal.description)")
    return ExitCode(2)
}

/// Queues one request and prints its `command` event (text or JSON).
private func queue(_ request: BottleRequest, name: String, options: BottleOptions, json: Bool = false) throws {
    let history: DrinkHistory
    do {
        history = try options.common.openHistory(path: options.common.databasePath)
    } catch let failure as CommandFailure {
        StandardError.writeLine("aquavate-bridge bottle \(name): \(failure.description)")
        throw ExitCode.failure
    }
    let now = SystemClock().now
    do {
        let timeZone = try options.common.loadConfiguration(history: history, logger: options.common.makeLogger()).timeZone
        let (command, drink) = try BottleControl(history: history).queue(request, bottle: options.bottle, at: now)
        if let drink {
            let event = BottleInfo.drinkEvent(drink)
            print(json ? event.jsonLine() : event.textLine(novelty: false, timeZone: timeZone))
        }
        // A drink added by hand is deleted in the history only: there is no command to show.
        guard let command else { return }
        let event = BridgeEvent.command(.init(command))
        print(json ? event.jsonLine() : event.textLine(timeZone: timeZone) + " (applied at the bottle's next connection)")
    } catch let refusal as BottleRequestRefused {
        throw refused(name, refusal)
    } catch {
        StandardError.writeLine("aquavate-bridge bottle \(name): \(error)")
        throw ExitCode.failure
    }
}

struct BottleInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Each adopted bottle as of its last connection, and its pending commands.",
        discussion: """
            Name, address, serial (Device Information 0x2A25), firmware (0x2A26), model, goal, \
            battery, calibration and scale, shake-to-empty, last seen, last sync, unsynced \
            records, the bottle clock's offset at the last connection, and the commands still \
            pending. --json prints one `bottle` event per bottle (docs/design.md 3.5).
            """)

    @Flag(help: "One JSON `bottle` event per bottle.")
    var json = false

    @OptionGroup var options: BottleOptions

    func run() throws {
        try reportingFailures("bottle info") {
            let (history, timeZone, named) = try options.open()
            let bottles = try named.map { [$0] } ?? history.bottles.all()
            if bottles.isEmpty && !json {
                print("no bottle adopted yet: run 'aquavate-bridge run --once' near the bottle")
            }
            for bottle in bottles {
                let pending = try history.commands.all(bottle: bottle.id, statuses: [.pending, .sending]).map(BridgeEvent.CommandEvent.init)
                let event = BottleInfo.event(bottle, pending: pending)
                if json {
                    print(BridgeEvent.bottle(event).jsonLine())
                } else {
                    print(BottleInfo.text(event, state: bottle.state, timeZone: timeZone))
                }
            }
        }
    }
}

struct BottleGoalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goal", abstract: "Set the goal the bottle shows on its display (\(BottleGoal.rangeText)).",
        discussion: """
            Written to Bottle Config at the next connection (read, then written back with the same \
            calibration, as the phone app does) and read back to check. The person's daily goal, \
            which the reminders, the page and Home Assistant measure against, is the daily_goal_ml \
            setting (\(DailyGoal.rangeText)); without one it is the bottle's goal.
            """)

    @Argument(help: ArgumentHelp("The goal in millilitres, \(BottleGoal.rangeML.lowerBound) to \(BottleGoal.rangeML.upperBound), \(BottleGoal.stepText).", valueName: "ML"))
    var millilitres: Int

    @Flag(help: "Print the `command` event as JSON.")
    var json = false

    @OptionGroup var options: BottleOptions

    func run() throws { try queue(.goal(millilitres), name: "goal", options: options, json: json) }
}

struct BottleDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a drink logged by mistake.",
        discussion: """
            At once in the history (the drink stops counting; a `drink` event with deleted: true), \
            and on the bottle at its next connection (DELETE_DRINK_RECORD). RECORD_ID is the id \
            `history` shows; an id the history does not have is refused (exit 2).
            """)

    @Argument(help: ArgumentHelp("The drink's record id (as `history` shows it).", valueName: "RECORD_ID"))
    var recordID: Int

    @Flag(help: "Print the events as JSON.")
    var json = false

    @OptionGroup var options: BottleOptions

    func run() throws { try queue(.delete(recordID: recordID), name: "delete", options: options, json: json) }
}

struct BottleTareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tare", abstract: "Make what is in the bottle now count as empty (TARE_NOW).",
        discussion: """
            Applied once at the next connection, never twice (a second tare would zero what was \
            poured since): if the link drops while it is sent, it is reported failed rather than \
            repeated. An uncalibrated bottle ignores it: calibrate first.
            """)

    @Flag(help: "Print the `command` event as JSON.")
    var json = false

    @OptionGroup var options: BottleOptions

    func run() throws { try queue(.tare, name: "tare", options: options, json: json) }
}

struct BottleShakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shake-to-empty", abstract: "Switch the shake-to-empty gesture on or off (Device Settings).")

    enum Switch: String, ExpressibleByArgument, CaseIterable { case on, off }

    @Argument(help: ArgumentHelp("on or off."))
    var state: Switch

    @Flag(help: "Print the `command` event as JSON.")
    var json = false

    @OptionGroup var options: BottleOptions

    func run() throws { try queue(.shakeToEmpty(state == .on), name: "shake-to-empty", options: options, json: json) }
}

struct BottleActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity", abstract: "The wake-ups and backpack sessions the bottle reported.",
        discussion: """
            Fetched after each sync (docs/protocol.md 6.6) and kept in the history. Times are the \
            bottle's (UTC unless its clock has an offset, see `bottle info`).
            """)

    @Flag(help: "One JSON object per line (`motion` and `backpack` events).")
    var json = false

    @OptionGroup var options: BottleOptions

    func run() throws {
        try reportingFailures("bottle activity") {
            let (history, timeZone, named) = try options.open()
            for line in try BottleInfo.activityLines(bottles: history.bottles, bottle: named?.id, json: json, timeZone: timeZone) { print(line) }
        }
    }
}

struct BottleForgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Stop adopting a bottle; its history stays.",
        discussion: """
            The bottle's record goes and its pending commands fail; its drinks and activity stay. \
            A running `run` reads it at its next cycle: from then on it neither syncs the bottle nor \
            reminds its person. In a household \
            (`mqtt.url` set), this bridge's retained `reminds` entry for the bottle is withdrawn \
            from the broker, so no other bridge hands the bottle's reminders over to this one: by \
            the running `run` through its own connection, within 10 s, or when none runs by this \
            command; a broker that cannot be reached is said in one line, and the bottle is \
            forgotten anyway.
            """)

    @Argument(help: ArgumentHelp("The bottle's address or serial.", valueName: "ADDRESS|SERIAL"))
    var bottle: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let history: DrinkHistory
        let configuration: Configuration
        do {
            history = try common.openHistory(path: common.databasePath)
            configuration = try common.loadConfiguration(history: history, logger: common.makeLogger())
        } catch let failure as CommandFailure {
            StandardError.writeLine("aquavate-bridge bottle forget: \(failure.description)")
            throw ExitCode.failure
        }
        guard let known = try? history.bottles.bottle(named: bottle) else {
            throw refused("forget", BottleRequestRefused(description: "no bottle \(bottle) is known: 'aquavate-bridge bottle info' lists them"))
        }
        try reportingFailures("bottle forget") {
            do {
                try history.bottles.forget(id: known.id, at: SystemClock().now)
            } catch {
                throw CommandFailure("\(error)")
            }
            print("forgot \(known.name ?? known.id) (\(known.serial ?? known.address ?? known.id)); its \(try history.drinks.drinkCount(bottle: known.id)) drink(s) stay in the history")
        }
        // A household: this bridge no longer runs the bottle's reminders (docs/design.md 6).
        // Under the household's login: the reminds topics are the household link's to write.
        guard let url = HouseholdMembership.brokerURL(configuration), let key = HouseholdMembership.key(configuration) else { return }
        let bridgeID = SinkSetup.bridgeID(configuration)
        // A running daemon holds the household's login, which a broker with
        // use_username_as_clientid lets have one connection: it withdraws the entry itself.
        if let daemon = common.runningBridge() {
            print("the running bridge (PID \(daemon)) withdraws \(bridgeID)'s reminds entry for it from the household within 10 s, through its own connection")
            return
        }
        let boot: UInt64
        do {
            boot = try HouseholdMembership.nextBoot(history, now: SystemClock().now)
        } catch {
            StandardError.writeLine("aquavate-bridge bottle forget: the household's reminds entry of \(bridgeID) was not withdrawn: \(error)")
            return
        }
        if let problem = await HouseholdWithdrawal.reminds(
            url: url, bridgeID: bridgeID, key: key, boot: boot, keys: [known.id, known.serial, known.address].compactMap { $0 },
            topicPrefix: configuration[Setting.mqttTopicPrefix], caFile: configuration[Setting.mqttCAFile],
            timeout: .seconds(5)) {
            StandardError.writeLine("aquavate-bridge bottle forget: the household's reminds entry of \(bridgeID) was not withdrawn: \(problem)")
        } else {
            print("the household no longer counts \(bridgeID) among the bridges that remind for it")
        }
    }
}
