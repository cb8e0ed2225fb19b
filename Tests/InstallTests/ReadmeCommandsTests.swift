// README.md's "Commands at a glance" keeps up with the command line: every subcommand the built
// `aquavate-bridge --help` lists, and every subcommand of those (`bottle restore`, `config set`, …),
// has its place in the table. Read from the binary's help, not from the sources, so that it holds
// however the commands are arranged in code.

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

@Suite struct ReadmeCommandsTests {
    @Test func everyCommandHasItsRowInTheReadme() async throws {
        let readme = try String(contentsOfFile: repositoryFile("README.md"), encoding: .utf8)
        // The whole rows (a cell may hold `\|`), so a subcommand may be named anywhere in its row.
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.map(String.init)
        let commands = helpSubcommands(try await runTool(bridgeBinary, ["--help"]).output)
        #expect(commands.contains("run") && commands.contains("bottle"), "read \(commands) from aquavate-bridge --help")
        for command in commands {
            let own = rows.filter { $0.hasPrefix("| `\(command) ") || $0.hasPrefix("| `\(command)`") }
            guard !own.isEmpty else {
                Issue.record("README.md's commands at a glance have no row for `\(command)`")
                continue
            }
            for sub in helpSubcommands(try await runTool(bridgeBinary, [command, "--help"]).output) {
                let named = own.contains { row in
                    row.split(whereSeparator: { !$0.isLetter && $0 != "-" }).contains { $0 == sub }
                }
                if !named { Issue.record("README.md's commands at a glance do not name `\(command) \(sub)`") }
            }
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
