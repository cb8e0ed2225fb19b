// The target dependencies Package.swift declares, read from its text (the manifest cannot be
// loaded from a test): `.target`/`.executableTarget(name: "X", dependencies: ["A",
// .product(name: "B", package: "p")])` gives X → {A, B}.

import Foundation

enum PackageManifest {
    /// Target → its declared dependencies (targets and products by name).
    static func dependencies(in manifest: String) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        let target = try! Regex(#"\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)""#)
        for match in manifest.matches(of: target) {
            guard let name = match.output[1].substring.map(String.init) else { continue }
            result[name] = declared(after: match.range.upperBound, in: manifest)
        }
        return result
    }

    /// The names in the `dependencies: [...]` of the call that starts just before `start`.
    private static func declared(after start: String.Index, in manifest: String) -> Set<String> {
        // The call's own text: up to the parenthesis that closes it.
        var depth = 1
        var end = start
        while end < manifest.endIndex, depth > 0 {
            switch manifest[end] {
            case "(", "[": depth += 1
            case ")", "]": depth -= 1
            default: break
            }
            end = manifest.index(after: end)
        }
        let call = manifest[start..<end]
        guard let list = call.range(of: "dependencies:") else { return [] }
        var text = String(call[list.upperBound...])
        // A product counts by its name; its package's name is not a dependency.
        text = text.replacing(try! Regex(#",\s*package:\s*"[^"]*""#), with: "")
        text = text.replacing(try! Regex(#",\s*condition:[^)]*\)"#), with: "")
        if let pathStart = text.range(of: "path:") { text = String(text[..<pathStart.lowerBound]) }
        return Set(text.matches(of: try! Regex(#""([^"]+)""#)).compactMap { $0.output[1].substring.map(String.init) })
    }
}
