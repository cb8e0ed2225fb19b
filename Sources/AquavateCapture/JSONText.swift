// The few pieces of JSON text written by hand rather than by JSONEncoder: the capture writer's
// lines (the key order docs/design.md 3.3 shows, on the sync path: `CaptureEvent.jsonLine`) and
// the bridge's `day` events (a year of days per bottle for the web API: `BridgeEvent+JSON`).
// Each is held by a test to the Codable encoding of the same values; strings are escaped as
// JSONEncoder escapes them, byte for byte (`CaptureLineCodableTests`).

package enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // \b and \f as JSONEncoder writes them, so a line is byte for byte the Codable one.
            case "\u{8}": out += "\\b"
            case "\u{C}": out += "\\f"
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
