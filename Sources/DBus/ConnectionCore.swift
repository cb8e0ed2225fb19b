// The engine behind a `BusConnection`: the owner thread, its job queue and its run loop.
//
// Threading discipline (see DBus.swift): the libdbus connection is touched by one thread at a
// time, the one that holds the connection's turn (a `Locked`). The owner thread holds it for
// everything it does but sleeping in poll(): other threads hand it work as jobs through a locked
// FIFO queue and wake it through an eventfd; the owner thread runs the jobs, lets libdbus
// dispatch incoming messages to our filter, then sleeps in poll(). While it sleeps, a method call
// made on another thread may take the turn and send itself (`runDirectly`): one thread hand-off
// less on the way out. Everything marked "under the turn" below is read and written only by the
// thread holding it, which is why the class can be `@unchecked Sendable`.
import CDBus
import Glibc
import Locking
import Synchronization

final class ConnectionCore: @unchecked Sendable {
    typealias Job = @Sendable (ConnectionCore) -> Void

    private struct Queue {
        var jobs: [Job] = []
        var accepting = true
        /// Why the connection ended, once it has.
        var endReason: String?
    }

    // MARK: Shared between threads (locked or atomic)

    private let queue = Locked(Queue())
    /// Whose turn it is to call libdbus (see the top of the file); counts the calls that their
    /// own threads sent.
    private let turn = Locked(Turn())
    private struct Turn { var directCalls: UInt64 = 0 }
    private let ownerThread = Atomic<UInt>(0)
    private let connected = Atomic<Bool>(false)
    private let ids = Atomic<UInt64>(0)
    /// Exported objects; locked, so they can be changed from any thread.
    let registry = ObjectRegistry()
    let wakeFD: Int32
    let timerFD: Int32

    // MARK: Under the turn (the owner thread, or a caller in `runDirectly`)

    private(set) var connection: OpaquePointer?
    private let loop: WatchLoop
    /// False once closing or disconnected: jobs then fail instead of touching libdbus.
    private(set) var isOpen = false
    private var stopping = false
    private var disconnectReason = "closed"
    private var closeWaiters: [CheckedContinuation<String, Never>] = []
    var pendingCalls: [UInt64: PendingCall] = [:]
    var subscriptions: [UInt64: SubscriptionEntry] = [:]
    var nameWatchCounts: [String: Int] = [:]
    var nameOwners: [String: String] = [:]

    init() throws {
        let fd = cdbus_make_wakeup_fd()
        guard fd >= 0 else {
            throw DBusConnectFailed(address: "", name: "eventfd", message: "cannot create an eventfd (errno \(errno))")
        }
        let timer = cdbus_make_timer_fd()
        guard timer >= 0 else {
            Glibc.close(fd)
            throw DBusConnectFailed(address: "", name: "timerfd", message: "cannot create a timerfd (errno \(errno))")
        }
        wakeFD = fd
        timerFD = timer
        loop = WatchLoop(wakeFD: fd, timerFD: timer)
    }

    deinit {
        Glibc.close(wakeFD)
        Glibc.close(timerFD)
    }

    /// A process-unique number for calls and subscriptions.
    func nextID() -> UInt64 { ids.wrappingAdd(1, ordering: .relaxed).newValue }

    var isOnOwnerThread: Bool {
        let owner = ownerThread.load(ordering: .acquiring)
        return owner != 0 && pthread_equal(pthread_self(), owner) != 0
    }

    var isConnected: Bool { connected.load(ordering: .relaxed) }

    /// The error for work offered after the connection ended.
    var closedError: DBusDisconnected {
        DBusDisconnected(reason: queue.withLock { $0.endReason } ?? "closed")
    }

    // MARK: - Jobs

