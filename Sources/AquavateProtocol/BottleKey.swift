// What a bridge keys a bottle by: its serial (Device Information 0x2A25), or its Bluetooth address
// until the serial is read. A name that arrives from outside (a web query, a household message)
// reaches logs, the history and MQTT topics, so it is taken only when it has that shape; one rule,
// for every door it can come through.

public enum BottleKey {
    /// The longest key taken: serials and addresses are far shorter.
    public static let maximumLength = 64

    /// 1 to 64 ASCII letters, digits, `:`, `-` or `_`: a serial or an address, nothing else
    /// (no `/` or `+` for a topic, no space or quote for a log line).
    public static func isWellFormed(_ text: String) -> Bool {
        (1...maximumLength).contains(text.utf8.count) && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                return true
            default:
                return false
            }
        }
    }
}
