// Device Settings (…0006), 4 bytes, read / write (docs/protocol.md 3.7):
//   u8 flags (bit 0 = shake-to-empty) | u8 reserved1 | u16 reserved2

public struct DeviceSettings: WireValue, Hashable {
    public static let structureName = "Device Settings"
    public static let byteCount = 4

    public var flags: UInt8
    /// Echo of the last written value, not persisted.
    public var reserved1: UInt8
    /// Echo of the last written value, not persisted.
    public var reserved2: UInt16

    public init(flags: UInt8, reserved1: UInt8 = 0, reserved2: UInt16 = 0) {
        self.flags = flags
        self.reserved1 = reserved1
        self.reserved2 = reserved2
    }

    /// The write that turns the shake-to-empty gesture on or off: `01 00 00 00` / `00 00 00 00`.
    public init(shakeToEmpty: Bool) {
        self.init(flags: shakeToEmpty ? 0x01 : 0x00)
    }

    public init(decoding bytes: [UInt8]) throws(ProtocolError) {
        try Self.requireLength(bytes, exactly: Self.byteCount)
        flags = bytes[0]
        reserved1 = bytes[1]
        reserved2 = bytes.u16LE(at: 2)
    }

    public func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: Self.byteCount)
        writer.u8(flags)
        writer.u8(reserved1)
        writer.u16(reserved2)
        return writer.bytes
    }

    /// Bit 0, the only persisted setting. Factory default: off.
    public var shakeToEmptyEnabled: Bool { flags & 0x01 != 0 }
}
