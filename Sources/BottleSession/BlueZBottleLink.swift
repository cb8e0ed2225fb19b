// The live `BottleLink`: a BlueZ GATT connection, with the bottle's characteristics named by
// `Characteristic` instead of UUID.

import AquavateProtocol
import BlueZ
import Timekeeping

package final class BlueZBottleLink: BottleLink {
    package let connection: GATTConnection

    package init(_ connection: GATTConnection) {
        self.connection = connection
    }

    /// The characteristics a session cannot work without (the connector waits for them, and
    /// treats their absence as a stale GATT cache, docs/bluez.md F7).
    package static let requiredCharacteristics: [Characteristic] = [.currentState, .syncControl, .drinkData, .command]

    package var address: String { connection.address }
    package var name: String? { connection.name }

    package func mtu() async -> Int? { await connection.mtu() }

    package func offers(_ characteristic: Characteristic) -> Bool {
        connection.characteristic(characteristic.uuid) != nil
    }

    package func read(_ characteristic: Characteristic) async throws -> [UInt8] {
        try await connection.read(characteristic.uuid)
    }

    package func write(_ characteristic: Characteristic, _ value: [UInt8]) async throws {
        try await connection.write(characteristic.uuid, value, type: .request)
    }

    package func startNotifications(_ characteristic: Characteristic) async throws {
        try await connection.startNotify(characteristic.uuid)
    }

    package func startBatteryReports() async throws -> Int? {
        try await connection.startBatteryReports(batteryLevelUUID: Characteristic.batteryLevel.uuid)
    }

    package func nextEvent(within timeout: Duration) async -> LinkEvent? {
        let clock = connection.client.clock
        let deadline = clock.deadline(after: timeout)
        // Progress: every pass takes one event off the queue (skipping values of characteristics
        // the bottle protocol does not name) or returns; the time-out is one for the whole call.
        // An ended queue answers `.ended` at once: that is `.lost` again, for every call.
        while true {
            let remaining = clock.timeLeft(until: deadline)
            switch await connection.events.next(within: max(.zero, remaining)) {
            case .timedOut:
                return nil
            case .ended:
                return .lost((connection.lostReason ?? .local).description)
            case .element(.linkLost(let loss)):
                return .lost(loss.description)
            case .element(.battery(let percent)):
                return .battery(percent)
            case .element(.value(let uuid, let bytes)):
                guard let characteristic = Characteristic(nameOrUUID: uuid) else { continue }
                return .value(characteristic, bytes)
            }
        }
    }

    package func readDeviceInformation(_ field: DeviceInformationField) async throws -> [UInt8]? {
        guard connection.characteristic(field.uuid) != nil else { return nil }
        return try await connection.read(field.uuid)
    }

    package func disconnect() async {
        await connection.disconnect()
    }
}
