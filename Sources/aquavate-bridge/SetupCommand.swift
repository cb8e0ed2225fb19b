// `aquavate-bridge setup`: the first run (docs/design.md 3.1). Asks the few things a person must
// decide (the bottle, the time zone, the MQTT broker, the goal), or takes them as options, and
// writes them into the config file.

import AquavateProtocol
import ArgumentParser
import BlueZ
import Diagnostics
import Foundation
import Reminders
import Reports
import Settings
import Sinks

struct SetupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "First run: adopt a bottle, choose the time zone, the MQTT broker and the goal; write the config.",
        discussion: """
            Asks four questions, each with its current answer in brackets (an empty line keeps \
            it), then writes the answers into the config file.

            The bottle: setup scans for --scan-timeout seconds and lists the Aquavate bottles it \
            sees (pick the bottle up to wake it); the one chosen becomes bottle.address, and `run` \
            then syncs only that bottle. Skip it, and `run` adopts the first bottle it sees.

            The time zone: the IANA name the day totals and reminders use (timezone), e.g. \
            Europe/Madrid; the system's by default.

            The MQTT broker for Home Assistant (mqtt.url), e.g. mqtt://homeassistant.local:1883, \
            or none. setup checks that it accepts connections and says so; an unreachable broker \
            is still written (it may be down for now).

            The person's daily goal in ml (daily_goal_ml, \(DailyGoal.rangeText)): what the reminders, \
            the page and Home Assistant measure the day against. The bottle's display keeps its \
            own goal (\(BottleGoal.rangeText), `bottle goal`); the page's goal form sets both.

            With a broker and no household.key yet: the key of another bridge's household (from \
            its `household create`, or --household-key KEY), or none, and setup makes a new one \
            and prints how the other bridges join (docs/household.md).

            Every answer can be given as an option instead; with --yes nothing is asked at all, \
            the options given are written and everything else is left as it is, so \
            `setup --yes --bottle F4:12:FA:00:A3:F4 --timezone Europe/Madrid` is a complete \
            first run for a script.

            FILES

            The config file is --config FILE, else $XDG_CONFIG_HOME/aquavate/bridge.toml. The \
            service reads /etc/aquavate/bridge.toml: sudo aquavate-bridge setup --config \
            /etc/aquavate/bridge.toml. Other keys and [[schedule]] tables in the file are kept; \
            its comments are not (the file is rewritten from its TOML). Its owner and mode are \
            kept. Settings saved with `config set` live in the database and still override the \
            file; `config list` shows where each value comes from.

            EXIT STATUS

            0 written; 1 the file could not be read or written, or the scan failed; 2 a bad \
            value in an option (one line names it and the valid choices; nothing is written).
            """
    )

    @Option(help: ArgumentHelp("Adopt this bottle (its Bluetooth address) instead of scanning.", valueName: "ADDRESS"))
    var bottle: String?

    @Option(help: ArgumentHelp("Time zone, e.g. Europe/Madrid.", valueName: "ZONE"))
    var timezone: String?

    @Option(help: ArgumentHelp("MQTT broker, e.g. mqtt://homeassistant.local:1883.", valueName: "URL"))
    var mqtt: String?

    @Option(help: ArgumentHelp("The person's daily goal in ml, \(DailyGoal.rangeML.lowerBound) to \(DailyGoal.rangeML.upperBound).", valueName: "ML"))
    var goal: String?

    @Option(help: ArgumentHelp("Join the household whose key this is (another bridge's `household create`).", valueName: "KEY"))
    var householdKey: String?

    @Flag(name: .shortAndLong, help: "Ask nothing: write the options given and keep everything else.")
    var yes = false

    @Option(help: ArgumentHelp("Seconds to scan for bottles.", valueName: "S"))
    var scanTimeout: Double = 10

    @Option(help: ArgumentHelp("Bluetooth adapter to scan with (default: the first powered one).", valueName: "hciN"))
    var adapter: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        // Bad options first: nothing is asked, scanned or written.
        var answers = SetupAnswers()
        do throws(SetupAnswers.BadValue) {
            if let bottle { answers.bottle = try SetupAnswers.bottleAddress(bottle) }
            if let timezone { answers.timezone = try SetupAnswers.check(Setting.timezone.name, timezone, option: "--timezone") }
            if let mqtt { answers.mqtt = try SetupAnswers.check(Setting.mqttURL.name, mqtt, option: "--mqtt") }
            if let goal { answers.goal = try SetupAnswers.check(Setting.dailyGoalML.name, goal, option: "--goal") }
            if let householdKey {
                guard HouseholdKey.isValid(householdKey) else {
                    throw SetupAnswers.BadValue("--household-key: not a household key (base64 of 32 bytes, as `household create` prints it)")
                }
                answers.householdKey = householdKey
            }
            guard scanTimeout > 0, scanTimeout <= 120 else {
                throw SetupAnswers.BadValue("--scan-timeout \(scanTimeout): a number of seconds from 0 to 120")
            }
        } catch {
            StandardError.writeLine("aquavate-bridge setup: \(error.description)")
            throw ExitCode(2)
        }

        let path = common.config ?? BridgePaths.defaultConfigFile()
        let current: Configuration
        do {
            current = try Configuration.load(file: path, mustExist: false)
        } catch {
            StandardError.writeLine("aquavate-bridge setup: \(error.description)")
            throw ExitCode.failure
        }
        let console = SetupConsole()
        if !yes {
            console.say("Setting up aquavate-bridge in \(path) (an empty answer keeps the one in brackets).")
            if answers.bottle == nil { answers.bottle = try await askBottle(console, current: current[Setting.bottleAddress]) }
            if answers.timezone == nil {
                answers.timezone = ask(console, "Time zone", key: Setting.timezone.name,
                                       current: current.timeZone.identifier)
            }
            if answers.mqtt == nil {
                answers.mqtt = ask(console, "MQTT broker for Home Assistant (none: leave empty)", key: Setting.mqttURL.name,
                                   current: current[Setting.mqttURL])
            }
            if answers.goal == nil {
                answers.goal = ask(console, "Daily goal in ml", key: Setting.dailyGoalML.name,
                                   current: String(current.dailyGoalML()))
            }
        }
        if let url = answers.mqtt {
            let finding = BrokerReachability.finding(url: url, timeout: .seconds(3))
            console.say(finding.description)
            if finding.status != .ok, !yes,
               !console.confirm("Keep \(Redaction.url(url)) all the same?", byDefault: true) {
                answers.mqtt = nil
            }
        }

        // A broker and no key: join another bridge's household, or start one (docs/household.md).
        if answers.householdKey == nil, (answers.mqtt ?? current[Setting.mqttURL]) != nil, current[Setting.householdKey] == nil {
            var given: String?
            while !yes, given == nil, let answer = console.ask("Household key of another bridge (none: start a new household)", current: nil) {
                if answer.isEmpty { break }
                if HouseholdKey.isValid(answer) { given = answer } else { console.say("Not a household key: base64 of 32 bytes, as `household create` prints it.") }
            }
            answers.householdKey = given ?? HouseholdKey.generate()
            answers.madeHouseholdKey = given == nil
        }

        let values = answers.settings
        if values.isEmpty {
            console.say("Nothing to change in \(path).")
        } else {
            do {
                try SetupFile.write(values, to: path)
            } catch {
                StandardError.writeLine("aquavate-bridge setup: cannot write \(path): \(error)")
                throw ExitCode.failure
            }
            for (key, value) in values {
                console.say("\(key) = \(SettingCatalog.key(named: key)?.shown(value) ?? value)")
            }
            console.say("Wrote \(path).")
            if answers.madeHouseholdKey, let key = answers.householdKey {
                console.say("A new household: on every other bridge of this broker, aquavate-bridge household join \(key)")
            }
        }
        for line in SetupAnswers.nextSteps(configPath: path) { console.say(line) }
    }

    /// Asks for a setting until the answer is valid (or empty, or the input ends: nil).
    private func ask(_ console: SetupConsole, _ question: String, key: String, current: String?) -> String? {
        while true {
            guard let answer = console.ask(question, current: current) else { return nil }
            do {
                return try SetupAnswers.check(key, answer, option: nil)
            } catch {
                console.say(error.description)
            }
        }
    }

    /// Scans, lists the bottles seen, and asks which to adopt.
    private func askBottle(_ console: SetupConsole, current: String?) async throws -> String? {
        if let current { console.say("Adopted bottle: \(current).") }
        guard console.confirm(current == nil ? "Scan for your bottle now? Pick it up to wake it."
                                             : "Scan for another bottle?", byDefault: current == nil) else { return nil }
        console.say("Scanning for \(Int(scanTimeout)) s ...")
        let bottles: [Sighting]
        do {
            bottles = try await BottleScan.run(adapter: adapter, seconds: scanTimeout) { sighting in
                let rssi = sighting.rssi.map { "\($0) dBm" } ?? "RSSI unknown"
                console.say("  \(sighting.name)  \(sighting.address)  \(rssi)")
            }.bottles
        } catch {
            console.say("The scan failed: \(error). Skipped; `aquavate-bridge doctor` says what is missing.")
            return nil
        }
        guard !bottles.isEmpty else {
            console.say("No bottle seen. Skipped: `run` adopts the first bottle it sees, or run setup again.")
            return nil
        }
        for (index, sighting) in bottles.enumerated() {
            console.say("  \(index + 1)) \(sighting.name)  \(sighting.address)")
        }
        while true {
            guard let answer = console.ask("Which bottle (1-\(bottles.count), 0 for none)", current: "1") else {
                return bottles[0].address.uppercased()
            }
            if let number = Int(answer), (0...bottles.count).contains(number) {
                return number == 0 ? nil : bottles[number - 1].address.uppercased()
            }
            console.say("Answer a number from 0 to \(bottles.count).")
        }
    }
}
