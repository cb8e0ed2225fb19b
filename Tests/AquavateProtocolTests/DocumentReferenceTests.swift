// Every reference to the project's documents resolves inside the repository: a citation such as
// `docs/protocol.md 4.6` or `docs/bluez.md F7` in the sources, tests, scripts or documents names a
// file that exists under docs/ and a heading of that file that carries the section number; and no
// file cites a document that lives outside the repository (the old upper-case names, or the folder
// that used to sit beside the repository).

import Foundation
import Testing

/// A citation that does not resolve.
struct DanglingReference: Equatable, CustomStringConvertible {
    let file: String
    let line: Int
    let citation: String
    let reason: String

    var description: String { "\(file):\(line): \(citation) — \(reason)" }
}

/// The checker, kept free of the file system so that it can be tested on planted text.
struct DocumentReferenceChecker {
    /// Section numbers that each document under docs/ defines, keyed by file name ("protocol.md").
    let sections: [String: Set<String>]

    /// The section number a Markdown heading carries: "## 4. Sync" → "4", "### 4.6 Failure" → "4.6",
    /// "### B9. Time" → "B9", "#### 7.2.9 Let go" → "7.2.9", "### TV17 — …" → "TV17".
    static func headingSection(_ line: Substring) -> String? {
        guard line.hasPrefix("#") else { return nil }
        var rest = line.drop(while: { $0 == "#" })
        guard rest.first == " " else { return nil }
        rest = rest.drop(while: { $0 == " " })
        if rest.hasPrefix("Appendix ") { rest = rest.dropFirst("Appendix ".count) }
        let token = rest.prefix(while: { $0.isLetter || $0.isNumber || $0 == "." })
        var section = String(token)
        while section.hasSuffix(".") { section.removeLast() }
        guard let last = section.last, last.isNumber || section.count == 1 else { return nil }
        return section
    }

    /// The sections a document defines, from its headings.
    static func sections(ofDocument text: String) -> Set<String> {
        var found = Set<String>()
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let section = headingSection(line) { found.insert(section) }
        }
        return found
    }

    // `docs/NAME.md` optionally followed by "section" and a section token, or a Markdown link
    // `](NAME.md)` inside docs/ followed by a section token. A `docs/` that continues a path
    // (`owner/repo/docs/x.md`) is another project's document, not ours.
    private static let citation = try! NSRegularExpression(
        pattern: #"(?:(?<![\w/.])docs/|\]\()([a-z0-9][a-z0-9-]*)\.md\)?(?:,? section)?(?: ([A-Z]{0,2}[0-9]+(?:\.[0-9]+)*))?"#)
    // The documents that used to live outside the repository, by their old names.
    private static let outside = try! NSRegularExpression(
        pattern: #"\b(?:PROTOCOL|BLUEZ|REMINDERS|DESIGN|VECTORS|INTEGRATIONS|SWIFT-LINUX)\.md|\.\./shared\b"#)

    /// The dangling references in one file's text.
    func check(_ text: String, file: String) -> [DanglingReference] {
        var dangling: [DanglingReference] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let line = String(line)
            let whole = NSRange(line.startIndex..., in: line)
            for match in Self.outside.matches(in: line, range: whole) {
                let cited = String(line[Range(match.range, in: line)!])
                dangling.append(DanglingReference(file: file, line: index + 1, citation: cited,
                                                  reason: "names a document outside the repository"))
            }
            for match in Self.citation.matches(in: line, range: whole) {
                let name = String(line[Range(match.range(at: 1), in: line)!]) + ".md"
                let cited = String(line[Range(match.range, in: line)!])
                guard let defined = sections[name] else {
                    dangling.append(DanglingReference(file: file, line: index + 1, citation: cited,
                                                      reason: "no docs/\(name)"))
                    continue
                }
                guard let sectionRange = Range(match.range(at: 2), in: line) else { continue }
                let section = String(line[sectionRange])
                if !defined.contains(section) {
                    dangling.append(DanglingReference(file: file, line: index + 1, citation: cited,
                                                      reason: "docs/\(name) has no heading numbered \(section)"))
                }
            }
        }
        return dangling
    }
}

