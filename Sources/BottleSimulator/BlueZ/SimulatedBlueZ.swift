// A bluetoothd stand-in on a D-Bus bus, with one Aquavate bottle in radio range.
//
// It owns `org.bluez` and serves the object tree bluetoothd 5.66 serves (ObjectManager at `/`,
// `/org/bluez`, `/org/bluez/hci0`, the device and its GATT objects), with bluetoothd's ordering
// rules: a property change queued before a reply reaches the client before that reply (gdbus
// flushes pending PropertiesChanged before sending any message), so notifications sent inside a
// write handler arrive before the write's reply, and Connected=true precedes a failed Connect's
// error.
//
// Concurrency: all state sits behind one lock. D-Bus handlers (on the connection's thread), the
// timer loop and scheduled one-shots take the lock, change the state and queue signals and
// replies on the connection while holding it, so what leaves the bus is in the order the state
// changed. Nothing awaits while holding the lock.
import AquavateProtocol
import DBus
import Foundation
import Locking
import Synchronization
import Timekeeping

final class SimulatedBlueZ: Sendable {
    static let bluezName = "org.bluez"
    static let rootPath: DBusObjectPath = "/"
    static let bluezPath: DBusObjectPath = "/org/bluez"

    enum Interface {
        static let adapter = "org.bluez.Adapter1"
        static let device = "org.bluez.Device1"
        static let battery = "org.bluez.Battery1"
        static let service = "org.bluez.GattService1"
        static let characteristic = "org.bluez.GattCharacteristic1"
        static let descriptor = "org.bluez.GattDescriptor1"
        static let agentManager = "org.bluez.AgentManager1"
        static let profileManager = "org.bluez.ProfileManager1"
        static let gattManager = "org.bluez.GattManager1"
        static let simulator = "org.aquavate.Simulator1"
    }

    let connection: BusConnection
    let configuration: SimulatorConfiguration
    let clock: any WallClock
    let adapterPath: DBusObjectPath
    let devicePath: DBusObjectPath
    let layout: GattLayout
    let advertisedUUIDs: [String]
    let state: Locked<SimulatorState>
    /// This core serves the adapter, the managers and the test hooks and owns `org.bluez`; the
    /// other bottles on the same bus (`siblings`) share its connection and follow its adapter.
    let ownsAdapter: Bool
    let siblings = Locked<[SimulatedBlueZ]>([])
    private let tasks = Locked<[UInt64: Task<Void, Never>]>([:])
    private let taskIDs = Atomic<UInt64>(0)

    init(connection: BusConnection, configuration: SimulatorConfiguration, clock: any WallClock, ownsAdapter: Bool = true) {
        self.connection = connection
        self.ownsAdapter = ownsAdapter
        self.configuration = configuration
        self.clock = clock
        adapterPath = Self.bluezPath.appending("hci0")
        devicePath = adapterPath.appending("dev_" + configuration.address.uppercased().replacingOccurrences(of: ":", with: "_"))
        layout = GattLayout(devicePath: devicePath)
        advertisedUUIDs = [AquavateUUID.batteryService, AquavateUUID.service].sorted()

        var model = BottleModel(configuration: configuration.bottleConfiguration, records: configuration.ringRecords, clock: clock)
        if configuration.faults.contains(.wedge), let newest = model.records.last(where: { !$0.flags.contains(.synced) }) {
            model.setFlags(newest.flagsRaw | DrinkRecordFlags.deleted.rawValue, recordID: newest.recordID)
        }
        if configuration.faults.contains(.noAdvertise) { model.sleep() }
        var initial = SimulatorState(
            model: model, powered: !configuration.faults.contains(.adapterOff),
            faults: FaultBudget(configuration.faults, startedAt: clock.instant))
        initial.chaos = initial.faults.chaosSeed.map(ChaosPlanner.init(seed:))
        initial.hostile = initial.faults.hostileSeed.map(SeededGenerator.init(seed:))
        state = Locked(initial)
    }

