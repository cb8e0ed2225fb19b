// The bottle's attribute table as BlueZ exports it: NimBLE's handle order (GAP, GATT, then the
// application services), object paths built from declaration handles the way bluetoothd's
// gatt-client.c builds them (`…/service%04x/char%04x/desc%04x`), and which services bluetoothd
// keeps to itself (GAP by its gap plugin; Battery by its battery plugin, 5.48–5.79).
import AquavateProtocol
import DBus

/// What a characteristic's value comes from.
enum AttributeSource: Hashable, Sendable {
    case aquavate(Characteristic)
    case deviceInformation(DeviceInformationItem)
    case deviceName
    case appearance
    case serviceChanged
}

struct CharacteristicLayout: Hashable, Sendable {
    var uuid: String
    /// The declaration handle: the last four hex digits of the path, and `Handle`.
    var handle: UInt16
    var valueHandle: UInt16 { handle + 1 }
    var flags: [String]
    var source: AttributeSource
    var path: DBusObjectPath
    var servicePath: DBusObjectPath
    /// The Client Characteristic Configuration descriptor, for notifying characteristics.
    var cccd: DescriptorLayout?

    var canRead: Bool { flags.contains("read") }
    var canWrite: Bool { flags.contains("write") }
    var canWriteWithoutResponse: Bool { flags.contains("write-without-response") }
    var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
}

struct DescriptorLayout: Hashable, Sendable {
    static let cccdUUID = "00002902-0000-1000-8000-00805f9b34fb"
    var uuid: String
    var handle: UInt16
    var path: DBusObjectPath
    var characteristicPath: DBusObjectPath
}

struct ServiceLayout: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case genericAccess, genericAttribute, deviceInformation, battery, aquavate }
    var kind: Kind
    var uuid: String
    var handle: UInt16
    var path: DBusObjectPath
    var characteristics: [CharacteristicLayout]
}

struct GattLayout: Sendable {
    let services: [ServiceLayout]

    static func uuid16(_ value: UInt16) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
    }

    static func path(_ base: DBusObjectPath, _ kind: String, _ handle: UInt16) -> DBusObjectPath {
        let hex = String(handle, radix: 16)
        return base.appending(kind + String(repeating: "0", count: 4 - hex.count) + hex)
    }

    /// The bottle's table under `devicePath`, handles assigned in NimBLE's order.
    init(devicePath: DBusObjectPath) {
        var handle: UInt16 = 1
        var services: [ServiceLayout] = []

        func service(_ kind: ServiceLayout.Kind, _ uuid: String,
                     _ characteristics: [(uuid: String, flags: [String], source: AttributeSource)]) {
            let serviceHandle = handle
            let servicePath = GattLayout.path(devicePath, "service", serviceHandle)
            handle += 1
            var built: [CharacteristicLayout] = []
            for characteristic in characteristics {
                let declaration = handle
                let path = GattLayout.path(servicePath, "char", declaration)
                handle += 2  // declaration + value
                var layout = CharacteristicLayout(uuid: characteristic.uuid, handle: declaration,
                                                  flags: characteristic.flags, source: characteristic.source,
                                                  path: path, servicePath: servicePath)
                if layout.canNotify {
                    layout.cccd = DescriptorLayout(uuid: DescriptorLayout.cccdUUID, handle: handle,
                                                   path: GattLayout.path(path, "desc", handle), characteristicPath: path)
                    handle += 1
                }
                built.append(layout)
            }
            services.append(ServiceLayout(kind: kind, uuid: uuid, handle: serviceHandle, path: servicePath,
                                          characteristics: built))
        }

        service(.genericAccess, Self.uuid16(0x1800), [
            (Self.uuid16(0x2A00), ["read"], .deviceName),
            (Self.uuid16(0x2A01), ["read"], .appearance),
        ])
        service(.genericAttribute, Self.uuid16(0x1801), [
            (Self.uuid16(0x2A05), ["indicate"], .serviceChanged),
        ])
        service(.deviceInformation, AquavateUUID.deviceInformationService,
                DeviceInformationItem.allCases.map { ($0.uuid, ["read"], .deviceInformation($0)) })
        service(.battery, AquavateUUID.batteryService, [
            (Characteristic.batteryLevel.uuid, ["read", "notify"], .aquavate(.batteryLevel)),
        ])
        let aquavate: [Characteristic] = [
            .currentState, .bottleConfig, .syncControl, .drinkData, .command, .deviceSettings, .activityStats,
            .calibrationState,
        ]
        service(.aquavate, AquavateUUID.service, aquavate.map { ($0.uuid, Self.flags(of: $0), .aquavate($0)) })
        self.services = services
    }

    /// docs/protocol.md 2.2: every writable characteristic has Write only (no Write Without Response).
    static func flags(of characteristic: Characteristic) -> [String] {
        switch characteristic {
        case .currentState, .drinkData, .activityStats, .calibrationState, .batteryLevel: return ["read", "notify"]
        case .bottleConfig, .syncControl, .deviceSettings: return ["read", "write"]
        case .command: return ["write"]
        }
    }

    /// Every primary service UUID, sorted as BlueZ keeps `Device1.UUIDs`.
    var allServiceUUIDs: [String] { services.map(\.uuid).sorted() }

    /// The services bluetoothd exports on D-Bus: not GAP (its gap plugin claims it), not Battery
    /// when the battery plugin claims it, and, with a stale cache, not the Aquavate service.
    func exported(batteryPlugin: Bool, stale: Bool) -> [ServiceLayout] {
        services.filter { service in
            switch service.kind {
            case .genericAccess: return false
            case .battery: return !batteryPlugin
            case .aquavate: return !stale
            case .genericAttribute, .deviceInformation: return true
            }
        }
    }

    /// The characteristic carrying `characteristic`.
    func layout(of characteristic: Characteristic) -> CharacteristicLayout? {
        for service in services {
            if let found = service.characteristics.first(where: { $0.source == .aquavate(characteristic) }) { return found }
        }
        return nil
    }

    func characteristic(at path: DBusObjectPath) -> CharacteristicLayout? {
        for service in services {
            if let found = service.characteristics.first(where: { $0.path == path }) { return found }
        }
        return nil
    }

    func descriptor(at path: DBusObjectPath) -> (DescriptorLayout, CharacteristicLayout)? {
        for service in services {
            for characteristic in service.characteristics where characteristic.cccd?.path == path {
                return (characteristic.cccd!, characteristic)
            }
        }
        return nil
    }
}
