// A document that names a file of the repository names one that is there: files move, and a
// newcomer following CONTRIBUTING.md or a doc to a path that is gone loses the thread. Paths are
// written from the repository's root (`Sources/…`, `Tests/…`, `scripts/…`), in backticks.

import Foundation
import Testing

@Suite struct DocumentedPathTests {
    static let roots = ["Sources/", "Tests/", "scripts/", "docs/", "Benchmarks/", "packaging/", "systemd/", "udev/", "dbus/",
                        "Fuzz/", "captures/"]

    /// The repository paths a Markdown text names in backticks (a glob, a placeholder or an
    /// elision is no path; `file:line` and trailing punctuation are dropped).
    /// `anyFile`: also a relative path to a source file (CONTRIBUTING.md names only this
    /// repository's files; other documents cite other projects' files by their own paths).
    static func paths(in markdown: String, anyFile: Bool = false) -> [String] {
        let spans = markdown.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        let fileEndings = [".swift", ".sh", ".py", ".md"]
        return spans.filter { span in
            guard !span.contains(where: { " *<>…{$".contains($0) }) else { return false }
            if roots.contains(where: span.hasPrefix) { return true }
            let file = span.split(separator: ":").first.map(String.init) ?? span
            return anyFile && file.contains("/") && !file.hasPrefix("/") && !file.hasPrefix(".") && !file.hasPrefix("~")
                && fileEndings.contains(where: file.hasSuffix)
        }.map { span in
            String(span.split(separator: ":").first ?? "").trimmingCharacters(in: CharacterSet(charactersIn: ".,"))
        }
    }

    @Test func everyPathADocumentNamesExists() throws {
        let root = LayeringTests.root
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" }
        var named = 0
        for document in ["README.md", "CONTRIBUTING.md"] + docs {
            let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
            for path in Self.paths(in: text, anyFile: document == "CONTRIBUTING.md") {
                named += 1
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path),
                        "\(document) names \(path), which is not in the repository")
            }
        }
        #expect(named > 20, "only \(named) paths found: the scan read nothing")
    }

    @Test func pathsAreReadFromBackticks() {
        // The document is a made-up name, spelt in two pieces so that AquavateProtocolTests'
        // DocumentReferenceTests, which holds every cited document to the repository, does not read
        // this fixture as a citation.
        let madeUp = "docs/" + "no-such-page.md"
        #expect(Self.paths(in: "see `Sources/Daemon/BridgeDaemon.swift:12`, `Tests/*Tests` and `\(madeUp)`.")
            == ["Sources/Daemon/BridgeDaemon.swift", madeUp])
        // A path relative to somewhere else is no path from the root: in CONTRIBUTING.md it fails.
        #expect(Self.paths(in: "(`Chaos/ChaosPlan.swift`), `/etc/x.md`", anyFile: true) == ["Chaos/ChaosPlan.swift"])
        #expect(Self.paths(in: "(`Chaos/ChaosPlan.swift`)").isEmpty)
    }
}
