/// The first line of an `.aqcap` file (docs/design.md 3.3):
/// `{"aqcap":1,"created":…,"source":…,"device":{"name":…,"address":…},"mtu":247}`.
package struct CaptureHeader: Sendable, Equatable {
    /// The only format version there is.
    package static let currentVersion = 1

    /// The `aqcap` key; readers accept only `currentVersion`.
    package var version: Int
    /// When the capture was made, ISO 8601 UTC (`2026-11-21T08:00:00Z`).
    package var created: String?
    /// What wrote it, e.g. `aquavate-bridge 0.1.0`.
    package var source: String?
    package var deviceName: String?
    package var deviceAddress: String?
    /// The negotiated ATT MTU, which decides the drink-data chunk size (docs/protocol.md 4.4).
    package var mtu: Int?

    package init(
        version: Int = CaptureHeader.currentVersion, created: String? = nil, source: String? = nil,
        deviceName: String? = nil, deviceAddress: String? = nil, mtu: Int? = nil
    ) {
        self.version = version
        self.created = created
        self.source = source
        self.deviceName = deviceName
        self.deviceAddress = deviceAddress
        self.mtu = mtu
    }

    /// The header as one line, without the newline; unset fields are left out.
    package func jsonLine() -> String {
        var line = "{\"aqcap\":\(version)"
        if let created { line += ",\"created\":" + JSONText.quoted(created) }
        if let source { line += ",\"source\":" + JSONText.quoted(source) }
        if deviceName != nil || deviceAddress != nil {
            var device: [String] = []
            if let deviceName { device.append("\"name\":" + JSONText.quoted(deviceName)) }
            if let deviceAddress { device.append("\"address\":" + JSONText.quoted(deviceAddress)) }
            line += ",\"device\":{" + device.joined(separator: ",") + "}"
        }
        if let mtu { line += ",\"mtu\":\(mtu)" }
        return line + "}"
    }
}
