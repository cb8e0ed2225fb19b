// A secret given to a command (`household join`, `config set web.token`): as `-`, read from
// standard input, or with `--from-file PATH`, rather than on the command line, where any local
// user reads it in /proc/<pid>/cmdline while the command runs. The text is taken as one line:
// surrounding whitespace and the final newline a pipe or an editor adds are dropped.

import Foundation

enum SecretInput {
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// The value: `argument` as given, its standard input for `-`, or the file's contents.
    static func read(_ argument: String?, fromFile path: String?, what: String) throws(Refused) -> String {
        let text: String
        switch (argument, path) {
        case (nil, nil):
            throw Refused(description: "no \(what): give it as -, read from standard input, or with --from-file PATH")
        case (.some(let given), .some):
            throw Refused(description: "\(given == "-" ? "-" : "a value") and --from-file both give the \(what): give one")
        case (.some("-"), nil):
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard let read = String(data: data, encoding: .utf8) else { throw Refused(description: "standard input is not UTF-8 text") }
            text = read
        case (.some(let given), nil):
            text = given
        case (nil, .some(let path)):
            guard let data = FileManager.default.contents(atPath: path) else { throw Refused(description: "cannot read \(path)") }
            guard let read = String(data: data, encoding: .utf8) else { throw Refused(description: "\(path) is not UTF-8 text") }
            text = read
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, !value.contains(where: \.isNewline) else {
            throw Refused(description: "the \(what) must be one non-empty line")
        }
        return value
    }
}
