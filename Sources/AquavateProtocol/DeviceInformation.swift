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

/// The Device Information strings the bridge reads at each connection (docs/protocol.md 2.1).
public enum DeviceInformationField: String, CaseIterable, Sendable, Hashable {
    case manufacturer
    case model
    case firmware
    case serial

    /// The characteristic's UUID, lower case (0x2A29, 0x2A24, 0x2A26, 0x2A25).
    public var uuid: String {
        switch self {
        case .manufacturer: return "00002a29-0000-1000-8000-00805f9b34fb"
        case .model: return "00002a24-0000-1000-8000-00805f9b34fb"
        case .firmware: return "00002a26-0000-1000-8000-00805f9b34fb"
        case .serial: return AquavateUUID.serialNumber
        }
    }

    /// The field whose characteristic has this UUID (any case).
    public init?(uuid: String) {
        guard let field = Self.allCases.first(where: { AquavateUUID.matches($0.uuid, uuid) }) else { return nil }
        self = field
    }
}

/// Who the bottle says it is: the Device Information strings, cleaned (cut at the first NUL).
public struct BottleIdentity: Sendable, Hashable {
    /// The Wi-Fi station MAC, upper case, colon separated: the bottle's lasting key.
    public var serial: String?
    public var firmware: String?
    public var model: String?
    public var manufacturer: String?

    public init(serial: String? = nil, firmware: String? = nil, model: String? = nil, manufacturer: String? = nil) {
        self.serial = serial
        self.firmware = firmware
        self.model = model
        self.manufacturer = manufacturer
    }

    /// Takes one field's raw value. An empty string, or a serial that is not a MAC in the
    /// bottle's form (17 characters, hex pairs and colons), is left out: a key must be stable.
    public mutating func take(_ field: DeviceInformationField, _ bytes: [UInt8]) {
        let text = DeviceInformation.cleanString(bytes).trimmingSpaces()
        guard !text.isEmpty, text.utf8.count <= 64 else { return }
        switch field {
        case .serial: serial = Self.isSerial(text) ? text.uppercased() : nil
        case .firmware: firmware = text
        case .model: model = text
        case .manufacturer: manufacturer = text
        }
    }

    /// `XX:XX:XX:XX:XX:XX`, hex in either case.
    public static func isSerial(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 17 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index % 3 == 2 {
                if byte != UInt8(ascii: ":") { return false }
            } else if !(byte >= 0x30 && byte <= 0x39 || byte >= 0x41 && byte <= 0x46 || byte >= 0x61 && byte <= 0x66) {
                return false
            }
        }
        return true
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}
