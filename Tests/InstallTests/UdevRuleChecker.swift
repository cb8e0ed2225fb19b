// A small checker for udev rule files: every rule must split into KEY{attribute}OPERATOR"value"
// tokens, with an operator its key allows (udev(7), "Rules files"). It does not replace udevadm's
// parser (UdevRulesTests runs that too); it lets the tests say what each rule matches and sets.
import BusTestSupport
import Foundation

struct UdevToken: Equatable {
    var key: String
    /// The part in braces: ENV{SYSTEMD_WANTS} → SYSTEMD_WANTS.
    var attribute: String?
    var op: String
    var value: String

    /// `ENV{SYSTEMD_WANTS}` or `KERNEL`.
    var fullKey: String { attribute.map { "\(key){\($0)}" } ?? key }
    var isMatch: Bool { op == "==" || op == "!=" }
}

struct UdevRule {
    /// Line number of the rule's first line (1-based).
    var line: Int
    var tokens: [UdevToken]
    /// The comment lines right above the rule (without `#`).
    var comment: [String]

    func value(_ fullKey: String, _ op: String) -> String? {
        tokens.first { $0.fullKey == fullKey && $0.op == op }?.value
    }
}

struct UdevSyntaxError: Error, CustomStringConvertible {
    var line: Int
    var reason: String
    var description: String { "line \(line): \(reason)" }
}

enum UdevRuleChecker {
    static let operators = ["==", "!=", "+=", "-=", ":=", "="]
    /// Keys that only match.
    static let matchOnly: Set<String> = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER",
                                         "DRIVERS", "ATTRS", "TAGS", "TEST", "PROGRAM", "RESULT", "CONST"]
    /// Keys that only assign.
    static let assignOnly: Set<String> = ["OWNER", "GROUP", "MODE", "SECLABEL", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"]
    /// Keys that do both.
    static let both: Set<String> = ["NAME", "SYMLINK", "ATTR", "SYSCTL", "ENV", "TAG"]
    /// Keys that must (or may) carry an attribute in braces.
    static let needsAttribute: Set<String> = ["ATTR", "ATTRS", "SYSCTL", "ENV", "CONST", "SECLABEL"]
    static let mayHaveAttribute: Set<String> = ["TEST", "RUN", "IMPORT"]

    static func parse(_ text: String) throws -> [UdevRule] {
        var rules: [UdevRule] = []
        var comment: [String] = []
        var pending: (line: Int, text: String)?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            var line = raw.trimmingCharacters(in: .whitespaces)
            if pending == nil {
                if line.isEmpty { comment = []; continue }
                if line.hasPrefix("#") { comment.append(String(line.dropFirst()).trimmingCharacters(in: .whitespaces)); continue }
            }
            let continues = line.hasSuffix("\\")
            if continues { line.removeLast() }
            pending = (pending?.line ?? number, (pending.map { $0.text + " " } ?? "") + line)
            if continues { continue }
            let (start, ruleText) = pending!
            pending = nil
            rules.append(UdevRule(line: start, tokens: try tokens(ruleText, line: start), comment: comment))
            comment = []
        }
        if let pending { throw UdevSyntaxError(line: pending.line, reason: "the file ends inside a continued line") }
        return rules
    }

    static func tokens(_ text: String, line: Int) throws -> [UdevToken] {
        var rest = Substring(text)
        var tokens: [UdevToken] = []
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            let key = rest.prefix { $0.isUppercase || $0 == "_" }
            guard !key.isEmpty else { throw UdevSyntaxError(line: line, reason: "expected a KEY at '\(rest.prefix(20))'") }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else {
                    throw UdevSyntaxError(line: line, reason: "\(key){ is not closed")
                }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            guard let op = operators.first(where: { rest.hasPrefix($0) }) else {
                throw UdevSyntaxError(line: line, reason: "\(key): expected one of \(operators.joined(separator: " "))")
            }
            rest = rest.dropFirst(op.count)
            guard rest.first == "\"" else { throw UdevSyntaxError(line: line, reason: "\(key): the value must be in double quotes") }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: "\"") else {
                throw UdevSyntaxError(line: line, reason: "\(key): the value's quote is not closed")
            }
            let value = String(rest[..<close])
            rest = rest[rest.index(after: close)...]
            let token = UdevToken(key: String(key), attribute: attribute, op: op, value: value)
            try check(token, line: line)
            tokens.append(token)
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            guard rest.first == "," else { throw UdevSyntaxError(line: line, reason: "expected ',' after \(token.fullKey)") }
            rest = rest.dropFirst()
        }
        guard !tokens.isEmpty else { throw UdevSyntaxError(line: line, reason: "empty rule") }
        return tokens
    }

    static func check(_ token: UdevToken, line: Int) throws {
        let key = token.key
        guard matchOnly.contains(key) || assignOnly.contains(key) || both.contains(key) else {
            throw UdevSyntaxError(line: line, reason: "unknown key \(key)")
        }
        if needsAttribute.contains(key), token.attribute?.isEmpty ?? true {
            throw UdevSyntaxError(line: line, reason: "\(key) needs {attribute}")
        }
        if token.attribute != nil, !needsAttribute.contains(key), !mayHaveAttribute.contains(key) {
            throw UdevSyntaxError(line: line, reason: "\(key) takes no {attribute}")
        }
        if matchOnly.contains(key), !token.isMatch {
            throw UdevSyntaxError(line: line, reason: "\(key) only matches (== or !=), not \(token.op)")
        }
        if assignOnly.contains(key), token.isMatch {
            throw UdevSyntaxError(line: line, reason: "\(key) only assigns (=, +=, -=, :=), not \(token.op)")
        }
        if key == "MODE", token.value.range(of: "^0?[0-7]{3}$", options: .regularExpression) == nil {
            throw UdevSyntaxError(line: line, reason: "MODE must be octal, e.g. \"0664\", not \"\(token.value)\"")
        }
    }
}
