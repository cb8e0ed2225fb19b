// `aquavate-bridge household create|join KEY`: the household's key (docs/household.md). Bridges
// that share `mqtt.url` and `household.key` form one household; the key goes into the config
// file (0640, the service's group), like the other secrets setup writes.

import ArgumentParser
import Foundation
import Reports
import Settings
import Sinks

struct HouseholdCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "household",
        abstract: "Make a household's key, or join one with the key of another bridge.",
        discussion: """
            Bridges on one MQTT broker form a household when they share household.key (32 random \
            bytes in base64): they exchange drinks, claim the bottle so one syncs at a time, and \
            remind a person once. Every household message is signed with the key; a message that \
            is not (any other client of the broker) is dropped and counted (`doctor`, /metrics). \
            Without the key a bridge is in no household.

            `household create` on the first bridge writes a new key and prints the command for \
            the others; `household join -` on each other bridge reads that key from standard input \
            (or `--from-file PATH`; `household join KEY` works too, but puts the key where other \
            local users read it while it runs) and writes it. Restart the \
            service after either. The key is a secret: `config list` shows it as <redacted>, and \
            it cannot be set over MQTT.

            EXIT STATUS

            0 written; 1 the file could not be written, or a key exists already (create); 2 not a key, or none given (join).
            """,
        subcommands: [Create.self, Join.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "create", abstract: "Write a new household key into the config file.")
        @Flag(help: "Replace the key the file has (every other bridge must then join again).") var replace = false
        @OptionGroup var common: CommonOptions

        func run() throws {
            let path = common.config ?? BridgePaths.defaultConfigFile()
            if !replace, let existing = try? Configuration.load(file: path, mustExist: false), existing[Setting.householdKey] != nil {
                StandardError.writeLine("aquavate-bridge household create: \(path) has a household.key already; "
                                        + "`aquavate-bridge config get household.key --show-secrets` prints it, --replace makes a new one")
                throw ExitCode.failure
            }
            let key = HouseholdKey.generate()
            try HouseholdCommand.write(key, to: path)
            print("household.key written to \(path).")
            print("On every other bridge of this household: aquavate-bridge household join - (then paste \(key) and press Ctrl-D)")
        }
    }

    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "join", abstract: "Write another bridge's household key into the config file.")
        @Argument(help: "The key `household create` printed on the first bridge; - reads it from standard input (keeps it off the command line, where other local users read it).")
        var key: String?
        @Option(name: .customLong("from-file"), help: "Read the key from this file.") var fromFile: String?
        @OptionGroup var common: CommonOptions

        func run() throws {
            let key: String
            do {
                key = try SecretInput.read(self.key, fromFile: fromFile, what: "household key")
            } catch {
                StandardError.writeLine("aquavate-bridge household join: \(error)")
                throw ExitCode(2)
            }
            guard HouseholdKey.isValid(key) else {
                StandardError.writeLine("aquavate-bridge household join: not a household key: expected base64 of 32 bytes, as `household create` prints it")
                throw ExitCode(2)
            }
            let path = common.config ?? BridgePaths.defaultConfigFile()
            try HouseholdCommand.write(key.trimmingCharacters(in: .whitespaces), to: path)
            print("household.key written to \(path); restart the bridge to join its household.")
        }
    }

    static func write(_ key: String, to path: String) throws {
        do {
            try SetupFile.write([(Setting.householdKey.name, key)], to: path)
        } catch {
            StandardError.writeLine("aquavate-bridge household: cannot write \(path): \(error)")
            throw ExitCode.failure
        }
    }
}
