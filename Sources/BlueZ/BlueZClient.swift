// The client side of `org.bluez`: one bus connection, the object-manager cache, and the means to
// wait for changes in it.
//
// Start-up follows bleak's order (docs/bluez.md 2, `manager.py:241-300`): subscribe to BlueZ's
// signals FIRST, then call `GetManagedObjects`, so that nothing BlueZ does in between is lost.
// All of BlueZ's signals come through ONE match rule (`sender='org.bluez'`), so one buffer keeps
// them in the order BlueZ sent them — a characteristic's `InterfacesAdded` before its `Value`
// changes, a `Value` notification before the `Connected=false` that followed it. One task (the
// pump) applies them to the cache and hands each change to the watchers registered at that time.

import DBus
import Locking
import Timekeeping

/// One change BlueZ announced, as the pump applied it.
package enum BlueZChange: Sendable {
    case interfacesAdded(DBusObjectPath, BlueZObjects.Interfaces)
    case interfacesRemoved(DBusObjectPath, [String])
    case propertiesChanged(DBusObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String])
    /// bluetoothd left the bus: every object is gone.
    case serviceLost
    /// bluetoothd is back; the cache was reloaded.
    case serviceReturned

    /// The object the change is about (nil for the whole-service events).
    package var path: DBusObjectPath? {
        switch self {
        case .interfacesAdded(let path, _), .interfacesRemoved(let path, _), .propertiesChanged(let path, _, _, _): path
        case .serviceLost, .serviceReturned: nil
        }
    }
}

/// Waiting for a state of the cache took longer than allowed.
package struct BlueZWaitTimedOut: Error, Sendable, CustomStringConvertible {
    package var what: String
    package var timeout: Duration
    package var description: String { "\(what) did not happen within \(timeout)" }
}

