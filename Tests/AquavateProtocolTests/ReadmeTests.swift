// README.md is where a newcomer starts: its first screen holds the two commands to type on a fresh
// Debian machine (install and demo; the tests), CI runs exactly its test command, and it stays a
// page to start from rather than a lab notebook (figures and history live under docs/ and in
// CHANGELOG.md).

import Foundation
import Testing

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// What the README promises a newcomer, read from its Markdown.
struct ReadmeFacts {
    /// The lines of the README's ```sh blocks, in order, with the 1-based line each is on.
    let commands: [(line: Int, text: String)]
    let lineCount: Int

    init(_ markdown: String) {
        var commands: [(Int, String)] = []
        var inShell = false
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("```") {
                inShell = !inShell && line == "```sh"
                continue
            }
            if inShell, !line.trimmingCharacters(in: .whitespaces).isEmpty {
                commands.append((index + 1, String(line)))
            }
        }
        self.commands = commands
        lineCount = markdown.hasSuffix("\n") ? lines.count - 1 : lines.count
    }

    /// The line of the shell block line that is exactly `command`, if any.
    func line(of command: String) -> Int? { commands.first { $0.text == command }?.line }
}

/// The command `.ci/run` ends with: its last line that is neither blank nor a comment.
func ciTestCommand(_ script: String) -> String? {
    script.split(separator: "\n")
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .last { !$0.isEmpty && !$0.hasPrefix("#") }
}

/// The relative link targets of a Markdown text (`[text](path)` and `[text](path#anchor)`), without
/// web addresses or in-page anchors.
func relativeLinks(_ markdown: String) -> [String] {
    markdown.matches(of: try! Regex(#"\]\(([^)#\s]+)(?:#[^)]*)?\)"#))
        .compactMap { $0.output[1].substring.map(String.init) }
        .filter { !$0.contains("://") && !$0.hasPrefix("mailto:") }
}

@Suite struct ReadmeTests {
    static let install = "sudo scripts/install-deps.sh && swift run aquavate-bridge demo"
    static let test = "scripts/test.sh"

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theTwoCommandsAreOnTheFirstScreen() throws {
        let readme = ReadmeFacts(try Self.read("README.md"))
        let install = try #require(readme.line(of: Self.install), "README.md has no shell line `\(Self.install)`")
        let test = try #require(readme.line(of: Self.test), "README.md has no shell line `\(Self.test)`")
        #expect(install < test, "the install and demo command comes before the tests")
        #expect(test <= 30, "the test command is on line \(test): keep both commands near the top")
    }

    @Test func ciRunsExactlyTheReadmesTestCommand() throws {
        let command = try #require(ciTestCommand(try Self.read(".ci/run")))
        #expect(command == Self.test, ".ci/run ends with `\(command)`, README.md says `\(Self.test)`")
    }

    /// A bound with room for the troubleshooting entries still to come; past it, the text belongs
    /// in a document under docs/ that the README links.
    @Test func theReadmeStaysShort() throws {
        let readme = ReadmeFacts(try Self.read("README.md"))
        #expect(readme.lineCount > 50, "README.md read as \(readme.lineCount) lines")
        #expect(readme.lineCount <= 250, "README.md has \(readme.lineCount) lines: move detail to docs/ and link it")
    }

    /// The README, CONTRIBUTING, CHANGELOG and every document under docs/ link only to files that
    /// exist (a document moved or renamed leaves no dead link behind).
    @Test func everyRelativeLinkResolves() throws {
        var documents = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        let docs = repositoryRoot.appendingPathComponent("docs")
        documents += try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var links = 0
        for document in documents {
            let folder = repositoryRoot.appendingPathComponent(document).deletingLastPathComponent()
            for link in relativeLinks(try Self.read(document)) {
                links += 1
                let target = folder.appendingPathComponent(link).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: target), "\(document) links to \(link), which does not exist")
            }
        }
        #expect(links > 30, "only \(links) links found")
        // Built from pieces, so that DocumentReferenceTests sees no citation of a missing document here.
        let planted = "[a](" + "docs/x" + ".md) [b](https://e.org/y.md) [c](../LICENSE#top) [d](#here)"
        #expect(relativeLinks(planted) == ["docs/x" + ".md", "../LICENSE"])
    }

    /// The readers, on planted text: a command inside a non-shell block or in prose does not count,
    /// and the CI command is the script's last command, not a comment after it.
    @Test func theReadersOnPlantedText() {
        let readme = ReadmeFacts("""
            # x
            `scripts/test.sh` in prose
            ```toml
            scripts/test.sh
            ```
            ```sh
            scripts/test.sh
            ```
            """)
        #expect(readme.commands.map(\.line) == [7])
        #expect(readme.line(of: "scripts/test.sh") == 7)
        #expect(readme.lineCount == 8)
        #expect(ciTestCommand("#!/bin/sh\nset -e\nscripts/test.sh --fast\n# done\n\n") == "scripts/test.sh --fast")
    }
}
