// One notion of time, its type (docs/architecture.md, "Time"): a wall-clock instant is a
// `WallInstant`, not bare `Double` seconds. What this checks: every `public`, `package` or `open`
// function and initialiser in Sources/ (outside AquavateProtocol, the wire formats, which depend on
// no other module) whose parameter is named like a wall-clock instant (`now`, `at`, `since`,
// `until`, `time`, `instant`, as its argument label or its name) has a type other than `Double`
// or `Double?`. What it does not check: internal and private functions, stored properties,
// enum cases and closures (a reviewer's business), nor whether a parameter named otherwise is an
// instant. A number read from or written to a wire or a file is converted where it is read
// (`WallInstant(secondsSince1970:)`), so no public signature needs to carry it. And that
// `WallInstant` conforms to no `ExpressibleBy…Literal` protocol, in Sources/ or Tests/ (declared
// through a typealias it would pass; TimekeepingTests.WallInstantArithmeticTests checks the built
// type too).

import Foundation
import Testing

@Suite struct WallInstantTests {
    /// The names that say "an instant on the wall clock".
    static let instantNames: Set<String> = ["now", "at", "since", "until", "time", "instant"]

    /// Modules whose public functions may take seconds as `Double`: the wire formats.
    static let edgeModules: Set<String> = ["AquavateProtocol"]

    /// File → why its public functions still take `Double` instants. The list can only shrink:
    /// an entry no longer needed fails.
    static let knownExceptions: [String: String] = [
        "Sources/AquavateCapture/CaptureTimeBounds.swift":
            "checks the raw `t` number of a capture line before it becomes an instant (the capture format's edge)",
    ]

    /// A parameter of a public declaration: its argument label (nil for none), its name, its type.
    struct Parameter: Equatable {
        var label: String?
        var name: String
        var type: String
    }