package final class BlueZClient: Sendable {
    /// The connection the cache and every non-GATT call use.
    package let connection: BusConnection
    /// What every wait of this client (and of the discoveries, connectors and connections made
    /// on it) measures its deadlines on.
    package let clock: any WallClock
    private let state = Locked(ClientState())
    private let pumps = Locked<[Task<Void, Never>]>([])
    /// BlueZ's signals, applied to the cache on the connection's owner thread as they arrive.
    private let signals = Locked<SignalSubscription?>(nil)
    /// Signals that arrived before the object tree was loaded, in order; nil once it is.
    private let early = Locked<[DBusSignal]?>([])

    private struct ClientState {
        var objects = BlueZObjects()
        var watchers: [UInt64: EventQueue<BlueZChange>] = [:]
        var nextWatcher: UInt64 = 0
        var serviceOwner: String?
    }

    private init(connection: BusConnection, clock: any WallClock) {
        self.connection = connection
        self.clock = clock
    }

    /// Connects to `bus`, subscribes to BlueZ's signals, then loads the object tree.
    /// - Throws: `BluetoothServiceUnavailable` when the bus or `org.bluez` cannot be reached,
    ///   `BluetoothAccessDenied` when the bus policy forbids it.
    package static func connect(bus: BusAddress = .system, clock: any WallClock = SystemClock()) async throws -> BlueZClient {
        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(bus, clock: clock)
        } catch {
            throw BluetoothServiceUnavailable(detail: "\(error)")
        }
        let client = BlueZClient(connection: connection, clock: clock)
        do {
            try await client.start()
        } catch {
            await client.close()
            throw error
        }
        return client
    }

    private func start() async throws {
        // Subscribed before GetManagedObjects (bleak's order): a change made between the two is
        // held and applied after the tree, so it is never lost. Each signal is applied on the
        // connection's owner thread as it is routed, not by a task reading a buffer: one thread
        // hand-off less for every signal (a notification went owner thread → a pump task → the
        // GATT connection's task → the session).
        let subscription = try await connection.subscribe(MatchRule(sender: BlueZNames.service)) { [weak self] signal in
            guard let self else { return }
            let held = self.early.withLock { early -> Bool in
                guard early != nil else { return false }
                early?.append(signal)
                return true
            }
            if !held { self.apply(signal) }
        }
        signals.withLock { $0 = subscription }
        let owners = try await connection.nameOwnerChanges(for: BlueZNames.service)
        guard let owner = try await connection.nameOwner(BlueZNames.service) else {
            throw BluetoothServiceUnavailable(detail: "nobody owns the name org.bluez on \(connection.address)")
        }
        let tree = try await Self.loadTree(connection)
        // The tree, then what came meanwhile, in order; the owner thread waits on `early` for it.
        early.withLock { early in
            state.withLock {
                $0.objects = BlueZObjects(tree)
                $0.serviceOwner = owner
            }
            for signal in early ?? [] { apply(signal) }
            early = nil
        }
        let ownerPump = Task { [weak self] in
            for await change in owners {
                guard let self else { return }
                await self.serviceOwnerChanged(to: change.newOwner)
            }
        }
        pumps.withLock { $0 = [ownerPump] }
    }

    private static func loadTree(_ connection: BusConnection) async throws -> [DBusObjectPath: BlueZObjects.Interfaces] {
        do {
            return try await connection.managedObjects(destination: BlueZNames.service)
        } catch let failure as DBusFailure {
            if failure.name == BlueZNames.Error.accessDenied { throw BluetoothAccessDenied(detail: failure.message) }
            if failure.name == BlueZNames.Error.serviceUnknown || failure.name == BlueZNames.Error.nameHasNoOwner {
                throw BluetoothServiceUnavailable(detail: failure.message)
            }
            throw failure
        }
    }

    /// Stops following BlueZ and closes the connection.
    package func close() async {
        let tasks = pumps.withLock { tasks in
            defer { tasks.removeAll() }
            return tasks
        }
        for task in tasks { task.cancel() }
        // Dropped, the subscription leaves the bus with the connection (no RemoveMatch to wait for).
        signals.withLock { $0 = nil }
        let watchers = state.withLock { state in
            defer { state.watchers.removeAll() }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.finish() }
        await connection.close()
    }

    // MARK: The cache

    /// The cache as it is now.
    package var objects: BlueZObjects { state.withLock { $0.objects } }

    /// Whether bluetoothd currently owns `org.bluez`.
    package var serviceIsPresent: Bool { state.withLock { $0.serviceOwner != nil } }

    private func apply(_ signal: DBusSignal) {
        guard let change = Self.change(from: signal) else { return }
        let watchers = state.withLock { state -> [EventQueue<BlueZChange>] in
            switch change {
            case .interfacesAdded(let path, let interfaces):
                state.objects.add(path, interfaces)
            case .interfacesRemoved(let path, let names):
                state.objects.remove(path, interfaces: names)
            case .propertiesChanged(let path, let interface, let changed, let invalidated):
                state.objects.change(path, interface: interface, changed: changed, invalidated: invalidated)
            case .serviceLost, .serviceReturned:
                break
            }
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.push(change) }
    }

    private static func change(from signal: DBusSignal) -> BlueZChange? {
        let arguments = signal.arguments
        switch (signal.interface, signal.member) {
        case (BlueZNames.objectManagerInterface, "InterfacesAdded"):
            guard let path = arguments.first?.objectPath,
                  let interfaces: BlueZObjects.Interfaces = try? arguments.decode(1) else { return nil }
            return .interfacesAdded(path, interfaces)
        case (BlueZNames.objectManagerInterface, "InterfacesRemoved"):
            guard let path = arguments.first?.objectPath, let names = arguments.count > 1 ? arguments[1].strings : nil
            else { return nil }
            return .interfacesRemoved(path, names)
        case (BlueZNames.propertiesInterface, "PropertiesChanged"):
            guard let interface = arguments.first?.string,
                  let changed = arguments.count > 1 ? arguments[1].stringDictionary : nil else { return nil }
            let invalidated = arguments.count > 2 ? arguments[2].strings ?? [] : []
            return .propertiesChanged(signal.path, interface: interface, changed: changed, invalidated: invalidated)
        default:
            return nil
        }
    }

    /// bluetoothd left (every object is gone) or came back (reload the tree).
    private func serviceOwnerChanged(to owner: String?) async {
        guard let owner else {
            let watchers = state.withLock { state -> [EventQueue<BlueZChange>] in
                state.objects.removeAll()
                state.serviceOwner = nil
                return Array(state.watchers.values)
            }
            for watcher in watchers { watcher.push(.serviceLost) }
            return
        }
        guard let tree = try? await Self.loadTree(connection) else { return }
        let watchers = state.withLock { state -> [EventQueue<BlueZChange>] in
            state.objects = BlueZObjects(tree)
            state.serviceOwner = owner
            return Array(state.watchers.values)
        }
        for watcher in watchers { watcher.push(.serviceReturned) }
    }

    // MARK: Watching

    /// Starts delivering every change to a new queue; returns it with the cache as it was at that
    /// instant, so that the snapshot plus the queued changes are the whole story.
    package func watch() -> ChangeWatch {
        let queue = EventQueue<BlueZChange>(timer: clock)
        let (id, snapshot) = state.withLock { state -> (UInt64, BlueZObjects) in
            state.nextWatcher += 1
            state.watchers[state.nextWatcher] = queue
            return (state.nextWatcher, state.objects)
        }
        return ChangeWatch(client: self, id: id, initial: snapshot, changes: queue)
    }

    func endWatch(_ id: UInt64) {
        let queue = state.withLock { $0.watchers.removeValue(forKey: id) }
        queue?.finish()
    }

    /// Waits until `check` gives a value for the cache, at most `timeout`.
    /// - Throws: `BlueZWaitTimedOut` (naming `what`), `CancellationError`.
    package func waitUntil<T: Sendable>(
        _ what: String, timeout: Duration, _ check: (BlueZObjects) -> T?
    ) async throws -> T {
        let watch = watch()
        defer { watch.cancel() }
        if let value = check(watch.initial) { return value }
        let deadline = clock.deadline(after: timeout)
        // Progress: each pass awaits one change or ends (deadline, ended watch, cancellation).
        while true {
            let remaining = clock.timeLeft(until: deadline)
            guard remaining > .zero else { throw BlueZWaitTimedOut(what: what, timeout: timeout) }
            switch await watch.changes.next(within: remaining) {
            case .element:
                if let value = check(objects) { return value }
            case .timedOut:
                if let value = check(objects) { return value }
                throw BlueZWaitTimedOut(what: what, timeout: timeout)
            case .ended:
                try Task.checkCancellation()
                throw BlueZWaitTimedOut(what: what, timeout: timeout)
            }
        }
    }

    // MARK: Calls

    /// Calls a method of a BlueZ object.
    package func call(
        _ path: DBusObjectPath, _ interface: String, _ method: String, _ arguments: [DBusValue] = [],
        timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await connection.call(
            destination: BlueZNames.service, path: path, interface: interface, method: method,
            arguments: arguments, timeout: timeout)
    }

    /// A new private connection to the bus bluetoothd is on (the system bus; a private bus in
    /// tests), for one BLE session's GATT calls: notify
    /// sessions belong to the connection that asked for them (docs/bluez.md 7.7), so closing it ends
    /// them, and a new session never inherits the last one's (docs/bluez.md F8).
    package func openPrivateSystemBus() async throws -> BusConnection {
        try await BusConnection.connect(.address(connection.address), clock: clock)
    }
}

/// The changes since `initial`, in order, until cancelled.
package final class ChangeWatch: Sendable {
    package let initial: BlueZObjects
    package let changes: EventQueue<BlueZChange>
    private let client: BlueZClient
    private let id: UInt64

    init(client: BlueZClient, id: UInt64, initial: BlueZObjects, changes: EventQueue<BlueZChange>) {
        self.client = client
        self.id = id
        self.initial = initial
        self.changes = changes
    }

    /// Stops the deliveries; waits on `changes` end.
    package func cancel() {
        client.endWatch(id)
    }

    deinit { client.endWatch(id) }
}
