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
    static func paths(in markdown: String) -> [String] {
        let spans = markdown.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return spans.filter { span in
            roots.contains(where: span.hasPrefix) && !span.contains(where: { " *<>…{$".contains($0) })
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
            for path in Self.paths(in: text) {
                named += 1
                #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path),
                        "\(document) names \(path), which is not in the repository")
            }
        }
        #expect(named > 20, "only \(named) paths found: the scan read nothing")
    }

    @Test func pathsAreReadFromBackticks() {
        #expect(Self.paths(in: "see `Sources/Daemon/BridgeDaemon.swift:12`, `Tests/*Tests` and `docs/x.md`.")
            == ["Sources/Daemon/BridgeDaemon.swift", "docs/x.md"])
    }
}
