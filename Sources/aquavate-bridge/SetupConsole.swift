// The conversation of `aquavate-bridge setup`: questions on standard output, answers from
// standard input, one line each. Writes go straight to file descriptor 1 (print's buffer would
// hold a prompt that has no newline back until after the answer).

import Foundation
import Glibc

struct SetupConsole {
    /// Writes `text` as it is (no newline added).
    func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                Glibc.write(1, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written <= 0 { return }
            offset += written
        }
    }

    func say(_ line: String) { write(line + "\n") }

    /// Asks `question`, showing `current` as the answer an empty line keeps. Nil at the end of
    /// the input (the current value then stands).
    func ask(_ question: String, current: String?) -> String? {
        write(current.map { "\(question) [\($0)]: " } ?? "\(question): ")
        guard let line = readLine() else {
            write("\n")
            return nil
        }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer.isEmpty ? nil : answer
    }

    /// A yes/no question; an empty answer or the end of the input is `byDefault`.
    func confirm(_ question: String, byDefault: Bool) -> Bool {
        let answer = ask(question + (byDefault ? " (Y/n)" : " (y/N)"), current: nil)?.lowercased()
        guard let answer else { return byDefault }
        return answer.hasPrefix("y")
    }
}
