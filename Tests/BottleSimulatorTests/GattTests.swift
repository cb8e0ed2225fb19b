// Reads, writes and notifications through D-Bus: the read echo (docs/bluez.md 7.2), notifications
// before the write reply (docs/protocol.md 0), a whole sync, MTU truncation and the long read-back,
// notify sessions owned by D-Bus connections (docs/bluez.md 7.7), CCCDs, Device Information.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import DBus
import Foundation
import Testing

@Suite struct GattTests {
    @Test func aReadSetsValueAndEchoesAsAPropertiesChangedBeforeTheReply() async throws {
        try await withSimulator(testConfiguration(records: 5), monitor: true) { h in
            try await h.connectFresh()
            #expect(try await h.properties(h.path(.syncControl), BlueZNames.characteristic)["Value"] == nil)
            let value = try await h.read(.syncControl)
            #expect(value == SyncControl(count: 5, command: .query, status: .idle, chunkSize: 20).encoded())
            #expect(try await h.property(h.path(.syncControl), BlueZNames.characteristic, "Value")?.bytes == value)
            let events = try await h.wire(after: "ReadValue", until: "reply ReadValue") { $0 == "reply ReadValue" }
            expectInOrder(events, ["call ReadValue", "changed char001d GattCharacteristic1.Value=8 bytes", "reply ReadValue"])
        }
    }

    @Test func deviceInformationAndOtherReads() async throws {
        try await withSimulator(testConfiguration { $0.bottle.deviceInformationStyle = .nulTerminated }) { h in
            try await h.connectFresh()
            let objects = try await h.objects()
            func read(_ uuid: String) async throws -> [UInt8] {
                let path = try #require(objects.first { $0.value[BlueZNames.characteristic]?["UUID"]?.string == uuid }?.key)
                return try await h.call(path, BlueZNames.characteristic, "ReadValue", [.variantDictionary([:])]).decode(0)
            }
            #expect(try await read(DeviceInformationItem.manufacturer.uuid) == Array("Aquavate\0".utf8))
            #expect(try await read(DeviceInformationItem.modelNumber.uuid) == Array("Puck v1.0\0".utf8))
            #expect(DeviceInformation.cleanString(try await read(DeviceInformationItem.firmwareRevision.uuid)) == "0.1.0")
            #expect(DeviceInformation.cleanString(try await read(AquavateUUID.serialNumber)) == "F4:12:FA:00:A3:F2")
            await expectFailure("org.bluez.Error.NotPermitted", "Read not permitted") { _ = try await h.read(.command) }
            // Offsets: the tail of the value.
            let tail: [UInt8] = try await h.call(h.path(.currentState), BlueZNames.characteristic, "ReadValue",
                                                 [.variantDictionary(["offset": .uint16(12)])]).decode(0)
            #expect(tail.count == 2)
            let config = try BottleConfig(decoding: try await h.read(.bottleConfig))
            #expect(config.dailyGoalML == 2500)
        }
    }

