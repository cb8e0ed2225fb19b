// A simulator on a private bus of its own, a BlueZ client connection to it, a non-destructive log
// of every signal the simulator sends, and (optionally) dbus-monitor for the exact order of
// signals and replies on the wire.
import BusTestSupport
import AquavateProtocol
@testable import BottleSimulator
import DBus
import Foundation
import Locking
import Testing

/// Fast BlueZ timings for tests (the defaults are bluetoothd's).
func testConfiguration(records: Int = 0, _ adjust: (inout SimulatorConfiguration) -> Void = { _ in })
    -> SimulatorConfiguration
{
    var configuration = SimulatorConfiguration(records: records).withTestTimings()
    if ProcessInfo.processInfo.environment["SIM_TEST_LOG"] != nil {
        configuration.log = { line in print("sim: \(line)") }
    }
    adjust(&configuration)
    return configuration
}

enum BlueZNames {
    static let adapter = "org.bluez.Adapter1"
    static let device = "org.bluez.Device1"
    static let battery = "org.bluez.Battery1"
    static let service = "org.bluez.GattService1"
    static let characteristic = "org.bluez.GattCharacteristic1"
    static let descriptor = "org.bluez.GattDescriptor1"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"
    static let simulator = "org.aquavate.Simulator1"
}

/// Every signal from one sender, kept in arrival order (waiting never drops any).
///
/// Signals are taken from the subscription on demand, never by a background task: a signal the
/// bus delivered before a reply is in the subscription's buffer when the call returns, so `count`
/// read right after a call includes it.
final class SignalLog: Sendable {
    private let entries = Locked<[DBusSignal]>([])
    private let subscription: SignalSubscription

    init(_ subscription: SignalSubscription) {
        self.subscription = subscription
    }

    /// Moves what the subscription has buffered into the log, in order.
    private func drained<T>(_ body: ([DBusSignal]) -> T) -> T {
        entries.withLock { entries in
            while let signal = subscription.nextIfAvailable() { entries.append(signal) }
            return body(entries)
        }
    }

    var all: [DBusSignal] { drained { $0 } }
    var count: Int { drained { $0.count } }