    // MARK: - Life cycle

    /// Exports the tree, takes `org.bluez` and starts the timers.
    func start() async throws {
        if let directory = configuration.sharedBottleDirectory {
            let shared = try SharedBottle(directory: directory, address: configuration.address)
            state.withLock { $0.shared = shared }
        }
        if ownsAdapter { try exportStaticObjects() }
        mutate { _ in }  // the first state file, before anyone can see org.bluez
        if ownsAdapter {
            let reply = try await connection.requestName(Self.bluezName, flags: [.doNotQueue])
            guard reply == .primaryOwner || reply == .alreadyOwner else {
                throw SimulatorBusNameTaken(name: Self.bluezName, address: connection.address)
            }
        }
        let departures = try await connection.nameOwnerChanges()
        spawn { [self] in
            for await change in departures where change.isPeerDeparture {
                mutate { peerLeft(change.name, &$0) }
            }
        }
        spawn { [self] in
            while !Task.isCancelled {
                try? await clock.sleep(for: .milliseconds(20))
                mutate { tick(&$0) }
            }
        }
        mutate { _ in log("ready: \(Self.bluezName) on \(connection.address) as \(connection.uniqueName)") }
    }

    func stop() async {
        state.withLock { state in
            state.stopped = true
            state.shared?.releaseLink()
            state.shared?.close()
            state.shared = nil
        }
        let running = tasks.withLock { tasks -> [Task<Void, Never>] in
            defer { tasks.removeAll() }
            return Array(tasks.values)
        }
        for task in running { task.cancel() }
        await connection.close()
    }

    // MARK: - Running work

    /// Runs `body` on the state under the lock (unless stopped), then rewrites the state file if
    /// the bottle changed.
    @discardableResult
    func mutate<T>(_ body: (inout SimulatorState) throws -> T) rethrows -> T? {
        try state.withLock { (state: inout SimulatorState) throws -> T? in
            guard !state.stopped else { return nil }
            // A shared bottle: the store's lock for the whole change, the ring as the last room
            // left it before, this room's change to it written back after.
            if let ring = state.shared?.begin() { state.model.adoptSharedRing(ring) }
            defer { state.shared?.end(state.model.ring) }
            let result = try body(&state)
            persistIfChanged(&state)
            return result
        }
    }

    /// Starts a task that `stop()` cancels.
    func spawn(_ body: @escaping @Sendable () async -> Void) {
        let id = taskIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let task = Task { [self] in
            await body()
            _ = tasks.withLock { $0.removeValue(forKey: id) }
        }
        tasks.withLock { $0[id] = task }
    }

    /// Runs `action` on the state after `delay`.
    func schedule(after delay: Duration, _ action: @escaping @Sendable (inout SimulatorState) -> Void) {
        spawn { [self] in
            do { try await clock.sleep(for: delay) } catch { return }
            mutate(action)
        }
    }

    // MARK: - Timers

    /// The bottle advertises when its slot has come (the 20 ms tick, or the first advertisement
    /// of a discovery with `firstAdvertisementOnTime`).
    func advertiseIfDue(now: MonotonicInstant, _ state: inout SimulatorState) {
        guard state.discovering, let next = state.nextAdvertisement, now >= next else { return }
        state.nextAdvertisement = now + configuration.advertisingInterval
        state.advertisementSlots += 1
        advertisementHeard(&state)
    }

