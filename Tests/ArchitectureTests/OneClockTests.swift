// One notion of time (docs/architecture.md): outside the Timekeeping module no source reads the
// host's clock or sleeps on it. Rules, engines, sessions and the daemon take the injected clock
// (`WallClock`: `now`, `instant`, `sleep`), so that tests and replay drive their time; only
// `SystemClock`, inside Timekeeping, touches the real one.

import Foundation
import Testing

@Suite struct OneClockTests {
    /// What reads the system's time or waits on it directly. `ContinuousClock` whole (its
    /// `Instant` has a `.now` of its own: the monotonic instant is Timekeeping's `MonotonicInstant`);
    /// `.now()` is libdispatch's present written without its type (`deadline: .now() + …`).
    static let forbidden = ["ContinuousClock", "SuspendingClock", "Task.sleep", "Date()", "Date.now", "DispatchTime.now",
                            "DispatchWallTime.now", ".now()", "clock_gettime", "Thread.sleep", "usleep(", "nanosleep("]

    /// File → what it may name, and why. The list can only shrink: an entry no longer needed fails.
    static let knownExceptions: [String: (what: String, why: String)] = [
        "Sources/DBus/WatchLoop.swift": ("clock_gettime",
            "libdbus's own time-outs: the owner thread's timerfd is armed with absolute deadlines on the kernel's "
            + "CLOCK_MONOTONIC, so they are read on that clock; no logic of the bridge runs on it"),
    ]

    /// The code of `text` line by line, with comments blanked (string literals stay: an
    /// interpolated `"\(Date())"` is a clock read too).
    static func codeLines(of text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var blockDepth = 0
        var inLineComment = false
        var inString = false
        var inMultilineString = false
        let characters = Array(text)
        var index = 0
        func at(_ offset: Int, _ literal: String) -> Bool {
            let wanted = Array(literal)
            guard index + offset + wanted.count <= characters.count else { return false }
            return Array(characters[(index + offset)..<(index + offset + wanted.count)]) == wanted
        }
        while index < characters.count {
            let character = characters[index]
            if character == "\n" {
                lines.append(current)
                current = ""
                inLineComment = false
                inString = false
                index += 1
                continue
            }
            if inLineComment {
                index += 1
            } else if blockDepth > 0 {
                if at(0, "/*") { blockDepth += 1; index += 2 } else if at(0, "*/") { blockDepth -= 1; index += 2 } else { index += 1 }
            } else if inMultilineString {
                if at(0, "\"\"\"") { inMultilineString = false; current += "\"\"\""; index += 3 } else { current.append(character); index += 1 }
            } else if inString {
                if character == "\\", index + 1 < characters.count, characters[index + 1] != "(" {
                    current.append(character)
                    current.append(characters[index + 1])
                    index += 2
                    continue
                }
                if character == "\"" { inString = false }
                current.append(character)
                index += 1
            } else if at(0, "//") {
                inLineComment = true
            } else if at(0, "/*") {
                blockDepth = 1
                index += 2
            } else if at(0, "\"\"\"") {
                inMultilineString = true
                current += "\"\"\""
                index += 3
            } else {
                if character == "\"" { inString = true }
                current.append(character)
                index += 1
            }
        }
        lines.append(current)
        return lines
    }

    /// The lines (from 1) of `text` whose code names a forbidden clock, with what they name.
    static func clockReads(in text: String) -> [(line: Int, what: String)] {
        codeLines(of: text).enumerated().compactMap { index, code in
            forbidden.first { names(code, $0) }.map { (index + 1, $0) }
        }
    }

    /// Whether `code` names `token` as a word of its own (`Date()`, not `parseDate()`).
    static func names(_ code: String, _ token: String) -> Bool {
        var rest = code[...]
        while let found = rest.range(of: token) {
            let before = found.lowerBound == code.startIndex ? nil : code[code.index(before: found.lowerBound)]
            if let before, before.isLetter || before.isNumber || before == "_" {
                rest = code[found.upperBound...]
            } else {
                return true
            }
        }
        return false
    }

    @Test func onlyTimekeepingReadsTheClockOrSleeps() throws {
        for file in try sourceFiles(outside: "Timekeeping") {
            for read in Self.clockReads(in: file.text) where Self.knownExceptions[file.path]?.what != read.what {
                Issue.record("\(file.path):\(read.line): \(read.what) outside Timekeeping: take the injected clock (WallClock) instead")
            }
        }
    }

    @Test func everyKnownExceptionIsStillNeeded() throws {
        for (path, exception) in Self.knownExceptions {
            let text = try String(contentsOf: LayeringTests.root.appendingPathComponent(path), encoding: .utf8)
            if !Self.clockReads(in: text).contains(where: { $0.what == exception.what }) {
                Issue.record("\(path) no longer names \(exception.what): remove it from OneClockTests.knownExceptions")
            }
        }
    }

    @Test func theFinderSeesAClockReadButNotAComment() {
        let text = """
            import Foundation
            // ContinuousClock.now would do here, but see Timekeeping
            let start = ContinuousClock.now
            /* a block: try await Task.sleep(for: .seconds(1))
               /* nested */ Date() */ let url = "http://example.org" // Date()
            try await Task.sleep(for: .seconds(1))
            print("at \\(Date())")
            let fine = clock.now; let parsed = parseDate(); let loop = WatchLoop.now()
            source.schedule(deadline: .now() + .seconds(1))
            let text = \"\"\"
              // not a comment: Date.now
            \"\"\"
            """
        #expect(Self.clockReads(in: text).map(\.line) == [3, 6, 7, 9, 11])
        #expect(Self.clockReads(in: text).map(\.what) == ["ContinuousClock", "Task.sleep", "Date()", ".now()", "Date.now"])
    }
}
