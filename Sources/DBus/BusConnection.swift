// A private connection to a message bus: the public face of the module.
//
// Each `BusConnection` owns one libdbus connection and one thread (see DBus.swift for the
// threading model). It is Sendable; every method may be called from any thread or task.
// Dropping the last reference closes it; `close()` does so explicitly and waits.
import CDBus
import Locking
import Timekeeping

package final class BusConnection: Sendable {
    let core: ConnectionCore
    /// The name the bus gave this connection, e.g. `:1.42`.
    package let uniqueName: String
    /// The address it was opened on.
    package let address: String
    /// What waits for signals measure their time-outs on.
    package let clock: any WallClock

    private init(core: ConnectionCore, uniqueName: String, address: String, clock: any WallClock) {
        self.core = core
        self.uniqueName = uniqueName
        self.address = address
        self.clock = clock
    }

    /// Opens a new private connection (`dbus_connection_open_private` + `dbus_bus_register`,
    /// never libdbus's shared one) to `bus`. Losing the bus never exits the process.
    package static func connect(_ bus: BusAddress, clock: any WallClock = SystemClock()) async throws -> BusConnection {
        let address = try bus.resolve()
        let core = try ConnectionCore()
        let unique = try await core.start(address: address)
        return BusConnection(core: core, uniqueName: unique, address: address, clock: clock)
    }

    deinit {
        core.enqueue { $0.closeNow() }
    }

    /// Sends what is queued, closes the connection, and waits until it is closed. Pending calls
    /// fail with `DBusDisconnected`; signal streams end.
    package func close() async {
        core.enqueue { $0.closeNow() }
        _ = await core.waitUntilClosed()
    }

    /// False once closed or once the bus went away.
    package var isConnected: Bool { core.isConnected }

    /// Waits until the connection is closed or the bus goes away; returns why.
    package func waitUntilDisconnected() async -> String {
        await core.waitUntilClosed()
    }

    // MARK: - Method calls

    /// Calls a method and waits for its reply.
    /// - Returns: the reply's arguments.
    /// - Throws: `DBusFailure` for an error reply (name and message), `DBusCallTimedOut` when no
    ///   reply came within `timeout`, `DBusDisconnected`, `CancellationError` when the task is
    ///   cancelled, or the validation errors of the arguments.
    package func call(
        destination: String, path: DBusObjectPath, interface: String?, method: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        let message = try Message.methodCall(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments)
        let timedOut = DBusCallTimedOut(
            destination: destination, path: path, interface: interface, member: method, timeout: timeout)
        let reply = try await send(message, timeout: timeout, timedOut: timedOut)
        return try reply.replyBody()
    }

    /// Calls a method without waiting for (or wanting) a reply: the NO_REPLY_EXPECTED flag is set.
    package func send(
        destination: String, path: DBusObjectPath, interface: String?, method: String, arguments: [DBusValue] = []
    ) throws {
        let message = try Message.methodCall(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments)
        dbus_message_set_no_reply(message.pointer, 1)
        try queue(message)
    }

    /// Emits a signal (broadcast, or unicast to `destination`).
    package func emitSignal(
        path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue] = [],
        destination: String? = nil
    ) throws {
        try queue(Message.signal(
            path: path, interface: interface, member: member, arguments: arguments, destination: destination))
    }

    private func queue(_ message: Message) throws {
        guard core.enqueue({ $0.sendNow(message) }) else { throw core.closedError }
    }

    /// Sends `message` and waits for the reply message, honouring task cancellation.
    private func send(_ message: Message, timeout: Duration, timedOut: DBusCallTimedOut) async throws -> Message {
        let id = core.nextID()
        let milliseconds = Self.milliseconds(timeout)
        let gate = CancellationGate()
        let core = self.core
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Message, any Error>) in
                let start: ConnectionCore.Job = { core in
                    guard gate.start() else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    core.startCall(message, id: id, timeoutMilliseconds: milliseconds, timedOut: timedOut) {
                        continuation.resume(with: $0)
                    }
                }
                // Sent from this thread while the owner sleeps; else by the owner, in turn.
                if core.runDirectly(start) { return }
                if !core.enqueue(start) { continuation.resume(throwing: core.closedError) }
            }
        } onCancel: {
            if gate.cancel() { core.enqueue { $0.cancelCall(id, with: CancellationError()) } }
        }
    }

    /// libdbus takes milliseconds as an Int32; INT32_MAX would mean "never".
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        if total <= 0 { return 0 }
        return total >= Double(Int32.max - 1) ? Int32.max - 1 : Int32(total.rounded(.up))
    }

    // MARK: - Signals

    /// Subscribes to the signals `rule` matches. The bus has installed the rule when this
    /// returns, so a signal caused by anything done afterwards is delivered. Iterate the result
    /// or wait with `next(within:where:)`; `cancel()` it (or drop it) to remove the rule. The unicast `NameAcquired`/`NameLost`
    /// arrive only on a rule that names them as member.
    package func subscribe(_ rule: MatchRule) async throws -> SignalSubscription {
        try await subscribe(rule, handler: nil)
    }

    /// Subscribes to `rule`, handing each signal to `handler` on the connection's owner thread, in
    /// order, as it is routed, instead of buffering it for a task to read: one thread hand-off
    /// less per signal. `handler` must be quick and must never wait, least of all for this
    /// connection: the owner thread it runs on is the one that would deliver the answer. The
    /// returned subscription delivers nothing; it ends the subscription on `cancel()` or when
    /// dropped.
    package func subscribe(_ rule: MatchRule, onOwnerThread handler: @escaping @Sendable (DBusSignal) -> Void) async throws
        -> SignalSubscription
    {
        try await subscribe(rule, handler: handler)
    }

    private func subscribe(_ rule: MatchRule, handler: (@Sendable (DBusSignal) -> Void)?) async throws -> SignalSubscription {
        try rule.validate()
        let id = core.nextID()
        let buffer = EventQueue<DBusSignal>(timer: clock)
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            let queued = core.enqueue { core in
                core.addSubscription(id: id, rule: rule, buffer: buffer, handler: handler) { done.resume(with: $0) }
            }
            if !queued {
                buffer.finish()
                done.resume(throwing: core.closedError)
            }
        }
        return SignalSubscription(connection: self, id: id, rule: rule, buffer: buffer)
    }

    // MARK: - Exported objects

    /// Exports `interfaces` at `path` (adding to what is there) and, if an ObjectManager is above
    /// it, emits `InterfacesAdded`.
    package func export(_ path: DBusObjectPath, _ interfaces: [ExportedInterface]) throws {
        try requireOpen()
        try core.registry.export(path, interfaces, send: sendQueued)
    }

    /// Removes some interfaces of `path` (nil: all, and the object) and emits `InterfacesRemoved`
    /// (unless `emit` is false: a service that dies says nothing, which a stand-in must mimic).
    package func unexport(_ path: DBusObjectPath, interfaces: [String]? = nil, emit: Bool = true) throws {
        try requireOpen()
        try core.registry.unexport(path, interfaces: interfaces, send: emit ? sendQueued : { _ in })
    }

    /// Serves `org.freedesktop.DBus.ObjectManager` at `path` for every object below it.
    package func addObjectManager(at path: DBusObjectPath) throws {
        try core.registry.addObjectManager(path)
    }

    /// Sets property values and removes (`invalidated`) others, then emits one
    /// `PropertiesChanged` with both lists (unless `emit` is false).
    package func setProperties(
        _ path: DBusObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String] = [],
        emit: Bool = true
    ) throws {
        try requireOpen()
        try core.registry.setProperties(
            path, interface: interface, changed: changed, invalidated: invalidated, emit: emit, send: sendQueued)
    }

    /// The current value of an exported property (nil when absent or not exported).
    package func propertyValue(_ path: DBusObjectPath, interface: String, name: String) -> DBusValue? {
        core.registry.property(path, interface: interface, name: name)
    }

    private func requireOpen() throws {
        guard core.isConnected else { throw core.closedError }
    }

    private var sendQueued: (Message) -> Void {
        { [core] message in core.enqueue { $0.sendNow(message) } }
    }
}

/// Lets a call and its cancellation agree on who goes first, whatever thread each runs on.
private final class CancellationGate: Sendable {
    private enum State { case waiting, started, cancelled }
    private let state = Locked(State.waiting)

    /// True if the call may start (it was not cancelled first).
    func start() -> Bool {
        state.withLock { state in
            guard state == .waiting else { return false }
            state = .started
            return true
        }
    }

    /// True if the call had started and must now be cancelled on the owner thread.
    func cancel() -> Bool {
        state.withLock { state in
            defer { state = .cancelled }
            return state == .started
        }
    }
}
