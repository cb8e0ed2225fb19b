// The fields of a query string or of an `application/x-www-form-urlencoded` body: `a=1&b=x+y`.
// Both come from anyone, so a field that is missing, repeated or not a number is a 400 with a line
// that names it.

import Foundation

struct FormFields: Sendable {
    private(set) var values: [String: String] = [:]

    init(_ text: String?) {
        for pair in (text ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// An integer field in `range`; `fallback` when absent (nil: required).
    func integer(_ name: String, in range: ClosedRange<Int>, fallback: Int? = nil) throws(WebError) -> Int {
        guard let text = values[name] else {
            if let fallback { return fallback }
            throw .badRequest("\(name) is required: a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        guard let value = Int(text), range.contains(value) else {
            throw .badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text.prefix(40))'")
        }
        return value
    }

    /// `text` percent-encoded for a query value (the next page's link carries the bottle back).
    static func encode(_ text: String) -> String {
        // RFC 3986's unreserved characters stay as they are.
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