    /// The parameters of every public, package or open `func` and `init` in `text`, with the
    /// line each declaration starts on.
    static func publicParameters(in text: String) -> [(line: Int, parameters: [Parameter])] {
        let code = OneClockTests.codeLines(of: text)
        let joined = Array(code.joined(separator: "\n"))
        var lineStarts: [Int] = [0]
        for (index, character) in joined.enumerated() where character == "\n" { lineStarts.append(index + 1) }
        let pattern = /\b(?:public|package|open)\b[^{};\n]*?\b(?:func\s+[^\s(<]+|init[?!]?)\s*(?:<[^>\n]*>)?\s*\(/
        let string = String(joined)
        var found: [(Int, [Parameter])] = []
        for match in string.matches(of: pattern) {
            var index = match.range.upperBound
            var depth = 1
            var current = ""
            var parts: [String] = []
            while index < string.endIndex, depth > 0 {
                let character = string[index]
                if "([<".contains(character) { depth += 1 }
                if ")]>".contains(character) { depth -= 1 }
                if depth == 1, character == "," {
                    parts.append(current)
                    current = ""
                } else if depth > 0 {
                    current.append(character)
                }
                index = string.index(after: index)
            }
            parts.append(current)
            let offset = string.distance(from: string.startIndex, to: match.range.lowerBound)
            let line = (lineStarts.lastIndex { $0 <= offset } ?? 0) + 1
            found.append((line, parts.compactMap(parameter)))
        }
        return found
    }

    /// `label name: Type = default` read as a parameter; nil for an empty list.
    static func parameter(_ text: String) -> Parameter? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let names = text[..<colon].split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = names.last else { return nil }
        var type = String(text[text.index(after: colon)...])
        if let equals = type.firstIndex(of: "=") { type = String(type[..<equals]) }
        type = type.trimmingCharacters(in: .whitespacesAndNewlines)
        return Parameter(label: names.count > 1 ? names[0] : nil, name: name, type: type)
    }

    /// Whether `parameter` is named like an instant and typed as seconds.
    static func isDoubleInstant(_ parameter: Parameter) -> Bool {
        let named = instantNames.contains(parameter.name) || parameter.label.map(instantNames.contains) == true
        return named && ["Double", "Double?", "TimeInterval", "TimeInterval?"].contains(parameter.type)
    }

    static func violations(in text: String) -> [(line: Int, parameter: Parameter)] {
        publicParameters(in: text).flatMap { declaration in
            declaration.parameters.filter(isDoubleInstant).map { (declaration.line, $0) }
        }
    }

    static func checkedFiles() throws -> [(path: String, text: String)] {
        try sourceFiles(outside: "").filter { file in
            !edgeModules.contains(file.path.split(separator: "/").dropFirst().first.map(String.init) ?? "")
        }
    }

    @Test func noPublicFunctionTakesAWallInstantAsDouble() throws {
        for file in try Self.checkedFiles() where Self.knownExceptions[file.path] == nil {
            for (line, parameter) in Self.violations(in: file.text) {
                let declared = "\(parameter.label.map { "\($0) " } ?? "")\(parameter.name): \(parameter.type)"
                Issue.record("\(file.path):\(line): `\(declared)` is a wall-clock instant as Double seconds: take a WallInstant (Timekeeping)")
            }
        }
    }

    @Test func everyKnownExceptionIsStillNeeded() throws {
        let files = Dictionary(uniqueKeysWithValues: try Self.checkedFiles().map { ($0.path, $0.text) })
        for path in Self.knownExceptions.keys.sorted() {
            let text = try #require(files[path], "\(path) no longer exists: remove it from WallInstantTests.knownExceptions")
            if Self.violations(in: text).isEmpty {
                Issue.record("\(path) takes no Double instant any more: remove it from WallInstantTests.knownExceptions")
            }
        }
    }

    // MARK: - No literal becomes an instant

    /// The literal protocols `WallInstant` declares in `text` (in its declaration or an
    /// extension, `@retroactive` or not), with the line each declaration starts on.
    static func literalConformances(in text: String) -> [(line: Int, conformance: String)] {
        var code = OneClockTests.codeLines(of: text).joined(separator: "\n")
        // String literals blanked, their line breaks kept (a test's fixture text declares nothing).
        for pattern in [/"""[\s\S]*?"""/, /"(?:[^"\\\n]|\\.)*"/] {
            code.replace(pattern) { String($0.output.map { $0 == "\n" ? "\n" : " " }) }
        }
        let declaration = /\b(?:struct|extension)\s+(?:Timekeeping\.)?WallInstant\b([^{]*)\{/
        var found: [(Int, String)] = []
        for match in code.matches(of: declaration) {
            let line = code[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
            for literal in match.output.1.matches(of: /ExpressibleBy\w*Literal/) {
                found.append((line, String(literal.output)))
            }
        }
        return found
    }

    /// Every Swift file under Sources/ and Tests/ (a test could declare the conformance too).
    static func allSwiftFiles() throws -> [(path: String, text: String)] {
        let files = FileManager.default
        var found: [(path: String, text: String)] = []
        for top in ["Sources", "Tests"] {
            let folder = LayeringTests.root.appendingPathComponent(top)
            guard let walker = files.enumerator(atPath: folder.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                found.append(("\(top)/\(relative)", try String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8)))
            }
        }
        return found
    }

    /// A literal conformance would make `instant - 600` compile as `instant - WallInstant(600)`,
    /// a `Duration` of some 56 years, where `instant - .seconds(600)` was meant: a number becomes
    /// an instant only by `WallInstant(secondsSince1970:)`.
    @Test func noLiteralBecomesAWallInstant() throws {
        let files = try Self.allSwiftFiles()
        // A scan that reads nothing would pass anything; WallInstant.swift is where it would be declared.
        #expect(files.count > 200)
        #expect(files.contains { $0.path == "Sources/Timekeeping/WallInstant.swift" })
        for file in files {
            for (line, conformance) in Self.literalConformances(in: file.text) {
                Issue.record("\(file.path):\(line): WallInstant conforms to \(conformance): write WallInstant(secondsSince1970:) instead")
            }
        }
    }

    @Test func theReaderSeesALiteralConformanceButNotAnotherType() {
        let text = """
            public struct WallInstant: Hashable, Comparable, Sendable {}
            extension WallInstant: ExpressibleByIntegerLiteral {}
            extension Timekeeping.WallInstant:
                @retroactive ExpressibleByFloatLiteral, Sendable {}
            // extension WallInstant: ExpressibleByStringLiteral {}
            extension WallInstantish: ExpressibleByIntegerLiteral {}
            extension MonotonicInstant: ExpressibleByIntegerLiteral {}
            extension WallInstant { static let x = "ExpressibleByIntegerLiteral" }
            """
        let found = Self.literalConformances(in: text)
        #expect(found.map(\.line) == [2, 3])
        #expect(found.map(\.conformance) == ["ExpressibleByIntegerLiteral", "ExpressibleByFloatLiteral"])
    }

    @Test func theReaderSeesADoubleInstantButNotAnInternalOneOrAComment() {
        let text = """
            public struct S {
                public func tick(at instant: Double) {}
                public init(
                    name: String,
                    now: Double? = nil, values: [Int: Double] = [:]
                ) {}
                func internalOne(at: Double) {}
                // public func commented(now: Double) {}
                public func fine(at instant: WallInstant, seconds: Double, timeout: Double) {}
                package static func generic<T: Sendable>(_ value: T, until: Double) -> Bool { true }
            }
            """
        let found = Self.violations(in: text)
        #expect(found.map(\.line) == [2, 3, 10])
        #expect(found.map(\.parameter) == [Parameter(label: "at", name: "instant", type: "Double"),
                                           Parameter(label: nil, name: "now", type: "Double?"),
                                           Parameter(label: nil, name: "until", type: "Double")])
    }
}
