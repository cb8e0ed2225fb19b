// Device Information strings and the advertised name (docs/protocol.md 1.1, 2.1, B17).

public enum DeviceInformation {
    /// A DIS string as the bottle sends it, cut at the first NUL: depending on the NimBLE release
    /// the value carries a terminating NUL and, for the firmware revision, stack garbage after it.
    /// Invalid UTF-8 is replaced, never rejected.
    public static func cleanString(_ bytes: [UInt8]) -> String {
        let end = bytes.firstIndex(of: 0) ?? bytes.endIndex
        return String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// The discovery rule of the iOS app (1.2): the name starts with "Aquavate-".
    public static func isBottleName(_ name: String) -> Bool {
        name.hasPrefix("Aquavate-")
    }

    /// The exact GAP name form `^Aquavate-[0-9A-F]{4}$`.
    public static func isCanonicalBottleName(_ name: String) -> Bool {
        let prefix = "Aquavate-"
        guard name.hasPrefix(prefix) else { return false }
        let suffix = name.utf8.dropFirst(prefix.utf8.count)
        return suffix.count == 4 && suffix.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
    }
}
