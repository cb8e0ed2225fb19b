// The `aquavate-sim` executable, and bleak (the Python BLE library Home Assistant uses) syncing 40
// records from it on a private bus, exactly as it would from a bottle behind bluetoothd.
@testable import BottleSimulator
import BusTestSupport
import DBus
import Foundation
import ProcessSupport
import Testing

/// The built `aquavate-sim`, next to the test bundle.
let simulatorBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("aquavate-sim").path

/// The package's root folder.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Spawns `aquavate-sim` on `bus` and waits until it owns org.bluez.
func spawnSimulator(on bus: PrivateBus, _ arguments: [String]) async throws -> ChildProcess {
    let process = try bus.spawn(simulatorBinary, ["--bus", bus.address] + arguments, logName: "aquavate-sim")
    let client = try await BusConnection.connect(.address(bus.address))
    defer { Task { await client.close() } }
    try await waitUntil("aquavate-sim owning org.bluez", timeout: .seconds(20)) {
        guard process.isRunning else {
            throw HarnessFailure(description: "aquavate-sim exited: \(bus.log("aquavate-sim"))")
        }
        return try await client.nameOwner("org.bluez") != nil
    }
    return process
}

/// Waits (at most `timeout`) for `process` to exit; SIGKILLs it if it does not (P7).
func waitForExit(_ process: ChildProcess, timeout: Duration = .seconds(10)) async throws -> Int32 {
    guard let status = await process.waitForExit(timeout: timeout) else {
        process.killNow()
        throw HarnessFailure(description: "the process did not exit within \(timeout)")
    }
    return status
}

@Suite struct SimulatorExecutableTests {
    @Test func helpDocumentsEveryFaultAndOption() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let result = try await bus.run(simulatorBinary, ["--help"])
        #expect(result.status == 0)
        for entry in SimulatorFault.catalogue { #expect(result.output.contains(entry.name), "fault \(entry.name)") }
        for option in ["--bus", "--records", "--records-file", "--name", "--address", "--fault", "--gatt-cache", "--battery",
                       "--disconnect-delay", "--state-file"] {
            #expect(result.output.contains(option), "option \(option)")
        }
        let bad = try await bus.run(simulatorBinary, ["--fault", "explode"])
        #expect(bad.status != 0)
        #expect(bad.error.contains("unknown fault \"explode\""))
        let noBus = try await bus.run(simulatorBinary, ["--bus", "unix:path=/nonexistent/bus.sock"])
        #expect(noBus.status != 0)
        #expect(noBus.error.contains("cannot connect to the D-Bus bus"))
    }

    @Test func itServesRecordsFromAFileWritesItsStateAndStopsOnSIGTERM() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let records = bus.directory.appendingPathComponent("records.json")
        try Data("""
            [{"record_id": 7, "timestamp": 1763700000, "amount_ml": 120, "bottle_level_ml": 500, "type": 1, "flags": 0},
             {"record_id": 8, "timestamp": 1763700600, "amount_ml": 45, "bottle_level_ml": 455, "type": 0, "flags": 1},
             {"record_id": 9, "timestamp": 1763701200, "amount_ml": 60, "bottle_level_ml": 395, "type": 0, "flags": 0}]
            """.utf8).write(to: records)
        let state = bus.directory.appendingPathComponent("state.json")
        let process = try await spawnSimulator(on: bus, [
            "--records-file", records.path, "--state-file", state.path, "--fault", "wedge", "--name", "Aquavate-BEEF",
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let snapshot = try JSONDecoder().decode(BottleStateSnapshot.self, from: Data(contentsOf: state))
        #expect(snapshot.records.map(\.recordID) == [7, 8, 9])
        #expect(snapshot.records.map(\.flags) == [0, 1, 4])  // the wedge: the newest unsynced is deleted
        #expect(snapshot.unsyncedCount == 2)
        #expect(snapshot.nextRecordID == 10)

        let client = try await BusConnection.connect(.address(bus.address))
        let objects = try await client.managedObjects(destination: "org.bluez")
        #expect(objects["/org/bluez/hci0"]?["org.bluez.Adapter1"] != nil)
        let json = try await client.call(destination: "org.bluez", path: "/", interface: "org.aquavate.Simulator1",
                                         method: "State").decode(0, as: String.self)
        #expect(json.contains("\"unsynced_count\" : 2"))
        await client.close()

        kill(process.processIdentifier, SIGTERM)
        #expect(try await waitForExit(process) == 0)
        #expect(bus.log("aquavate-sim").contains("stopping"))
    }
}

@Suite struct BleakTests {
    /// A venv with bleak, made once under `.build-bleak-venv/` (gitignored) and reused.
    private func bleakPython(_ bus: PrivateBus) async throws -> String {
        let venv = packageRoot.appendingPathComponent(".build-bleak-venv")
        let python = venv.appendingPathComponent("bin/python").path
        if FileManager.default.isExecutableFile(atPath: python),
            try await bus.run(python, ["-c", "import bleak"]).status == 0
        {
            return python
        }
        let made = try await bus.run("/usr/bin/python3", ["-m", "venv", venv.path], timeout: .seconds(120))
        guard made.status == 0 else {
            throw HarnessFailure(description: "python3 -m venv failed (is python3-venv installed?): \(made.error)")
        }
        let pip = try await bus.run(python, ["-m", "pip", "install", "--quiet", "bleak==3.1.0"], timeout: .seconds(300))
        guard pip.status == 0 else {
            throw HarnessFailure(description: "pip install bleak failed (PyPI unreachable?): \(pip.error)")
        }
        return python
    }