/// The repository's root, from this file's place in it (Tests/AquavateProtocolTests/…).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("Document references")
struct DocumentReferenceTests {
    /// The checker built from the documents under docs/.
    static func repositoryChecker() throws -> DocumentReferenceChecker {
        let docs = repositoryRoot.appendingPathComponent("docs")
        var sections: [String: Set<String>] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            let text = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
            sections[name] = DocumentReferenceChecker.sections(ofDocument: text)
        }
        return DocumentReferenceChecker(sections: sections)
    }

    /// Every text file of the repository that may cite a document.
    static func citingFiles() -> [String] {
        let folders = ["Sources", "Tests", "scripts", "Fuzz", "Benchmarks", "docs", "systemd", "dbus", "udev", "tests"]
        let extensions: Set<String> = ["swift", "h", "c", "sh", "py", "md", "toml", "service", "conf", "txt", "yaml"]
        var files = ["README.md", "Package.swift", "Makefile"]
        for folder in folders {
            guard let walker = FileManager.default.enumerator(atPath: repositoryRoot.appendingPathComponent(folder).path)
            else { continue }
            while let relative = walker.nextObject() as? String {
                let ext = (relative as NSString).pathExtension
                if extensions.contains(ext) { files.append(folder + "/" + relative) }
            }
        }
        return files
    }

    @Test("every cited document and section exists")
    func everyReferenceResolves() throws {
        let checker = try Self.repositoryChecker()
        #expect(checker.sections.keys.contains("protocol.md"))
        var dangling: [DanglingReference] = []
        var files = 0
        for file in Self.citingFiles() {
            let url = repositoryRoot.appendingPathComponent(file)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            files += 1
            dangling += checker.check(text, file: file)
        }
        #expect(files > 100, "found only \(files) files to check under \(repositoryRoot.path)")
        let report = dangling.map(\.description).joined(separator: "\n")
        #expect(dangling.isEmpty, "\(dangling.count) dangling references:\n\(report)")
    }

    @Test("the documents carry the sections the code has always cited")
    func stableNumbering() throws {
        let checker = try Self.repositoryChecker()
        let expected: [String: [String]] = [
            "protocol.md": ["0", "1.4", "3.1.3", "3.8.2", "4.6", "5.2", "7.2.9", "B1", "B9", "B17"],
            "bluez.md": ["1", "5", "F1", "F7", "F22", "7", "7.2", "7.8"],
            "reminders.md": ["0", "1", "2.1", "2.6", "3", "6"],
            "design.md": ["1", "2", "3.1", "3.6", "4", "5", "6"],
            "integrations.md": ["1", "2", "3"],
            "swift-linux.md": ["P1", "P12", "6", "7"],
        ]
        for (document, numbers) in expected {
            let defined = checker.sections[document] ?? []
            for number in numbers {
                #expect(defined.contains(number), "docs/\(document) lacks section \(number)")
            }
        }
    }

    @Test("the checker catches planted bad references and passes good ones")
    func plantedReferences() {
        let checker = DocumentReferenceChecker(sections: [
            "protocol.md": DocumentReferenceChecker.sections(ofDocument: """
                # Title
                ## 4. Sync
                ### 4.6 Failure
                ### B9. Time
                #### 7.2.9 Let go
                """),
        ])
        // Built from pieces, so that this file itself holds no dangling reference.
        let docs = "docs/"
        let good = """
            // \(docs)protocol.md 4.6 and \(docs)protocol.md B9; \(docs)protocol.md 7.2.9: let go.
            // See \(docs)protocol.md, and \(docs)protocol.md section 4.
            // Another project's: binwiederhier/ntfy/\(docs)publish.md.
            """
        #expect(checker.check(good, file: "Good.swift") == [])

        let bad = """
            // fine: \(docs)protocol.md 4.6
            // \(docs)protocol.md 9.9 does not exist
            // \(docs)protocol.md 4.61 is not 4.6
            // \(docs)nowhere.md 1 has no file
            // old name: \("PROTO" + "COL").md 4.6, and \("../" + "shared")/DESIGN-notes
            """
        let found = checker.check(bad, file: "Bad.swift")
        #expect(found.map(\.line) == [2, 3, 4, 5, 5])
        #expect(found.map(\.reason) == [
            "docs/protocol.md has no heading numbered 9.9",
            "docs/protocol.md has no heading numbered 4.61",
            "no " + docs + "nowhere.md",
            "names a document outside the repository",
            "names a document outside the repository",
        ])
    }

    @Test("headings give their section numbers")
    func headings() {
        let cases: [(String, String?)] = [
            ("## 0. General conventions", "0"),
            ("### 3.1.3 Calibration overlay", "3.1.3"),
            ("### B12. Calibration mode", "B12"),
            ("### F7. A stale GATT cache", "F7"),
            ("### P9. Fuzzing", "P9"),
            ("## Appendix A — constants", "A"),
            ("### TV17 — cut by the MTU", "TV17"),
            ("# aquavate-bridge on a Raspberry Pi", nil),
            ("## Topics", nil),
            ("not a heading 4.6", nil),
        ]
        for (line, section) in cases {
            #expect(DocumentReferenceChecker.headingSection(Substring(line)) == section, "\(line)")
        }
    }
}
