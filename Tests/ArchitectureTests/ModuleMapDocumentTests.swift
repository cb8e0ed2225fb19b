// docs/architecture.md's module map and `ModuleMap` say the same thing: the same modules, each
// allowed the same imports, and the same platform set. The document is what a reader trusts; the
// map is what `LayeringTests` enforces. A change to one without the other fails here.

import Foundation
import Testing

/// The module map as docs/architecture.md writes it, read from its Markdown.
struct DocumentedModuleMap: Equatable {
    var platform: Set<String> = []
    var allowed: [String: Set<String>] = [:]

    /// Reads the line `**platform** is A, B, C.` and the table whose header starts
    /// `| floor | module | may import |`: one row per module, its imports separated by commas,
    /// backticks and the word `platform` allowed (it stands for the platform set).
    static func parse(_ markdown: String) -> DocumentedModuleMap {
        var map = DocumentedModuleMap()
        var inTable = false
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("**platform** is ") {
                let list = line.dropFirst("**platform** is ".count).trimmingCharacters(in: CharacterSet(charactersIn: "."))
                map.platform = names(list)
                continue
            }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            // A table row is "| a | b | c | d |": empty cells before the first and after the last bar.
            guard line.hasPrefix("|"), cells.count >= 5 else {
                inTable = false
                continue
            }
            if cells[1] == "floor", cells[2] == "module", cells[3] == "may import" {
                inTable = true
                continue
            }
            guard inTable, !cells[1].hasPrefix("---") else { continue }
            let module = cells[2].replacingOccurrences(of: "`", with: "")
            map.allowed[module] = names(cells[3])
        }
        // `platform` in a row is the platform set.
        for (module, imports) in map.allowed where imports.contains("platform") {
            map.allowed[module] = imports.subtracting(["platform"]).union(map.platform)
        }
        return map
    }

    private static func names(_ list: String) -> Set<String> {
        Set(list.split(separator: ",")
            .map { $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty })
    }

    /// What differs from the code's map, one line each (empty when they agree).
    func differences(from allowed: [String: Set<String>], platform expected: Set<String>) -> [String] {
        var found: [String] = []
        if platform != expected {
            found.append("platform: the document says \(platform.sorted()), ModuleMap.platform \(expected.sorted())")
        }
        for module in Set(allowed.keys).union(self.allowed.keys).sorted() {
            switch (self.allowed[module], allowed[module]) {
            case (nil, _?):
                found.append("\(module) is in ModuleMap but not in the document's table")
            case (_?, nil):
                found.append("\(module) is in the document's table but not in ModuleMap")
            case let (documented?, coded?) where documented != coded:
                let missing = coded.subtracting(documented).sorted()
                let extra = documented.subtracting(coded).sorted()
                found.append("\(module): the document lacks \(missing), and allows \(extra) that ModuleMap does not")
            default:
                break
            }
        }
        return found
    }
}

@Suite struct ModuleMapDocumentTests {
    static let document = LayeringTests.root.appendingPathComponent("docs/architecture.md")

    @Test func theDocumentedMapIsModuleMap() throws {
        let text = try String(contentsOf: Self.document, encoding: .utf8)
        let documented = DocumentedModuleMap.parse(text)
        // A parse that finds no table would compare nothing: make sure it read the rows.
        #expect(documented.allowed.count >= 10, "only \(documented.allowed.count) modules read from \(Self.document.path)")
        for difference in documented.differences(from: ModuleMap.allowed, platform: ModuleMap.platform) {
            Issue.record("docs/architecture.md (Module map) and Tests/ArchitectureTests/ModuleMap.swift differ: \(difference)")
        }
    }

    /// The reader is checked on planted text: a row that drops an import, one that adds one, a
    /// module missing and one too many are each reported, and a faithful table passes.
    @Test func aDifferenceIsCaught() {
        let table = """
            **platform** is Foundation, Glibc.

            | floor | module | may import | why |
            |---|---|---|---|
            | 0 | `Pure` | Foundation | no I/O |
            | 1 | `Store` | platform, `Pure`, GRDB | the database |
            | 2 | `Extra` | platform | not in the code |

            | other | table |
            |---|---|
            | `Ignored` | x |
            """
        let documented = DocumentedModuleMap.parse(table)
        #expect(documented.platform == ["Foundation", "Glibc"])
        #expect(documented.allowed["Store"] == ["Foundation", "Glibc", "Pure", "GRDB"])
        #expect(documented.allowed["Ignored"] == nil)

        let faithful: [String: Set<String>] = [
            "Pure": ["Foundation"], "Store": ["Foundation", "Glibc", "Pure", "GRDB"], "Extra": ["Foundation", "Glibc"],
        ]
        #expect(documented.differences(from: faithful, platform: ["Foundation", "Glibc"]).isEmpty)

        let code: [String: Set<String>] = [
            "Pure": ["Foundation", "Timekeeping"], "Store": ["Foundation", "Glibc", "Pure"], "Missing": ["Foundation"],
        ]
        let differences = documented.differences(from: code, platform: ["Foundation", "Glibc", "Dispatch"])
        #expect(differences.count == 5, "\(differences)")
        #expect(differences.contains { $0.hasPrefix("platform:") })
        #expect(differences.contains { $0.hasPrefix("Extra is in the document's table but not in ModuleMap") })
        #expect(differences.contains { $0.hasPrefix("Missing is in ModuleMap but not") })
        #expect(differences.contains { $0.hasPrefix("Pure: the document lacks [\"Timekeeping\"]") })
        #expect(differences.contains { $0.hasPrefix("Store: the document lacks [], and allows [\"GRDB\"]") })
    }
}
