// The command table has one home, docs/usage.md's "Commands at a glance", and keeps up with the
// command line: every subcommand the built `aquavate-bridge --help` lists, and every subcommand of
// those (`bottle restore`, `config set`, …), has its place in it. Read from the binary's help, not
// from the sources, so that it holds however the commands are arranged in code. No other document
// states the table again (two copies drift: one lacked `household`, `import` and `schedule`).

import BusTestSupport
import Foundation
import Testing

/// The subcommand names a swift-argument-parser help text lists under SUBCOMMANDS.
func helpSubcommands(_ help: String) -> [String] {
    var names: [String] = []
    var inList = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("SUBCOMMANDS:") {
            inList = true
            continue
        }
        guard inList else { continue }
        // A name is indented by two spaces; its description's continuation lines by more.
        if line.hasPrefix("  "), !line.hasPrefix("   ") {
            let name = line.dropFirst(2).prefix { !$0.isWhitespace }
            if name == "See" { break }
            names.append(String(name))
        } else if !line.isEmpty, !line.hasPrefix(" ") {
            break
        }
    }
    return names
}

@Suite struct CommandTableTests {
    static let home = "docs/usage.md"

    /// The table rows of a Markdown text: whole rows (a cell may hold `\|`), so that a
    /// subcommand may be named anywhere in its row.
    static func rows(of file: String) throws -> [String] {
        try String(contentsOfFile: repositoryFile(file), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("| `") }.map(String.init)
    }

    @Test func everyCommandHasItsRowInTheTable() async throws {
        let rows = try Self.rows(of: Self.home)
        let commands = helpSubcommands(try await runTool(bridgeBinary, ["--help"]).output)
        #expect(commands.contains("run") && commands.contains("bottle"), "read \(commands) from aquavate-bridge --help")
        for command in commands {
            let own = rows.filter { $0.hasPrefix("| `\(command) ") || $0.hasPrefix("| `\(command)`") }
            guard !own.isEmpty else {
                Issue.record("\(Self.home)'s commands at a glance have no row for `\(command)`")
                continue
            }
            for sub in helpSubcommands(try await runTool(bridgeBinary, [command, "--help"]).output) {
                let named = own.contains { row in
                    row.split(whereSeparator: { !$0.isLetter && $0 != "-" }).contains { $0 == sub }
                }
                if !named { Issue.record("\(Self.home)'s commands at a glance do not name `\(command) \(sub)`") }
            }
        }
    }

    @Test("no other document states the command table: it links to its home")
    func oneHome() async throws {
        let commands = helpSubcommands(try await runTool(bridgeBinary, ["--help"]).output)
        #expect(commands.count > 10, "read \(commands) from aquavate-bridge --help")
        let documents = ["README.md", "CONTRIBUTING.md"] + (try FileManager.default.contentsOfDirectory(atPath: repositoryFile("docs")))
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        for document in documents where document != Self.home {
            let named = Set(try Self.rows(of: document).compactMap { row in
                commands.first { row.hasPrefix("| `\($0) ") || row.hasPrefix("| `\($0)`") }
            })
            // Rows for three commands or more are a table of the commands (one lacking some is how
            // copies drift); one command's own table (design.md 3.5's `bottle`) is its contract.
            #expect(named.count < 3, "\(document) states the command table again (link to \(Self.home)): \(named.sorted())")
        }
    }

    @Test func theHelpReaderOnPlantedText() {
        let help = """
            USAGE: tool <subcommand>

            OPTIONS:
              --version               Show the version.

            SUBCOMMANDS:
              info (default)          Show it.
              goal                    Set the goal, which is a long
                                      description on two lines.
              shake-to-empty          Switch it.

              See 'tool help <subcommand>' for detailed help.
            """
        #expect(helpSubcommands(help) == ["info", "goal", "shake-to-empty"])
        #expect(helpSubcommands("USAGE: tool\n\nOPTIONS:\n  -h, --help  Show help.\n") == [])
    }
}
