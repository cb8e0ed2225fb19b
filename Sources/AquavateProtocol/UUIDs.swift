// The bottle's GATT identifiers (docs/protocol.md section 2, Appendix A).
//
// UUIDs are kept as lower-case strings, the way BlueZ reports them; compare with
// `AquavateUUID.matches(_:_:)`, which ignores case as docs/protocol.md 2 requires.

public enum AquavateUUID {
    /// The Aquavate primary service.
    public static let service = "6f75616b-7661-7465-2d00-000000000000"
    /// Standard 16-bit services and characteristics, in their 128-bit form.
    public static let deviceInformationService = "0000180a-0000-1000-8000-00805f9b34fb"
    public static let batteryService = "0000180f-0000-1000-8000-00805f9b34fb"
    /// Device Information's Serial Number String (the bottle's Wi-Fi MAC, docs/protocol.md 2.1).
    public static let serialNumber = "00002a25-0000-1000-8000-00805f9b34fb"

    /// Case-insensitive UUID comparison.
    public static func matches(_ a: String, _ b: String) -> Bool {
        a.lowercased() == b.lowercased()
    }
}

/// Every characteristic the bridge knows, with the short name used in `.aqcap` files
/// (docs/design.md 3.3) and its UUID.
public enum Characteristic: String, CaseIterable, Sendable, Hashable, Codable {
    case currentState = "current-state"
    case bottleConfig = "bottle-config"
    case syncControl = "sync-control"
    case drinkData = "drink-data"
    case command = "command"
    case deviceSettings = "device-settings"
    case activityStats = "activity-stats"
    case calibrationState = "calibration-state"
    case batteryLevel = "battery-level"

    /// The capture-file name (`char` field of an `.aqcap` event).
    public var captureName: String { rawValue }

    /// The characteristic's UUID, lower-case.
    public var uuid: String {
        switch self {
        case .currentState: return "6f75616b-7661-7465-2d00-000000000001"
        case .bottleConfig: return "6f75616b-7661-7465-2d00-000000000002"
        case .syncControl: return "6f75616b-7661-7465-2d00-000000000003"
        case .drinkData: return "6f75616b-7661-7465-2d00-000000000004"
        case .command: return "6f75616b-7661-7465-2d00-000000000005"
        case .deviceSettings: return "6f75616b-7661-7465-2d00-000000000006"
        case .activityStats: return "6f75616b-7661-7465-2d00-000000000007"
        case .calibrationState: return "6f75616b-7661-7465-2d00-000000000008"
        case .batteryLevel: return "00002a19-0000-1000-8000-00805f9b34fb"
        }
    }

    /// The service the characteristic belongs to.
    public var serviceUUID: String {
        self == .batteryLevel ? AquavateUUID.batteryService : AquavateUUID.service
    }

    /// Finds a characteristic by its capture name or by its UUID (any case).
    public init?(nameOrUUID text: String) {
        if let byName = Characteristic(rawValue: text) { self = byName; return }
        let lower = text.lowercased()
        guard let byUUID = Characteristic.allCases.first(where: { $0.uuid == lower }) else { return nil }
        self = byUUID
    }
}