    /// Queues `job` for the owner thread (FIFO, also when called on the owner thread, so that
    /// outgoing messages keep the order they were produced in). False when the connection is
    /// closed; the job then never runs.
    @discardableResult
    func enqueue(_ job: @escaping Job) -> Bool {
        let accepted = queue.withLock { queue -> Bool in
            guard queue.accepting else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted && !isOnOwnerThread { loop.wake() }
        return accepted
    }

    private func takeJobs() -> [Job] {
        queue.withLock { queue in
            let jobs = queue.jobs
            queue.jobs.removeAll()
            return jobs
        }
    }

    private var hasJobs: Bool { queue.withLock { !$0.jobs.isEmpty } }

    /// Runs `job` on the calling thread, under the turn, when the turn is free (the owner sleeps
    /// in poll(); it holds the turn at all other times), nothing is queued before it (so outgoing
    /// messages keep their order) and the connection is open; false otherwise, and the caller
    /// queues it. Saves the hand-off to the owner thread: the caller's own write sends the
    /// message. Never waits for the turn: the caller is a task on the cooperative pool, which
    /// must not block behind the owner's handlers. Not from the owner thread (it holds the turn
    /// already), and never from a cancellation handler: the owner resumes callers'
    /// continuations under the turn.
    func runDirectly(_ job: Job) -> Bool {
        guard !isOnOwnerThread else { return false }
        return turn.withLockIfAvailable { turn -> Bool in
            guard isOpen, let connection, !hasJobs else { return false }
            turn.directCalls += 1
            job(self)
            // Anything libdbus read while sending is dispatched by the owner, which must wake for it.
            if dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS { loop.wake() }
            return true
        } ?? false
    }

    /// How many calls were sent by their own threads (tests).
    var directCallCount: UInt64 { turn.withLock { $0.directCalls } }

    /// Sends `message` now (owner thread). Dropped when closed.
    func sendNow(_ message: Message) {
        guard isOpen, let connection else { return }
        _ = dbus_connection_send(connection, message.pointer, nil)
    }

    // MARK: - Starting

    private final class ThreadStart {
        let core: ConnectionCore
        let address: String
        let ready: CheckedContinuation<String, any Error>
        init(core: ConnectionCore, address: String, ready: CheckedContinuation<String, any Error>) {
            self.core = core
            self.address = address
            self.ready = ready
        }
    }

    /// Starts the owner thread, which opens a private connection to `address`, registers on the
    /// bus, and returns the unique name.
    func start(address: String) async throws -> String {
        try await withCheckedThrowingContinuation { ready in
            let context = Unmanaged.passRetained(ThreadStart(core: self, address: address, ready: ready))
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { raw in
                guard let raw else { return nil }
                let start = Unmanaged<ThreadStart>.fromOpaque(raw).takeRetainedValue()
                start.core.ownerMain(address: start.address, ready: start.ready)
                return nil
            }, context.toOpaque())
            if result != 0 {
                context.release()
                ready.resume(throwing: DBusConnectFailed(
                    address: address, name: "pthread_create", message: "cannot start a thread (error \(result))"))
            } else {
                pthread_detach(thread)
            }
        }
    }

    private func ownerMain(address: String, ready: CheckedContinuation<String, any Error>) {
        ownerThread.store(pthread_self(), ordering: .releasing)
        // No other thread can reach the connection before `ready` is resumed; the turn is taken
        // anyway, so that every access to what it guards is under it.
        guard turn.withLock({ _ in open(address: address, ready: ready) }) else { return }
        run()
    }

    /// Opens and registers the connection; false (and `ready` failed) when it could not be.
    private func open(address: String, ready: CheckedContinuation<String, any Error>) -> Bool {

        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let opened = dbus_connection_open_private(address, &error) else {
            refuseJobs()
            ready.resume(throwing: Self.connectFailure(address, error))
            return false
        }
        // A bus that goes away must not _exit() the process (docs/swift-linux.md P10).
        dbus_connection_set_exit_on_disconnect(opened, 0)
        guard dbus_bus_register(opened, &error) != 0, let unique = dbus_bus_get_unique_name(opened) else {
            dbus_connection_close(opened)
            dbus_connection_unref(opened)
            refuseJobs()
            ready.resume(throwing: Self.connectFailure(address, error))
            return false
        }
        let uniqueName = String(cString: unique)
        connection = opened
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard loop.install(on: opened),
            dbus_connection_add_filter(opened, { _, message, data in
                guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
                return Unmanaged<ConnectionCore>.fromOpaque(data).takeUnretainedValue().handleIncoming(message)
            }, me, nil) != 0
        else {
            loop.uninstall(from: opened)
            dbus_connection_close(opened)
            dbus_connection_unref(opened)
            connection = nil
            refuseJobs()
            ready.resume(throwing: DBusConnectFailed(address: address, name: "setup", message: "libdbus ran out of memory"))
            return false
        }
        isOpen = true
        connected.store(true, ordering: .relaxed)
        // What arrived while registering (our own NameAcquired) predates every subscription.
        dispatchIncoming()
        ready.resume(returning: uniqueName)
        return true
    }

