// What a bottle session needs from the link to the bottle. The live bridge gives it BlueZ's
// GATT connection (`BlueZBottleLink`); tests give it a scripted fake (bleak-retry-connector's
// pattern, docs/bluez.md 6), so the sync logic is tested without D-Bus or hardware.

import AquavateProtocol

/// The GATT side of one connection to one bottle.
///
/// Errors: an operation on a lost link throws BlueZ's `LinkLost`; anything else is a failure of
/// that operation.
package protocol BottleLink: Sendable {
    var address: String { get }
    var name: String? { get }
    /// The ATT MTU, nil when unknown (then the chunk size is 1, docs/protocol.md 4.4).
    func mtu() async -> Int?
    /// Whether the bottle offers the characteristic.
    func offers(_ characteristic: Characteristic) -> Bool
    func read(_ characteristic: Characteristic) async throws -> [UInt8]
    /// A Write Request (the bottle has no write-without-response characteristic).
    func write(_ characteristic: Characteristic, _ value: [UInt8]) async throws
    /// Starts notifications; from the moment this is called their values arrive as events.
    func startNotifications(_ characteristic: Characteristic) async throws
    /// The battery percentage now, and its changes as `.battery` events from then on (BlueZ's
    /// Battery1 or the GATT Battery Level); nil when the bottle offers neither.
    func startBatteryReports() async throws -> Int?
    /// The next event, waiting at most `timeout`; nil when the time ran out. After the link is
    /// lost, `.lost` again at every call.
    func nextEvent(within timeout: Duration) async -> LinkEvent?
    /// Ends the connection (and with it the notifications).
    func disconnect() async
    /// A Device Information string as read (docs/protocol.md 2.1); nil when the bottle does not
    /// offer it.
    func readDeviceInformation(_ field: DeviceInformationField) async throws -> [UInt8]?
}

extension BottleLink {
    /// A link without Device Information (scripted test links).
    package func readDeviceInformation(_ field: DeviceInformationField) async throws -> [UInt8]? { nil }
}

/// Something the link reported, in order.
package enum LinkEvent: Sendable, Equatable {
    /// A notification (or BlueZ's echo of a read, docs/bluez.md 7.2) of a characteristic.
    case value(Characteristic, [UInt8])
    /// The battery percentage from `org.bluez.Battery1`.
    case battery(Int)
    /// The link ended; the text says how.
    case lost(String)
}
