// `aquavate-bridge config get|set|unset|list`: persisted settings.

import ArgumentParser
import Foundation
import Reports
import Settings

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Read and change the bridge's settings.",
        discussion: """
            Settings changed here are saved in the history database and override the config \
            file; `--set KEY=VALUE` overrides both for one run. `config list` shows every key, \
            its effective value and where the value comes from.

            A bottle of several can have its own owner, goal and reminders: \
            `bottle.<SERIAL>.<key>` (serial or address; keys: \(SettingCatalog.perBottle.joined(separator: ", "))) \
            overrides the global key at the same level; `config list` shows the ones set after the global keys.

            Secrets (push.token, any *.token or *password* key, the password in a URL's \
            user:password@) are shown as <redacted> unless --show-secrets is given.
            """,
        subcommands: [Get.self, Set.self, Unset.self, List.self]
    )

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Print the effective value of a setting.")
        @Argument(help: "The setting, e.g. reminders.daily_limit.") var key: String
        @Flag(help: "Print a secret (a token, a URL's password) as it is, not as <redacted>.") var showSecrets = false
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reportingFailures("config get") {
                let setting: SettingKey
                do { setting = try SettingCatalog.requireKey(key) } catch { throw CommandFailure("\(error)") }
                let history = try common.openHistory(path: common.databasePath)
                let configuration = try common.loadConfiguration(history: history, logger: common.makeLogger())
                if let value = configuration.value(key) {
                    print(showSecrets ? value : setting.shown(value))
                } else if setting.name == Setting.timezone.name {
                    print(configuration.timeZone.identifier)
                } else if setting.name == Setting.dailyGoalML.name {
                    print(configuration.dailyGoalML())
                } else {
                    print("")
                }
            }
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a setting and save it.",
            discussion: """
            The value is checked first; a bad value changes nothing and lists the valid choices. \
            A secret (web.token, push.token) goes as -, read from standard input, or with \
            --from-file PATH, so that it is not on the command line, where other local users read it.
            """)
        @Argument(help: "The setting, e.g. reminders.daily_limit.") var key: String
        @Argument(help: "The new value, e.g. false; - reads it from standard input.") var value: String?
        @Option(name: .customLong("from-file"), help: "Read the value from this file (one line).") var fromFile: String?
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reportingFailures("config set") {
                let change: SettingChange
                do {
                    change = try SettingChange(named: key, try SecretInput.read(value, fromFile: fromFile, what: "value of \(key)"))
                } catch {
                    throw CommandFailure("\(error)")
                }
                let history = try common.openHistory(path: common.databasePath)
                try change.store(in: history.settings)
                if let note = change.note { StandardError.writeLine("aquavate-bridge config set: \(note)") }
                print("\(change.name) = \(change.shown)")
            }
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unset", abstract: "Forget a saved setting (the file or the default applies again).")
        @Argument(help: "The setting.") var key: String
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reportingFailures("config unset") {
                let change: SettingChange
                do { change = try SettingChange(unsetting: key) } catch { throw CommandFailure("\(error)") }
                let history = try common.openHistory(path: common.databasePath)
                try change.store(in: history.settings)
                if let note = change.note { StandardError.writeLine("aquavate-bridge config unset: \(note)") }
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Show every setting with its value and source.")
        @Flag(help: "Print secrets (tokens, URL passwords) as they are, not as <redacted>.") var showSecrets = false
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reportingFailures("config list") {
                let history = try common.openHistory(path: common.databasePath)
                let configuration = try common.loadConfiguration(history: history, logger: common.makeLogger())
                for key in SettingCatalog.keys {
                    let value = configuration.value(key.name).map { showSecrets ? $0 : key.shown($0) } ?? "(unset)"
                    print("\(key.name) = \(value)  [\(configuration.source(of: key.name))]  # \(key.summary)")
                }
                // A bottle's own settings (bottle.<serial>.<key>) override the global key above.
                for name in configuration.bottleSettingNames {
                    guard let key = SettingCatalog.key(named: name), let value = configuration.value(name) else { continue }
                    print("\(name) = \(showSecrets ? value : key.shown(value))  [\(configuration.source(of: name))]  # \(key.summary)")
                }
            }
        }
    }
}