    /// Every 20 ms: the bottle's timers, advertising, BlueZ's temporary-device expiry, the
    /// power-cycle fault and a pending connection to a bottle that just woke.
    private func tick(_ state: inout SimulatorState) {
        let now = clock.instant
        if let due = state.model.nextDeadline, clock.now.secondsSince1970 >= due {
            let events = state.model.tick()
            for event in events { deliver(event, &state) }
        }
        advertiseIfDue(now: now, &state)
        if let due = state.device?.removalDue, now >= due, state.link == .idle {
            log("event: temporary device not seen for \(configuration.temporaryTimeout): removed")
            removeDevice(&state)
        }
        if let at = state.faults.powerCycleAt, now >= at {
            state.faults.powerCycleAt = nil
            log("fault: power-cycle: adapter off")
            setPowered(false, &state)
            schedule(after: configuration.powerCycleOffTime) { [self] state in
                log("fault: power-cycle: adapter on")
                setPowered(true, &state)
            }
        }
        if state.link == .connecting, state.pendingConnect != nil {
            if let deadline = state.connectDeadline, now >= deadline {
                let elsewhere = state.shared?.linkedElsewhere == true
                log("event: connect timed out: the bottle never advertised" + (elsewhere ? " (linked in another room)" : ""))
                state.link = .idle
                state.connectDeadline = nil
                // The kernel cancels its LE Create Connection at its time-out; bluetoothd reports
                // the cancelled attempt as aborted by the local side.
                state.pendingConnect?.fail(BlueZError.failed(elsewhere ? BlueZError.abortByLocal : "le-connection-timeout"))
                state.pendingConnect = nil
            }
        }
    }

    // MARK: - Emitting

    func log(_ line: String) {
        configuration.log?(line)
    }

    /// Sets (and announces) properties of an exported object; a vanished object is not an error.
    func setProperties(_ path: DBusObjectPath, _ interface: String, _ changed: [String: DBusValue],
                       invalidated: [String] = [], emit: Bool = true) {
        do {
            try connection.setProperties(path, interface: interface, changed: changed, invalidated: invalidated, emit: emit)
        } catch {
            log("warning: cannot set \(Array(changed.keys) + invalidated) on \(path): \(error)")
        }
    }

    func export(_ path: DBusObjectPath, _ interfaces: [ExportedInterface]) {
        do { try connection.export(path, interfaces) } catch { log("warning: cannot export \(path): \(error)") }
    }

    func unexport(_ path: DBusObjectPath, interfaces: [String]? = nil, emit: Bool = true) {
        do {
            try connection.unexport(path, interfaces: interfaces, emit: emit)
        } catch {
            log("warning: cannot unexport \(path): \(error)")
        }
    }

    /// Logs one incoming call, one line.
    func logCall(_ call: DBusMethodCall) {
        let arguments = call.arguments.map(Self.brief).joined(separator: ", ")
        log("call \(call.sender) \(call.interface ?? "?").\(call.member)(\(arguments)) \(call.path)")
    }

    static func brief(_ value: DBusValue) -> String {
        switch value.unwrapped {
        case .bytes(let bytes): return "[" + Hex.format(bytes) + "]"
        case .string(let text): return "\"\(text)\""
        case .objectPath(let path): return path.rawValue
        case .dict(_, _, let entries):
            return "{" + entries.map { "\(brief($0.key))=\(brief($0.value))" }.joined(separator: ", ") + "}"
        case .array(_, let items): return "[" + items.map(brief).joined(separator: ", ") + "]"
        case let other: return "\(other)"
        }
    }

    // MARK: - State file

    /// Rewrites the state file if the bottle changed. `mutate` calls it after every change; paths
    /// that answer a call from a timer call it before the reply, so a client that reads the file
    /// after the reply sees the change.
    func persistIfChanged(_ state: inout SimulatorState) {
        guard let url = configuration.stateFile else { return }
        let key = (state.model.revision, state.link == .connected || state.link == .disconnecting)
        if let last = state.persistedRevision, last == key { return }
        state.persistedRevision = key
        do {
            try BottleStateSnapshot(model: state.model, connected: key.1).write(to: url)
        } catch {
            log("warning: cannot write the state file \(url.path): \(error)")
        }
    }
}

/// Another process already owns `org.bluez` on this bus.
package struct SimulatorBusNameTaken: Error, CustomStringConvertible {
    package var name: String
    package var address: String
    package var description: String {
        "\(name) is already owned on \(address) (a real bluetoothd or another simulator); use a private bus (--bus)"
    }
}
