// `aquavate-bridge schedule add|list|remove|enable|disable`: scheduled intake reminders
// (docs/reminders.md 3) kept in the database, next to the config file's `[[schedule]]` tables.

import ArgumentParser
import Foundation
import History
import Reminders
import Reminding
import Reports

struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Scheduled intake reminders (vitamins, medicine, water).",
        discussion: """
            Schedules come from the config file's [[schedule]] tables and from `schedule add`, \
            which saves them in the history database. The options of `add` mirror the table's \
            fields. Schedules from the file are changed in the file.
            """,
        subcommands: [Add.self, List.self, Remove.self, Enable.self, Disable.self]
    )

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a schedule (checked first; a bad one changes nothing).",
            discussion: "Example: schedule add --id VITD --name \"Vitamin D\" --intake vitamin-d --frequency weekly --first 2026-11-22T09:00")
        @Option(help: "Short id: letters, digits, _ (e.g. VITD).") var id: String
        @Option(help: "Name shown in the reminder (default: the id).") var name: String?
        @Option(help: "water (bottle drinks) or a manual type such as vitamin-d.") var intake: String
        @Option(help: ArgumentHelp("How often: \(IntakeFrequency.choices).")) var frequency: String
        @Option(help: "First occurrence, local time, e.g. 2026-11-22T09:00.") var first: String
        @Option(help: "Reminder text (default: the rule's own).") var body: String?
        @Option(name: .customLong("min-ml"), help: "water only: ml that count as taken.") var minML: Int?
        @Flag(help: "Add it switched off.") var disabled = false
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reportingFailures("schedule add") {
                var table = ["id": id, "intake": intake, "frequency": frequency, "first": first, "enabled": disabled ? "false" : "true"]
                if let name { table["name"] = name }
                if let body { table["body"] = body }
                if let minML { table["min_ml"] = String(minML) }
                let checked = ScheduleTables(parsing: [table])
                if let error = checked.errors.first { throw CommandFailure(error.description) }
                guard let schedule = checked.schedules.first else { throw CommandFailure("schedule \(id) could not be read") }
                let history = try common.openHistory(path: common.databasePath)
                let configuration = try common.loadConfiguration(history: history, logger: common.makeLogger())
                let existing = ScheduleTables(parsing: configuration.scheduleTables + StoredSchedules.tables(in: history.schedules)).schedules
                if existing.contains(where: { $0.id == schedule.id }) {
                    throw CommandFailure("a schedule with id \(id) exists already; remove it first or choose another id")
                }
                try history.schedules.save(StoredSchedules.schedule(table, checked: schedule))
                print("added schedule \(id)")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the schedules, from the file and from `schedule add`.")
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reportingFailures("schedule list") {
                let history = try common.openHistory(path: common.databasePath)
                let configuration = try common.loadConfiguration(history: history, logger: common.makeLogger())
                let file = ScheduleTables(parsing: configuration.scheduleTables)
                let (tables, unread) = StoredSchedules.tablesAndWarnings(in: history.schedules)
                let stored = ScheduleTables(parsing: tables)
                for problem in file.errors.map(\.description) + stored.errors.map(\.description) + unread {
                    StandardError.writeLine("warning: \(problem)")
                }
                let rows = file.schedules.map { ($0, "file") } + stored.schedules.map { ($0, "database") }
                if rows.isEmpty { print("no schedules") }
                for (schedule, source) in rows {
                    print("\(schedule.id)  \(schedule.name)  intake \(schedule.intake)  \(schedule.frequency.rawValue) from \(schedule.first)  \(schedule.enabled ? "enabled" : "disabled")  [\(source)]")
                }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a schedule added with `schedule add`.")
        @Argument(help: "The schedule's id.") var id: String
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reportingFailures("schedule remove") {
                let history = try common.openHistory(path: common.databasePath)
                guard try history.schedules.remove(id: id) else {
                    throw CommandFailure("no schedule \(id) in the database (`schedule list` shows them; file schedules are removed in the file)")
                }
                print("removed schedule \(id)")
            }
        }
    }

    struct Enable: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "enable", abstract: "Switch a schedule added with `schedule add` on.")
        @Argument(help: "The schedule's id.") var id: String
        @OptionGroup var common: CommonOptions
        func run() throws { try setEnabled(id, true, common) }
    }

    struct Disable: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "disable", abstract: "Switch a schedule added with `schedule add` off (its reminders are cancelled).")
        @Argument(help: "The schedule's id.") var id: String
        @OptionGroup var common: CommonOptions
        func run() throws { try setEnabled(id, false, common) }
    }
}

private func setEnabled(_ id: String, _ enabled: Bool, _ common: CommonOptions) throws {
    try reportingFailures(enabled ? "schedule enable" : "schedule disable") {
        let history = try common.openHistory(path: common.databasePath)
        guard var schedule = try history.schedules.schedule(id: id) else {
            throw CommandFailure("no schedule \(id) in the database (`schedule list` shows them; file schedules change in the file)")
        }
        schedule.enabled = enabled
        try history.schedules.save(schedule)
        print("\(enabled ? "enabled" : "disabled") schedule \(id)")
    }
}
