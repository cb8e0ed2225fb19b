// One bottle heard in several rooms (`sharedBottleDirectory`): two simulators, each on its own
// bus, are one physical bottle — one link (a second room's Connect fails as BlueZ fails it for a
// bottle that does not answer, and succeeds once the first room lets go), one drink store
// (records synced or added in one room are so in the other). And several bottles on one bus.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import DBus
import Foundation
import Testing

@Suite struct SharedBottleTests {
    func rooms(records: Int = 5, _ body: (SimulatorHarness, SimulatorHarness) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-bottle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let share: (inout SimulatorConfiguration) -> Void = {
            $0.sharedBottleDirectory = directory
            $0.connectTimeout = .milliseconds(600)
        }
        try await withSimulator(testConfiguration(records: records, share)) { kitchen in
            try await withSimulator(testConfiguration(records: 0, share)) { office in
                try await body(kitchen, office)
            }
        }
    }

    @Test("one link: a second room's Connect fails with le-connection-abort-by-local while the first holds it, then succeeds")
    func oneLinkAtATime() async throws {
        try await rooms { kitchen, office in
            try await office.discover()
            try await kitchen.connectFresh()
            #expect(kitchen.sim.isConnected)
            await expectFailure("org.bluez.Error.Failed", "le-connection-abort-by-local") { try await office.connect() }
            #expect(!office.sim.isConnected)
            #expect(try await office.property(office.devicePath, BlueZNames.device, "Connected")?.bool == false,
                    "no Connected flip: nothing was linked")
            try await kitchen.disconnect()
            try await office.connect()  // the bottle advertises again and the office links
            #expect(office.sim.isConnected && !kitchen.sim.isConnected)
        }
    }

    @Test("one store: the second room takes the first's records; a drink or a sync in one room shows in the other")
    func oneStore() async throws {
        try await rooms(records: 5) { kitchen, office in
            try await waitUntil(.seconds(5), "the office to take the kitchen's ring") { office.sim.model.records.count == 5 }
            let drink = try #require(office.sim.addDrink(amountML: 200))
            #expect(drink.recordID == 6, "one id counter")
            try await waitUntil(.seconds(5), "the kitchen to hear of the office's drink") { kitchen.sim.model.records.count == 6 }
            kitchen.sim.withModel { $0.setFlags(DrinkRecordFlags.synced.rawValue, recordID: 1) }
            try await waitUntil(.seconds(5), "the office to see record 1 synced") { office.sim.model.unsyncedCount == 5 }
            #expect(kitchen.sim.model.records == office.sim.model.records)
        }
    }

    @Test("several bottles on one bus: each its own device object, all advertising; one adapter")
    func severalBottlesOneBus() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        var second = testConfiguration(records: 3)
        second.address = "F4:12:FA:00:A3:F8"
        let bottles = try await BottleSimulator.start(bus: .address(bus.address), bottles: [testConfiguration(records: 2), second])
        let client = try await BusConnection.connect(.address(bus.address))
        _ = try await client.call(destination: "org.bluez", path: bottles[0].adapterPath, interface: BlueZNames.adapter,
                              method: "StartDiscovery", arguments: [], timeout: .seconds(5))
        try await waitUntil(.seconds(5), "both bottles' device objects") {
            let objects = try await client.managedObjects(destination: "org.bluez")
            return bottles.allSatisfy { objects[$0.devicePath]?[BlueZNames.device] != nil }
        }
        let objects = try await client.managedObjects(destination: "org.bluez")
        #expect(objects.keys.filter { $0.rawValue.hasPrefix("/org/bluez/hci0/dev_") }.count == 2)
        #expect(objects[bottles[1].devicePath]?[BlueZNames.device]?["Name"]?.unwrapped.string == "Aquavate-A3F6")
        #expect(bottles.map { $0.model.records.count } == [2, 3])
        await #expect(throws: Error.self, "one address, two bottles") {
            _ = try await BottleSimulator.start(bus: .address(bus.address), bottles: [second, second])
        }
        await client.close()
        for bottle in bottles.reversed() { await bottle.stop() }
    }
}
