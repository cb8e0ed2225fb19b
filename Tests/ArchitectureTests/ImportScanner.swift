// Reads the `import` declarations of Swift sources, without the compiler: every line that
// begins (after attributes and an access level) with `import`, outside comments and multi-line
// string literals. An import inside `#if` counts: the map must allow it on every platform.

import Foundation

struct ImportLine: Hashable, CustomStringConvertible {
    /// The module that imports (the folder under Sources/).
    var module: String
    /// The imported module: `A` for `import A`, `import struct A.B` and `import A.B`.
    var imported: String
    /// Relative to the scanned root.
    var file: String
    var line: Int

    var description: String { "\(file):\(line): \(module) imports \(imported)" }
}

enum ImportScanner {
    /// The imports in one file's text.
    static func imports(in text: String) -> [(module: String, line: Int)] {
        var found: [(String, Int)] = []
        var inBlockComment = 0
        var inMultilineString = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let startsInCode = inBlockComment == 0 && !inMultilineString
            if startsInCode, let module = importedModule(line) { found.append((module, index + 1)) }
            updateState(line, blockComment: &inBlockComment, multilineString: &inMultilineString)
        }
        return found
    }

    /// The module a line imports, or nil when the line is not an import declaration.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)[...]
        // Attributes: `@testable`, `@_exported`, `@preconcurrency`, `@_implementationOnly`,
        // `@_spi(Name)`.
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        if let first = words.first, ["public", "package", "internal", "fileprivate", "private"].contains(first) {
            words = words.dropFirst()
        }
        guard words.first == "import" else { return nil }
        words = words.dropFirst()
        if let kind = words.first, ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias", "actor"].contains(kind) {
            words = words.dropFirst()
        }
        guard let path = words.first else { return nil }
        let module = path.split(separator: ".").first.map(String.init) ?? path
        return module.isEmpty ? nil : module
    }

    /// Tracks `/* … */` (which nest in Swift) and `"""` strings across lines. Line comments end
    /// the scan of their line.
    private static func updateState(_ line: String, blockComment: inout Int, multilineString: inout Bool) {
        var rest = Substring(line)
        while !rest.isEmpty {
            if multilineString {
                guard let end = rest.range(of: "\"\"\"") else { return }
                multilineString = false
                rest = rest[end.upperBound...]
            } else if blockComment > 0 {
                let open = rest.range(of: "/*"), close = rest.range(of: "*/")
                if let open, close == nil || open.lowerBound < close!.lowerBound {
                    blockComment += 1
                    rest = rest[open.upperBound...]
                } else if let close {
                    blockComment -= 1
                    rest = rest[close.upperBound...]
                } else {
                    return
                }
            } else {
                let candidates = [rest.range(of: "//"), rest.range(of: "/*"), rest.range(of: "\"\"\"")].compactMap { $0 }
                guard let next = candidates.min(by: { $0.lowerBound < $1.lowerBound }) else { return }
                switch rest[next] {
                case "//": return
                case "/*": blockComment = 1
                default: multilineString = true
                }
                rest = rest[next.upperBound...]
            }
        }
    }

    /// Every import of every Swift file under `root`/Sources/<Module>/, by module.
    static func scan(sources root: URL) throws -> [ImportLine] {
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default
        var lines: [ImportLine] = []
        for module in try files.contentsOfDirectory(atPath: sources.path).sorted() {
            let folder = sources.appendingPathComponent(module)
            guard let walker = files.enumerator(atPath: folder.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)
                for (imported, line) in imports(in: text) {
                    lines.append(ImportLine(module: module, imported: imported, file: "Sources/\(module)/\(relative)", line: line))
                }
            }
        }
        return lines
    }

    /// The modules under `root`/Sources/ that hold Swift sources (the C module maps hold none).
    static func swiftModules(sources root: URL) throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default
        return try files.contentsOfDirectory(atPath: sources.path).sorted().filter { module in
            let walker = files.enumerator(atPath: sources.appendingPathComponent(module).path)
            while let next = walker?.nextObject() as? String {
                if next.hasSuffix(".swift") { return true }
            }
            return false
        }
    }

    /// The imports `map` does not allow. A module missing from the map allows nothing.
    static func violations(_ imports: [ImportLine], map: [String: Set<String>]) -> [ImportLine] {
        imports.filter { !(map[$0.module]?.contains($0.imported) ?? false) && $0.imported != $0.module }
    }
}