    private static func connectFailure(_ address: String, _ error: DBusError) -> DBusConnectFailed {
        DBusConnectFailed(
            address: address,
            name: error.name.map { String(cString: $0) } ?? "unknown",
            message: error.message.map { String(cString: $0) } ?? "no detail")
    }

    private func refuseJobs() {
        queue.withLock { queue in
            queue.accepting = false
            queue.endReason = "the connection could not be opened"
            queue.jobs.removeAll()
        }
    }

    // MARK: - Running

    private func run() {
        // Progress: each pass runs the queued jobs and dispatches what arrived, then blocks in
        // poll() until a descriptor, the timer or the wake-up eventfd is ready; `stopping` ends
        // it. The turn is held for all of it but the poll().
        while true {
            let next = turn.withLock { _ -> WatchLoop.Round? in
                for job in takeJobs() { job(self) }
                if stopping { return nil }
                dispatchIncoming()
                if stopping { return nil }
                return loop.prepare()
            }
            guard var round = next else { break }
            if hasJobs { continue }
            loop.wait(&round)
            turn.withLock { _ in loop.handle(round) }
        }
        turn.withLock { _ in shutDown() }
    }

    private func dispatchIncoming() {
        guard let connection else { return }
        while !stopping && dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS {
            _ = dbus_connection_dispatch(connection)
        }
    }

    /// Every message libdbus dispatches (method returns of pending calls excepted) comes here.
    private func handleIncoming(_ raw: OpaquePointer) -> DBusHandlerResult {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_SIGNAL:
            if dbus_message_is_signal(raw, "org.freedesktop.DBus.Local", "Disconnected") != 0 {
                disconnectReason = "the bus closed the connection"
                stopping = true
                return DBUS_HANDLER_RESULT_HANDLED
            }
            routeSignal(Message(retaining: raw))
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case DBUS_MESSAGE_TYPE_METHOD_CALL:
            dispatchMethodCall(Message(retaining: raw))
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    // MARK: - Closing

    /// Flushes what is queued and closes (owner thread; queued as a job by `BusConnection.close`).
    func closeNow() {
        guard isOpen, let connection else { return }
        dbus_connection_flush(connection)
        disconnectReason = "closed by this process"
        stopping = true
        isOpen = false  // jobs queued after the close fail instead of sending into the void
    }

    /// Waits until the connection is closed or lost; returns why.
    func waitUntilClosed() async -> String {
        await withCheckedContinuation { waiter in
            let queued = enqueue { core in core.closeWaiters.append(waiter) }
            if !queued { waiter.resume(returning: closedError.reason) }
        }
    }

    private func shutDown() {
        isOpen = false
        connected.store(false, ordering: .relaxed)
        let reason = disconnectReason
        let leftovers = queue.withLock { queue -> [Job] in
            queue.accepting = false
            queue.endReason = reason
            let jobs = queue.jobs
            queue.jobs.removeAll()
            return jobs
        }
        // Jobs see isOpen == false and fail their callers.
        for job in leftovers { job(self) }
        failAllPendingCalls(DBusDisconnected(reason: disconnectReason))
        finishAllSubscriptions()
        // Handlers often capture the connection; dropping them breaks that cycle.
        registry.removeAll()
        for waiter in closeWaiters { waiter.resume(returning: disconnectReason) }
        closeWaiters.removeAll()
        if let connection {
            loop.uninstall(from: connection)
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
        }
        connection = nil
    }
}
