// The few pieces of JSON text the writer produces by hand. Writing is simple enough to do
// without JSONSerialization, and doing it by hand fixes the key order docs/design.md 3.3 shows.

enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// A number JSON readers parse back to exactly `value` (Swift's shortest round-trip
    /// form, which is valid JSON for finite values); `null` for NaN and infinities, which
    /// JSON cannot hold and the reader then rejects.
    static func number(_ value: Double) -> String {
        value.isFinite ? value.description : "null"
    }

    /// `text` quoted for an error message, shortened so the message stays one readable line.
    static func quotedForMessage(_ text: String, limit: Int = 40) -> String {
        guard text.count > limit else { return quoted(text) }
        return quoted(String(text.prefix(limit))) + "… (\(text.utf8.count) bytes)"
    }
}