    @Test func writesFollowBlueZTypeRules() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.connectFresh()
            await expectFailure("org.bluez.Error.NotPermitted", "Write not permitted") {
                try await h.write(.currentState, [1, 2, 3])
            }
            await expectFailure("org.bluez.Error.NotSupported") { try await h.write(.command, [2, 0, 0, 0], type: "bogus") }
            // A write command on the bottle's write-only characteristic reaches it (NimBLE accepts it).
            try await h.write(.deviceSettings, [1, 0, 0, 0], type: "command")
            #expect(try await h.read(.deviceSettings) == [1, 0, 0, 0])
            // Without a type, a write request.
            try await h.call(h.path(.deviceSettings), BlueZNames.characteristic, "WriteValue",
                             [.bytes([0, 0, 0, 0]), .variantDictionary([:])])
            #expect(try await h.read(.deviceSettings) == [0, 0, 0, 0])
            await expectFailure("org.bluez.Error.NotSupported") {
                try await h.call(h.path(.command), BlueZNames.characteristic, "AcquireNotify", [.variantDictionary([:])])
            }
        }
    }

    @Test func aSyncOfFortyRecordsThroughBlueZ() async throws {
        try await withSimulator(testConfiguration(records: 40), monitor: true) { h in
            try await h.connectFresh()
            try await h.startNotify(.drinkData)
            try await h.startNotify(.currentState)
            let from = h.signals.count
            let records = try await h.syncAll(count: 40, chunkSize: 17)
            #expect(records.map(\.recordID) == Array(1...40))
            #expect(records == h.sim.configuration.records)
            let state = try await h.signals.wait("the forced Current State", from: from) {
                $0.path == h.path(.currentState) && $0.value.flatMap { try? CurrentState(decoding: $0) }?.unsyncedCount == 0
            }
            #expect(state.index > 0)
            #expect(h.sim.model.unsyncedCount == 0)
            #expect(h.sim.model.records.allSatisfy { $0.flagsRaw == 0x01 })
            // Each chunk reached the bus before the reply to the write that caused it. dbus-monitor
            // may lag behind the sync: wait until its log holds all four write replies.
            try await waitUntil(.seconds(10), "dbus-monitor to log the four WriteValue replies") {
                try await h.wire("any event") { _ in true }.filter { $0 == "reply WriteValue" }.count >= 4
            }
            let events = try await h.wire("the final ACK's reply") { _ in true }
            let writes = events.enumerated().filter { $0.element == "call WriteValue" }.map(\.offset)
            #expect(writes.count == 4)  // START + 3 ACKs
            for (number, start) in writes.prefix(3).enumerated() {
                let window = Array(events[start...])
                let chunk = try #require(window.firstIndex { $0.hasPrefix("changed char001f GattCharacteristic1.Value=") })
                let reply = try #require(window.firstIndex(of: "reply WriteValue"))
                #expect(chunk < reply, "chunk \(number) before its write reply")
            }
        }
    }

    @Test func aFullRingOfSixHundredSyncsInThirtySixChunks() async throws {
        try await withSimulator(testConfiguration(records: 600)) { h in
            try await h.connectFresh()
            try await h.startNotify(.drinkData)
            let started = ContinuousClock.now
            let records = try await h.syncAll(count: 600, chunkSize: 17)
            let elapsed = ContinuousClock.now - started
            #expect(records.map(\.recordID) == Array(1...600))
            try await waitUntil("all 600 marked") { h.sim.model.unsyncedCount == 0 }
            print("600 records in 36 chunks through the simulator: \(elapsed)")
        }
    }

    @Test func aTwentyRecordChunkIsTruncatedAndAReadGivesItWhole() async throws {
        try await withSimulator(testConfiguration(records: 40)) { h in
            try await h.connectFresh()
            try await h.startNotify(.drinkData)
            let from = h.signals.count
            try await h.start(count: 40, chunkSize: 20)
            let notified = try await h.notification(.drinkData, from: from)
            #expect(notified.value.count == 244)
            #expect(throws: ProtocolError.self) { try DrinkDataChunk(decoding: notified.value) }
            // The long read returns all 286 bytes, and echoes them as a notification (7.2).
            let read = try await h.read(.drinkData)
            #expect(read.count == 286)
            #expect(try DrinkDataChunk(decoding: read).records.count == 20)
            let echo = try await h.notification(.drinkData, from: notified.index + 1)
            #expect(echo.value == read)
        }
    }

    @Test func mtu23And185CutNotificationsAccordingly() async throws {
        for (mtu, chunk, expected) in [(23, 1, 20), (23, 17, 20), (185, 12, 174), (185, 17, 182)] {
            try await withSimulator(testConfiguration(records: 20) { $0.faults = [.mtu(mtu)] }) { h in
                try await h.connectFresh()
                #expect(try await h.property(h.path(.drinkData), BlueZNames.characteristic, "MTU") == .uint16(UInt16(mtu)))
                try await h.startNotify(.drinkData)
                let from = h.signals.count
                try await h.start(count: 20, chunkSize: chunk)
                #expect(try await h.notification(.drinkData, from: from).value.count == expected, "MTU \(mtu), chunk \(chunk)")
            }
        }
    }

    @Test func notifySessionsBelongToTheirConnection() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.connectFresh()
            let other = try await BusConnection.connect(.address(h.bus.address))
            let path = h.path(.currentState)
            var from = h.signals.count
            try await h.startNotify(.currentState, on: other)
            try await h.signals.wait("Notifying=true", from: from) {
                $0.isChange(path, BlueZNames.characteristic, "Notifying", .bool(true))
            }
            try await h.startNotify(.currentState, on: other)  // a second StartNotify of the same client: fine
            try await h.startNotify(.currentState)
            await expectFailure("org.bluez.Error.Failed", "No notify session started") {
                try await h.call(h.path(.drinkData), BlueZNames.characteristic, "StopNotify")
            }
            // The other client leaves the bus: its session ends, ours keeps Notifying true.
            from = h.signals.count
            await other.close()
            try await waitUntil("the session ended") { h.sim.core.state.withLock { $0.sessions[path]?.count == 1 } }
            #expect(try await h.property(path, BlueZNames.characteristic, "Notifying") == .bool(true))
            // Ours stops: Notifying false, and notifications no longer reach BlueZ.
            try await h.call(path, BlueZNames.characteristic, "StopNotify")
            try await h.signals.wait("Notifying=false", from: from) {
                $0.isChange(path, BlueZNames.characteristic, "Notifying", .bool(false))
            }
            from = h.signals.count
            h.sim.addDrink(amountML: 200)
            try await h.startNotify(.drinkData)  // a later signal to wait for
            try await h.signals.wait("Notifying on Drink Data", from: from) {
                $0.isChange(h.path(.drinkData), BlueZNames.characteristic, "Notifying", .bool(true))
            }
            #expect(!h.signals.all[from...].contains { $0.path == path && $0.value != nil })
            await expectFailure("org.bluez.Error.NotSupported") { try await h.startNotify(.command) }
        }
    }

    @Test func startNotifyWhileDisconnectedRegistersAtTheNextConnection() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.connectFresh()
            try await h.disconnect()
            try await waitUntil("disconnected") { !h.sim.isConnected }
            try await h.startNotify(.calibrationState)  // cached object, no link: accepted, registered later
            #expect(try await h.property(h.path(.calibrationState), BlueZNames.characteristic, "Notifying") == .bool(false))
            let from = h.signals.count
            try await h.discover()
            try await h.connect()
            try await h.signals.wait("Notifying=true at the connection", from: from) {
                $0.isChange(h.path(.calibrationState), BlueZNames.characteristic, "Notifying", .bool(true))
            }
        }
    }

    @Test func theCCCDCannotBeWrittenButCanBeRead() async throws {
        try await withSimulator(testConfiguration()) { h in
            try await h.connectFresh()
            let cccd = try #require(h.sim.cccdPath(of: .drinkData))
            await expectFailure("org.bluez.Error.NotPermitted", "Write not permitted") {
                try await h.call(cccd, BlueZNames.descriptor, "WriteValue", [.bytes([1, 0]), .variantDictionary([:])])
            }
            #expect(try await h.call(cccd, BlueZNames.descriptor, "ReadValue", [.variantDictionary([:])]).decode(0)
                == [UInt8]([0, 0]))
            try await h.startNotify(.drinkData)
            #expect(try await h.call(cccd, BlueZNames.descriptor, "ReadValue", [.variantDictionary([:])]).decode(0)
                == [UInt8]([1, 0]))
        }
    }

    @Test func commandsThroughDBus() async throws {
        try await withSimulator(testConfiguration(records: 3)) { h in
            try await h.connectFresh()
            try await h.startNotify(.currentState)
            try await h.startNotify(.activityStats)
            // SET_TIME, then DELETE always answers with a forced Current State.
            try await h.write(.command, Command.setTime(2_000_000_000).encoded())
            #expect(h.sim.model.bottleTime >= 2_000_000_000)
            var from = h.signals.count
            try await h.write(.command, Command.deleteDrinkRecord(2).encoded())
            let forced = try CurrentState(decoding: try await h.notification(.currentState, from: from).value)
            #expect(forced.unsyncedCount == 3)
            #expect(h.sim.model.flagsByID[2] == 0x04)
            from = h.signals.count
            try await h.write(.command, Command.deleteDrinkRecord(999).encoded())
            _ = try await h.notification(.currentState, from: from)
            // Activity Stats answer on their characteristic.
            from = h.signals.count
            try await h.write(.command, Command.getActivitySummary.encoded())
            #expect(try await h.notification(.activityStats, from: from).value.count == 12)
            // PING, RESET_DAILY, CLEAR_HISTORY: no reply of their own.
            try await h.write(.command, Command.ping.encoded())
            try await h.write(.command, Command.clearHistory.encoded())
            #expect(h.sim.model.records.isEmpty)
            #expect(h.sim.addDrink(amountML: 80)?.recordID == 1)
        }
    }

    @Test func theStateFileFollowsEveryChange() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sim-state-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try await withSimulator(testConfiguration(records: 4) { $0.stateFile = file }) { h in
            func state() throws -> BottleStateSnapshot {
                try JSONDecoder().decode(BottleStateSnapshot.self, from: Data(contentsOf: file))
            }
            #expect(try state().unsyncedCount == 4)
            #expect(try state().records.count == 4)
            try await h.connectFresh()
            try await h.startNotify(.drinkData)
            try await h.start(count: 4, chunkSize: 17)
            #expect(try state().sync.status == .inProgress)
            #expect(try state().connected)
            try await h.ack()
            let final = try state()
            #expect(final.unsyncedCount == 0)
            #expect(final.sync.status == .idle)
            #expect(final.records.allSatisfy { $0.synced && !$0.deleted && $0.flags == 1 })
        }
    }
}