    /// The first signal at index ≥ `from` satisfying `predicate`, waiting at most `timeout`.
    @discardableResult
    func wait(_ what: String, from: Int = 0, timeout: Duration = .seconds(10),
              where predicate: (DBusSignal) -> Bool) async throws -> (index: Int, signal: DBusSignal) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = drained { entries -> (Int, DBusSignal)? in
                guard from < entries.count else { return nil }
                for index in from..<entries.count where predicate(entries[index]) { return (index, entries[index]) }
                return nil
            }
            if let found { return found }
            guard ContinuousClock.now < deadline else {
                throw HarnessFailure(description: "\(what) did not arrive within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    func cancel() async { await subscription.cancel() }
}

extension DBusSignal {
    /// The changed properties of a PropertiesChanged of `interface` (nil for other signals).
    func changes(_ interface: String) -> [String: DBusValue]? {
        guard member == "PropertiesChanged", arguments.first?.string == interface else { return nil }
        return arguments[1].stringDictionary
    }

    func invalidated(_ interface: String) -> [String] {
        guard member == "PropertiesChanged", arguments.first?.string == interface, arguments.count > 2 else { return [] }
        return arguments[2].strings ?? []
    }

    func isChange(_ path: DBusObjectPath, _ interface: String, _ name: String, _ value: DBusValue? = nil) -> Bool {
        guard self.path == path, let changed = changes(interface)?[name] else { return false }
        return value.map { changed.unwrapped == $0 } ?? true
    }

    func isAdded(_ path: DBusObjectPath) -> Bool { member == "InterfacesAdded" && arguments.first?.objectPath == path }
    func isRemoved(_ path: DBusObjectPath) -> Bool { member == "InterfacesRemoved" && arguments.first?.objectPath == path }

    /// The bytes of a Value change on a characteristic.
    var value: [UInt8]? { changes(BlueZNames.characteristic)?["Value"]?.bytes }
}

final class SimulatorHarness: Sendable {
    let bus: PrivateBus
    let sim: BottleSimulator
    let client: BusConnection
    let signals: SignalLog
    let monitor: BusMonitor?

    private init(bus: PrivateBus, sim: BottleSimulator, client: BusConnection, signals: SignalLog, monitor: BusMonitor?) {
        self.bus = bus
        self.sim = sim
        self.client = client
        self.signals = signals
        self.monitor = monitor
    }

    static func start(_ configuration: SimulatorConfiguration, monitor: Bool = false) async throws -> SimulatorHarness {
        let bus = try await PrivateBus.start()
        do {
            let watcher = monitor ? try await BusMonitor.start(on: bus) : nil
            let sim = try await BottleSimulator.start(bus: .address(bus.address), configuration: configuration)
            let client = try await BusConnection.connect(.address(bus.address))
            let signals = SignalLog(try await client.subscribe(MatchRule(sender: sim.uniqueName)))
            return SimulatorHarness(bus: bus, sim: sim, client: client, signals: signals, monitor: watcher)
        } catch {
            bus.stop()
            throw error
        }
    }

    func stop() async {
        await signals.cancel()
        await client.close()
        await sim.stop()
        bus.stop()
    }

    var devicePath: DBusObjectPath { sim.devicePath }
    var adapterPath: DBusObjectPath { sim.adapterPath }

    func path(_ characteristic: Characteristic) -> DBusObjectPath { sim.path(of: characteristic)! }

    // MARK: - Calls

    @discardableResult
    func call(_ path: DBusObjectPath, _ interface: String, _ method: String, _ arguments: [DBusValue] = [],
              on connection: BusConnection? = nil, timeout: Duration = .seconds(10)) async throws -> [DBusValue] {
        try await (connection ?? client).call(destination: "org.bluez", path: path, interface: interface, method: method,
                                              arguments: arguments, timeout: timeout)
    }

    func objects() async throws -> [DBusObjectPath: [String: [String: DBusValue]]] {
        try await client.managedObjects(destination: "org.bluez")
    }

    func properties(_ path: DBusObjectPath, _ interface: String) async throws -> [String: DBusValue] {
        try await call(path, BlueZNames.properties, "GetAll", [.string(interface)]).decode(0)
    }

    func property(_ path: DBusObjectPath, _ interface: String, _ name: String) async throws -> DBusValue? {
        try await properties(path, interface)[name]?.unwrapped
    }

    /// SetDiscoveryFilter (the Aquavate service, LE) and StartDiscovery, then waits for the device.
    func discover(on connection: BusConnection? = nil) async throws {
        let from = signals.count
        try await call(adapterPath, BlueZNames.adapter, "SetDiscoveryFilter", [.variantDictionary([
            "UUIDs": .strings([AquavateUUID.service]), "Transport": .string("le"), "DuplicateData": .bool(false),
        ])], on: connection)
        try await call(adapterPath, BlueZNames.adapter, "StartDiscovery", on: connection)
        try await signals.wait("the bottle's advertisement", from: from) {
            $0.isAdded(self.devicePath) || $0.isChange(self.devicePath, BlueZNames.device, "RSSI")
        }
    }

    func stopDiscovery(on connection: BusConnection? = nil) async throws {
        try await call(adapterPath, BlueZNames.adapter, "StopDiscovery", on: connection)
    }

    func connect() async throws {
        try await call(devicePath, BlueZNames.device, "Connect")
    }

    func disconnect() async throws {
        try await call(devicePath, BlueZNames.device, "Disconnect")
    }

    /// Discovers, connects and stops discovery.
    func connectFresh() async throws {
        try await discover()
        try await connect()
        try await stopDiscovery()
    }

    func read(_ characteristic: Characteristic, on connection: BusConnection? = nil) async throws -> [UInt8] {
        try await call(path(characteristic), BlueZNames.characteristic, "ReadValue", [.variantDictionary([:])],
                       on: connection).decode(0)
    }

    func write(_ characteristic: Characteristic, _ bytes: [UInt8], type: String = "request",
               on connection: BusConnection? = nil) async throws {
        try await call(path(characteristic), BlueZNames.characteristic, "WriteValue",
                       [.bytes(bytes), .variantDictionary(["type": .string(type)])], on: connection)
    }

    func startNotify(_ characteristic: Characteristic, on connection: BusConnection? = nil) async throws {
        try await call(path(characteristic), BlueZNames.characteristic, "StartNotify", on: connection)
    }

    func start(count: Int, chunkSize: Int) async throws {
        try await write(.syncControl, SyncControl(count: UInt16(count), command: .start, chunkSize: UInt16(chunkSize)).encoded())
    }

    func ack() async throws { try await write(.syncControl, SyncControl.ack.encoded()) }

    /// The next Value change of `characteristic` at or after signal index `from`.
    func notification(_ characteristic: Characteristic, from: Int, timeout: Duration = .seconds(5))
        async throws -> (index: Int, value: [UInt8])
    {
        let path = path(characteristic)
        let found = try await signals.wait("a \(characteristic.rawValue) notification", from: from, timeout: timeout) {
            $0.path == path && $0.value != nil
        }
        return (found.index, found.signal.value!)
    }

    /// Runs a whole sync (START, one ACK per chunk) and returns the records, asserting each chunk
    /// arrives before the write that caused it returns.
    func syncAll(count: Int, chunkSize: Int) async throws -> [DrinkRecord] {
        var from = signals.count
        try await start(count: count, chunkSize: chunkSize)
        var records: [DrinkRecord] = []
        var expected = 0
        while true {
            let (index, value) = try await notification(.drinkData, from: from)
            from = index + 1
            let chunk = try DrinkDataChunk(decoding: value)
            #expect(Int(chunk.chunkIndex) == expected)
            records += chunk.records
            expected += 1
            try await ack()
            if chunk.isLast { break }
        }
        return records
    }
}

/// Runs `body` with a fresh simulator on a fresh private bus; everything is torn down afterwards.
func withSimulator<T>(_ configuration: SimulatorConfiguration, monitor: Bool = false,
                      _ body: (SimulatorHarness) async throws -> T) async throws -> T {
    let harness = try await SimulatorHarness.start(configuration, monitor: monitor)
    do {
        let result = try await body(harness)
        await harness.stop()
        return result
    } catch {
        await harness.stop()
        throw error
    }
}

/// Polls `condition` until it holds, failing after `timeout`.
func waitUntil(_ what: String, timeout: Duration = .seconds(10), _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw HarnessFailure(description: "\(what) did not happen within \(timeout)")
}

/// Expects `body` to fail with the D-Bus error `name` (and message, when given).
func expectFailure(_ name: String, _ message: String? = nil, sourceLocation: SourceLocation = #_sourceLocation,
                   _ body: () async throws -> Void) async {
    do {
        try await body()
        Issue.record("expected \(name), the call succeeded", sourceLocation: sourceLocation)
    } catch let failure as DBusFailure {
        #expect(failure.name == name, sourceLocation: sourceLocation)
        if let message { #expect(failure.message == message, sourceLocation: sourceLocation) }
    } catch {
        Issue.record("expected \(name), got \(error)", sourceLocation: sourceLocation)
    }
}
