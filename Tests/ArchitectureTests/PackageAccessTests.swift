// Only AquavateProtocol is a library product (Package.swift), so it is the only API another
// program can use; every other module is seen by this package alone and declares `package`, not
// `public`. What this checks: no `public` declaration in Sources outside AquavateProtocol, in the
// test support targets or in the benchmarks (scripts/package-access.sh narrows them, and is run
// again after a merge), and that docs/architecture.md lists exactly AquavateProtocol's public
// types in "The API a second program could use".

import Foundation
import Testing

@Suite struct PackageAccessTests {
    static let libraryProduct = "AquavateProtocol"
    static let apiHeading = "## The API a second program could use"

    /// Every Swift file of Sources (but the library product), Tests and Benchmarks.
    static func narrowedFiles() throws -> [(path: String, text: String)] {
        var found = try sourceFiles(outside: libraryProduct)
        let files = FileManager.default
        for folder in ["Tests", "Benchmarks"] {
            let base = LayeringTests.root.appendingPathComponent(folder)
            guard let walker = files.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                found.append(("\(folder)/\(relative)", try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)))
            }
        }
        return found
    }

    /// `text`'s code with comments removed and string literals blanked, one entry per line (a
    /// test's fixture text and a doc comment declare nothing).
    static func codeWithoutLiterals(_ text: String) -> [String] {
        var code = OneClockTests.codeLines(of: text).joined(separator: "\n")
        for pattern in [/#*"""[\s\S]*?"""#*/, /"(?:[^"\\\n]|\\.)*"/] {
            code.replace(pattern) { String($0.output.map { $0 == "\n" ? "\n" : " " }) }
        }
        return code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The lines (from 1) of `text` that declare something `public`: the modifier, followed by a
    /// keyword, a modifier or an attribute, or `public(set)`; not `.public`, nor a label `public:`.
    static func publicLines(in text: String) -> [Int] {
        // Most files have no such word at all: skip the slower scan for them.
        guard text.contains("public") else { return [] }
        let modifier = /(?:^|[^.\w`$#])(public)(?:\(set\)|\s+[A-Za-z_@])/
        let code = codeWithoutLiterals(text).joined(separator: "\n")
        // The modifier and its declaration may stand on two lines.
        return code.matches(of: modifier).map { match in
            code[..<match.output.1.startIndex].filter { $0 == "\n" }.count + 1
        }
    }

    @Test func nothingIsPublicOutsideTheLibraryProduct() throws {
        let files = try Self.narrowedFiles()
        #expect(files.count > 300, "only \(files.count) files found under \(LayeringTests.root.path)")
        for file in files {
            for line in Self.publicLines(in: file.text) {
                Issue.record("""
                    \(file.path):\(line) declares something public, but only \(Self.libraryProduct) is a library product: \
                    run scripts/package-access.sh (it narrows public to package)
                    """)
            }
        }
    }

    @Test("the scan finds public declarations and leaves comments, strings, members and labels alone")
    func scanIsPrecise() {
        // Lines joined, not one literal: a multi-line literal inside another would end it early.
        let quotes = String(repeating: "\"", count: 3)
        let text = [
            "public struct S {",
            "    public private(set) var a = 0",
            "    public(set) var b = 0",
            "    @MainActor public func c() {}",
            "    // public func commented() {}",
            "    let d = \"public func quoted()\"",
            "    let e = Access.public",
            "    func f(public: Int) {}",
            "    let g = " + quotes,
            "        public struct Fixture {}",
            "        " + quotes,
            "  nonisolated  public",
            "    init() {}",
            "}",
        ].joined(separator: "\n")
        #expect(Self.publicLines(in: text) == [1, 2, 3, 4, 12])
    }

    // MARK: - The library's API, listed in docs/architecture.md

    /// The names of the types `text` declares public at its top level (nested ones are reached
    /// through them).
    static func topLevelPublicTypes(in text: String) -> [String] {
        let declaration = /^public\s+(?:final\s+|indirect\s+)?(?:struct|enum|class|actor|protocol|typealias)\s+(\w+)/
        return codeWithoutLiterals(text).compactMap { line in
            line.firstMatch(of: declaration).map { String($0.output.1) }
        }
    }

    static func libraryTypes() throws -> Set<String> {
        let folder = LayeringTests.root.appendingPathComponent("Sources/\(libraryProduct)")
        let walker = try #require(FileManager.default.enumerator(atPath: folder.path))
        var types: Set<String> = []
        for case let relative as String in walker where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
            types.formUnion(topLevelPublicTypes(in: text))
        }
        return types
    }

    /// The types the section lists: the first code span of each of its bullets.
    static func listedTypes(in document: String) throws -> [String] {
        let start = try #require(document.range(of: "\n\(apiHeading)\n"), "docs/architecture.md has no section \"\(apiHeading)\"")
        let after = document[start.upperBound...]
        let section = after.range(of: "\n## ").map { after[..<$0.lowerBound] } ?? after
        return section.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^- `(\w+)`/).map { String($0.output.1) }
        }
    }

    @Test func architectureListsExactlyTheLibrarysPublicTypes() throws {
        let types = try Self.libraryTypes()
        #expect(types.count > 20, "only \(types.count) public types found in Sources/\(Self.libraryProduct)")
        let document = try String(contentsOf: ModuleMapDocumentTests.document, encoding: .utf8)
        let listed = try Self.listedTypes(in: document)
        for type in types.subtracting(listed).sorted() {
            Issue.record("\(type) is public in \(Self.libraryProduct) but not listed in docs/architecture.md, \"\(Self.apiHeading)\"")
        }
        for type in Set(listed).subtracting(types).sorted() {
            Issue.record("docs/architecture.md lists \(type) in \"\(Self.apiHeading)\", but \(Self.libraryProduct) declares no public type of that name")
        }
        #expect(listed.count == Set(listed).count, "a type is listed twice: \(listed)")
    }

    @Test("the library's types are read from their declarations only")
    func typeScanIsPrecise() {
        let text = """
            public struct Drink: Sendable {
                public enum Nested {}
            }
            public final class Box {}
            enum Hidden {}
            // public struct Commented {}
            public extension Drink {}
            """
        #expect(Self.topLevelPublicTypes(in: text) == ["Drink", "Box"])
    }
}
