// The Debian package's copyright file (packaging/debian/copyright, DEP-5) keeps up with what the
// binary is made of: every Swift package Package.swift depends on has its Files: paragraph, every
// licence a paragraph names has its text, and the project's own licence is LICENSE's.

import BusTestSupport
import Foundation
import Testing

/// A DEP-5 copyright file, read as its paragraphs' fields.
struct CopyrightFile {
    /// Each paragraph's fields (a continuation line belongs to the field above it).
    let paragraphs: [[String: String]]

    init(_ text: String) {
        var paragraphs: [[String: String]] = []
        var fields: [String: String] = [:]
        var last: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !fields.isEmpty { paragraphs.append(fields) }
                fields = [:]
                last = nil
            } else if line.first == " " || line.first == "\t" {
                if let last { fields[last, default: ""] += "\n" + line.trimmingCharacters(in: .whitespaces) }
            } else if let colon = line.firstIndex(of: ":") {
                let name = String(line[..<colon])
                fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                last = name
            }
        }
        if !fields.isEmpty { paragraphs.append(fields) }
        self.paragraphs = paragraphs
    }

    var filesParagraphs: [[String: String]] { paragraphs.filter { $0["Files"] != nil } }

    /// The licences stand-alone License paragraphs give the text of (first line: the short name).
    var licenceTexts: Set<String> {
        Set(paragraphs.filter { $0["Files"] == nil && $0["Format"] == nil }
            .compactMap { $0["License"]?.split(separator: "\n").first.map(String.init) })
    }

    /// What is wrong, one line each: a Files paragraph without Copyright or License, a licence
    /// named without its text, a package without a paragraph.
    func problems(packages: [String]) -> [String] {
        var found: [String] = []
        for paragraph in filesParagraphs {
            let files = paragraph["Files"] ?? ""
            if paragraph["Copyright"]?.isEmpty ?? true { found.append("Files: \(files) has no Copyright") }
            guard let licence = paragraph["License"]?.split(separator: "\n").first.map(String.init) else {
                found.append("Files: \(files) has no License")
                continue
            }
            if !licenceTexts.contains(licence) { found.append("Files: \(files) names \(licence), whose text is not in the file") }
        }
        let covered = Set(filesParagraphs.compactMap { $0["Files"] })
        for package in packages where !covered.contains(".build/checkouts/\(package)/*") {
            found.append("the package \(package) has no Files: .build/checkouts/\(package)/* paragraph")
        }
        return found
    }
}

/// The packages Package.swift depends on, by the last part of their URL ("swift-nio").
func manifestPackages(_ manifest: String) -> [String] {
    manifest.matches(of: try! Regex(#"\.package\(\s*url:\s*"[^"]*/([^"/]+?)(?:\.git)?""#))
        .compactMap { $0.output[1].substring.map(String.init) }
}

@Suite struct CopyrightFileTests {
    @Test func everyPackageAndLicenceIsInTheCopyrightFile() throws {
        let copyright = CopyrightFile(try String(contentsOfFile: repositoryFile("packaging/debian/copyright"), encoding: .utf8))
        let packages = manifestPackages(try String(contentsOfFile: repositoryFile("Package.swift"), encoding: .utf8))
        #expect(packages.contains("swift-nio") || packages.contains("hummingbird"), "read \(packages) from Package.swift")
        #expect(packages.count >= 5)
        for problem in copyright.problems(packages: packages) {
            Issue.record("packaging/debian/copyright: \(problem)")
        }
    }

    @Test func theProjectIsApacheLicensed() throws {
        let copyright = CopyrightFile(try String(contentsOfFile: repositoryFile("packaging/debian/copyright"), encoding: .utf8))
        let own = try #require(copyright.filesParagraphs.first { $0["Files"] == "*" })
        #expect(own["License"] == "Apache-2.0")
        let licence = try String(contentsOfFile: repositoryFile("LICENSE"), encoding: .utf8)
        #expect(licence.contains("Apache License") && licence.contains("Version 2.0, January 2004"))
        #expect(licence.contains("END OF TERMS AND CONDITIONS"), "LICENSE is not the licence's full text")
    }

    @Test func theReaderCatchesWhatIsMissing() {
        let copyright = CopyrightFile("""
            Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
            Comment: a header
             continued

            Files: *
            Copyright: 2026 us
            License: Apache-2.0

            Files: .build/checkouts/a/*
            Copyright: 2020 them
            License: MIT

            Files: .build/checkouts/b/*
            License: BSD-3-Clause

            License: Apache-2.0
             text
            """)
        #expect(copyright.filesParagraphs.count == 3)
        #expect(copyright.licenceTexts == ["Apache-2.0"])
        #expect(copyright.problems(packages: ["a", "c"]) == [
            "Files: .build/checkouts/a/* names MIT, whose text is not in the file",
            "Files: .build/checkouts/b/* has no Copyright",
            "Files: .build/checkouts/b/* names BSD-3-Clause, whose text is not in the file",
            "the package c has no Files: .build/checkouts/c/* paragraph",
        ])
        #expect(manifestPackages("""
            .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
            .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
            .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
            """) == ["swift-log", "GRDB.swift", "swift-nio"])
    }
}
