// BottleSimulator: a simulated Aquavate bottle behind a BlueZ-faithful D-Bus service.
//
//     let sim = try await BottleSimulator.start(bus: .address(bus.address),
//                                               configuration: .init(records: 40).withTestTimings())
//     … drive it with any BlueZ client …
//     #expect(sim.model.unsyncedCount == 0)
//     await sim.stop()
//
// The bottle (`BottleModel`) follows docs/protocol.md, bugs included; the D-Bus side follows
// bluetoothd 5.66 (docs/bluez.md section 7), in either GATT-cache and battery configuration, with the
// faults of `SimulatorFault`.
import AquavateProtocol
import DBus
import Foundation
import Timekeeping

package final class BottleSimulator: Sendable {
    let core: SimulatedBlueZ

    private init(core: SimulatedBlueZ) {
        self.core = core
    }

    /// Connects to `bus`, exports the tree, takes `org.bluez` and starts the bottle's timers.
    /// - Throws: `DBusConnectFailed`, `SimulatorBusNameTaken`, `SimulatorConfigurationInvalid`.
    package static func start(
        bus: BusAddress = .system, configuration: SimulatorConfiguration = SimulatorConfiguration(),
        clock: any WallClock = SystemClock()
    ) async throws -> BottleSimulator {
        try configuration.validate()
        let connection = try await BusConnection.connect(bus, clock: clock)
        let core = SimulatedBlueZ(connection: connection, configuration: configuration, clock: clock)
        do {
            try await core.start()
        } catch {
            await core.stop()
            throw error
        }
        return BottleSimulator(core: core)
    }

    /// Several bottles in range of one adapter, on one connection: the first configuration's
    /// bottle serves the adapter, the managers, the test hooks and `org.bluez` (and takes the
    /// BlueZ-level faults: a bluetoothd restart, the adapter off); every bottle advertises on its
    /// own and has its own device object, link, GATT tree, ring and state file. A client connects
    /// to them one at a time or together, as bluetoothd allows.
    /// - Throws: as `start`, and `SimulatorConfigurationInvalid` for two bottles with one address.
    package static func start(
        bus: BusAddress = .system, bottles configurations: [SimulatorConfiguration], clock: any WallClock = SystemClock()
    ) async throws -> [BottleSimulator] {
        guard let first = configurations.first else { return [] }
        for configuration in configurations { try configuration.validate() }
        let addresses = configurations.map { $0.address.uppercased() }
        guard Set(addresses).count == addresses.count else {
            throw SimulatorConfigurationInvalid(reason: "two bottles with one address (\(addresses.joined(separator: ", ")))")
        }
        let connection = try await BusConnection.connect(bus, clock: clock)
        let owner = SimulatedBlueZ(connection: connection, configuration: first, clock: clock)
        var others: [SimulatedBlueZ] = []
        for configuration in configurations.dropFirst() {
            var configuration = configuration
            configuration.adapterAddress = first.adapterAddress
            configuration.adapterName = first.adapterName
            others.append(SimulatedBlueZ(connection: connection, configuration: configuration, clock: clock, ownsAdapter: false))
        }
        owner.siblings.withLock { $0 = others }
        do {
            for core in others { try await core.start() }
            try await owner.start()  // last: nobody sees org.bluez before every bottle is there
        } catch {
            for core in others { await core.stop() }
            await owner.stop()
            throw error
        }
        return ([owner] + others).map(BottleSimulator.init(core:))
    }

    /// Stops the timers and leaves the bus (the `org.bluez` name goes with the connection).
    package func stop() async {
        await core.stop()
    }

    /// Returns when the simulator's bus connection ends (the bus went away, or `stop()`), with why.
    package func waitUntilDisconnected() async -> String {
        await core.connection.waitUntilDisconnected()
    }

    // MARK: - Looking

    /// A copy of the bottle as it is now.
    package var model: BottleModel {
        core.state.withLock { $0.model }
    }

    /// The device object path (`/org/bluez/hci0/dev_F4_12_FA_00_A3_F4`).
    package var devicePath: DBusObjectPath { core.devicePath }
    /// The adapter path (`/org/bluez/hci0`).
    package var adapterPath: DBusObjectPath { core.adapterPath }
    /// The simulator's own unique name on the bus.
    package var uniqueName: String { core.connection.uniqueName }
    package var configuration: SimulatorConfiguration { core.configuration }

    /// The object path of a characteristic (`…/service0017/char001e`), whether exported now or not.
    package func path(of characteristic: Characteristic) -> DBusObjectPath? {
        core.layout.layout(of: characteristic)?.path
    }

    /// The path of a characteristic's CCCD descriptor.
    package func cccdPath(of characteristic: Characteristic) -> DBusObjectPath? {
        core.layout.layout(of: characteristic)?.cccd?.path
    }

    /// The object path of a service (`…/service0017`).
    package func servicePath(uuid: String) -> DBusObjectPath? {
        core.layout.services.first { AquavateUUID.matches($0.uuid, uuid) }?.path
    }

    /// Whether a central holds the link now.
    package var isConnected: Bool {
        core.state.withLock { $0.link == .connected || $0.link == .disconnecting }
    }

    /// The bottle's state as the state file would hold it.
    package var snapshot: BottleStateSnapshot {
        core.state.withLock { BottleStateSnapshot(model: $0.model, connected: $0.link == .connected) }
    }

    // MARK: - Acting

    /// The user drinks `amountML` ml (recorded from 30 ml up, with a valid clock and a calibration).
    @discardableResult
    package func addDrink(amountML: Int) -> DrinkRecord? { core.addDrink(amountML: amountML) }

    /// Deep sleep: the link (if any) drops as a supervision time-out; no advertising until `wake()`.
    package func sleep() { core.sleep() }
    /// A motion wake: advertising again, Current State zero until the first rebuild.
    package func wake() { core.wake() }
    /// A supervision time-out while the bottle stays awake (it advertises again at once).
    package func dropLink() { core.dropLink() }
    /// The device object vanishes with no Connected=false.
    package func vanish() { core.vanish() }

    package func setBattery(_ percent: UInt8) {
        core.mutate { $0.model.setBattery(percent) }
    }

    /// Turns the adapter on or off, as `Adapter1.Powered` would.
    package func setPowered(_ on: Bool) {
        core.mutate { core.setPowered(on, &$0) }
    }

    /// Changes the bottle directly (e.g. its flags); the change is not announced on D-Bus.
    package func withModel<T>(_ body: (inout BottleModel) -> T) -> T? {
        core.mutate { body(&$0.model) }
    }
}
