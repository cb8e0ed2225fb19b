// Documents and comments say why, never which ticket or which work session asked for a change:
// a number means nothing to the next reader, and the reason it stood for gets lost with it. The
// patterns are narrow on purpose: a BLE session, a login session or an MQTT session is the
// project's own vocabulary, and another project's issue is cited by its `#` number and name
// (bleak's issues in docs/bluez.md, the firmware's in docs/protocol.md).

import Foundation
import Testing

@Suite struct NoCitationTests {
    /// What reads as a citation of this project's own tickets or sessions.
    static let patterns: [(name: String, regex: String)] = [
        // "issue 12", "Issues 12 and 13", "issue 12's branches" (not "issue #1220" of another project).
        ("an issue number", #"\bissues? \d+"#),
        // "stop 3" of a plan, not a duration ("stop 5 s").
        ("a numbered stop", #"\bstops? \d+\b(?!\s*(?:s|ms|min|seconds?|minutes?|hours?|%)\b)"#),
        // A work session by its number or as the one that asked: "session 4", "filed by a session".
        ("a numbered session", #"\bsessions? \d+\b"#),
        ("a session as author", #"\b(?:filed|opened|written|reported|asked|requested) (?:by|in) (?:a|an|another|the|this|that|an earlier|a previous) session\b"#),
    ]

    /// The project's own documents and sources (the shared contracts outside the repository are not scanned).
    static func scannedFiles() throws -> [String] {
        let root = LayeringTests.root
        var files = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "Package.swift"]
        for folder in ["docs", "Sources", "Tests", "scripts", "Benchmarks", "Fuzz", "packaging", "systemd", "udev", "dbus"] {
            guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let path as String in walker
            where [".swift", ".md", ".sh", ".py", ".c", ".h", ".service", ".conf", ".rules"].contains(where: path.hasSuffix) {
                files.append("\(folder)/\(path)")
            }
        }
        // This file names the patterns it looks for.
        return files.filter { $0 != "Tests/ArchitectureTests/NoCitationTests.swift" }
    }

    static func compiled() -> [(name: String, regex: NSRegularExpression)] {
        patterns.map { ($0.name, try! NSRegularExpression(pattern: $0.regex, options: [.caseInsensitive])) }
    }

    static func citations(in text: String, using compiled: [(name: String, regex: NSRegularExpression)] = compiled()) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return compiled.flatMap { pattern in
            pattern.regex.matches(in: text, range: range).map { "\(pattern.name): \"\((text as NSString).substring(with: $0.range))\"" }
        }
    }

    @Test func noDocumentOrCommentCitesAnIssueOrASession() throws {
        let files = try Self.scannedFiles()
        let compiled = Self.compiled()
        #expect(files.count > 300, "only \(files.count) files found under \(LayeringTests.root.path)")
        for file in files {
            guard let text = try? String(contentsOf: LayeringTests.root.appendingPathComponent(file), encoding: .utf8) else { continue }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for citation in Self.citations(in: String(line), using: compiled) {
                    Issue.record("\(file):\(number + 1) cites \(citation): say why instead")
                }
            }
        }
    }

    @Test("the patterns find the citations and leave the project's words alone")
    func patternsArePrecise() {
        let cited = ["(issue 29: a flood of sockets)", "the merge of Issue 28's branches", "issues 12 and 13", "stop 4 of the plan",
                     "see session 7", "filed by a session"]
        for text in cited { #expect(!Self.citations(in: text).isEmpty, "\(text)") }
        let words = ["bleak issue #1885", "firmware before Issue #47", "the session's bottle", "a login session expires",
                     "the last session's link", "stop 5 s before", "stops 30 seconds later", "an MQTT session resumes", "issued 3 tokens"]
        for text in words { #expect(Self.citations(in: text).isEmpty, "\(text): \(Self.citations(in: text))") }
    }
}