    @Test(.timeLimit(.minutes(10)))
    func bleakScansConnectsAndSyncsFortyRecords() async throws {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let python = try await bleakPython(bus)
        let state = bus.directory.appendingPathComponent("state.json")
        let process = try await spawnSimulator(on: bus, [
            "--records", "40", "--disconnect-delay", "0.2", "--state-file", state.path,
        ])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let script = packageRoot.appendingPathComponent("Tests/BottleSimulatorTests/Bleak/sync_40.py").path
        // bleak checks the BlueZ version with `bluetoothctl --version` when it can: answer 5.66.
        let stubs = bus.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
        let stub = stubs.appendingPathComponent("bluetoothctl")
        try Data("#!/bin/sh\necho 'bluetoothctl: 5.66'\n".utf8).write(to: stub)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
        let path = stubs.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try await bus.run(python, [script], timeout: .seconds(120), environment: ["PATH": path])
        #expect(result.status == 0, "bleak: \(result.output) \(result.error)\nsimulator: \(bus.log("aquavate-sim"))")
        #expect(result.output.contains("sync_40: OK: 40 records in 3 chunks"))
        let snapshot = try JSONDecoder().decode(BottleStateSnapshot.self, from: Data(contentsOf: state))
        #expect(snapshot.unsyncedCount == 0)
        #expect(snapshot.records.count == 40 && snapshot.records.allSatisfy(\.synced))
        // bleak used the BlueZ API the way it does on a Pi.
        let log = bus.log("aquavate-sim")
        for call in ["SetDiscoveryFilter", "StartDiscovery", "Device1.Connect", "StartNotify", "WriteValue", "Disconnect"] {
            #expect(log.contains(call), "bleak called \(call)")
        }
    }
}

/// python-dbusmock's `bluez5` template, written by other people, as a second opinion on the shapes
/// of Adapter1 and Device1: every adapter property it has, we have, and every property we share
/// has the same D-Bus type.
@Suite struct DBusMockComparisonTests {
    private func mockTree() async throws -> [DBusObjectPath: [String: [String: DBusValue]]] {
        let bus = try await PrivateBus.start()
        defer { bus.stop() }
        let client = try await BusConnection.connect(.address(bus.address))
        defer { Task { await client.close() } }
        _ = try bus.spawn("/usr/bin/python3", ["-m", "dbusmock", "--template", "bluez5"], logName: "dbusmock")
        try await waitUntil("dbusmock owning org.bluez", timeout: .seconds(30)) {
            try await client.nameOwner("org.bluez") != nil
        }
        _ = try await client.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock", method: "AddAdapter",
                                  arguments: [.string("hci0"), .string("aquavate-hub")])
        _ = try await client.call(destination: "org.bluez", path: "/", interface: "org.bluez.Mock", method: "AddDevice",
                                  arguments: [.string("hci0"), .string("F4:12:FA:00:A3:F4"), .string("Aquavate-A3F2")])
        return try await client.managedObjects(destination: "org.bluez")
    }

    @Test func adapterAndDeviceMatchDBusMockBlueZ5() async throws {
        let mock = try await mockTree()
        try await withSimulator(testConfiguration()) { h in
            try await h.discover()
            let ours = try await h.objects()
            let pairs: [(String, DBusObjectPath)] = [(BlueZNames.adapter, "/org/bluez/hci0"),
                                                     (BlueZNames.device, h.devicePath)]
            for (interface, path) in pairs {
                let theirs = try #require(mock[path]?[interface])
                let mine = try #require(ours[path]?[interface])
                // dbusmock declares AdvertisingFlags as an array *of* `ay` (aay); BlueZ's is `ay`.
                for (name, value) in theirs where name != "AdvertisingFlags" {
                    guard let our = mine[name] else { continue }
                    #expect(our.unwrapped.signature == value.unwrapped.signature, "\(interface).\(name)")
                }
                if interface == BlueZNames.adapter {
                    #expect(Set(theirs.keys).subtracting(mine.keys).isEmpty, "adapter properties we lack")
                } else {
                    // dbusmock fills optional properties BlueZ leaves out until known (Icon, Class,
                    // Appearance, TxPower, ManufacturerData, …); the ones BlueZ always has, we have.
                    for name in ["Address", "AddressType", "Name", "Alias", "Paired", "Trusted", "Blocked", "LegacyPairing",
                                 "Connected", "UUIDs", "Adapter", "ServicesResolved", "RSSI"] {
                        #expect(mine[name] != nil, "Device1.\(name)")
                    }
                }
            }
        }
    }
}
