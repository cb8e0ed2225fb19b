// The Swift face of one libmosquitto client (`struct mosquitto *`), with its own network thread.
// Each `aq_mosquitto_X` is libmosquitto's `mosquitto_X`, loaded with the first client
// (MosquittoLibrary.load: a bridge without MQTT never maps libmosquitto, libssl and libcrypto).
//
// Why its own thread and not `mosquitto_loop_start`: libmosquitto's thread runs
// `mosquitto_loop_forever`, which *returns* — and so stops reconnecting for good — after errors
// it deems fatal (MOSQ_ERR_EAI, _PROTOCOL, _TLS …), and sleeps its back-off in an uninterruptible
// nanosleep. A Pi that boots before its network (no DNS yet) or a broker restarted mid-handshake
// would leave the bridge silent until restarted. This thread runs `mosquitto_loop` itself and
// reconnects after any failure, with back-off (1 s doubling to the configured maximum) that
// `stop()` can cut short.
//
// Threading discipline (libmosquitto is not thread-safe except as documented):
// * Options (`will`, credentials, TLS, protocol, callbacks) are set in `init`, before the
//   network thread exists, and never again — except the protocol version, which the network
//   thread lowers to 3.1.1 between attempts when a broker refuses MQTT 5 (nothing else uses it
//   then: publishing needs a connection).
// * Only the network thread calls `connect_async`, `connect_bind_v5`, `reconnect_async` and
//   `loop`; callbacks run on it, so handlers must be quick and must not block.
// * Any thread may call `publish`, `subscribe` and `disconnect`: with `mosquitto_threaded_set`
//   on, libmosquitto guards its output queue with its own mutexes and wakes the loop through its
//   socket pair (what `mosquitto_loop_start` relies on too).
// * `mosquitto_destroy` runs in `deinit`. The network thread holds a strong reference while it
//   runs, so the handle cannot be destroyed under it.
// * `state` holds this class's own shared state; its lock is never held while calling into
//   libmosquitto.

import CMosquittoLoader
import Dispatch
import Foundation
import Locking
import Logging
import Timekeeping

/// What can go wrong when publishing or subscribing.
enum MQTTClientError: Error, Equatable, CustomStringConvertible {
    case notConnected(broker: String)
    case failed(operation: String, code: Int32)

    var description: String {
        switch self {
        case let .notConnected(broker): return "not connected to the MQTT broker at \(broker)"
        case let .failed(operation, code): return "MQTT \(operation) failed: \(MosquittoLibrary.describe(code))"
        }
    }
}

final class MosquittoClient: @unchecked Sendable {
    struct Message: Sendable, Equatable {
        var topic: String
        var payload: [UInt8]
        var qos: Int32 = 1
        var retain: Bool = false

        init(topic: String, payload: [UInt8], qos: Int32 = 1, retain: Bool = false) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }

        init(topic: String, text: String, qos: Int32 = 1, retain: Bool = false) {
            self.init(topic: topic, payload: Array(text.utf8), qos: qos, retain: retain)
        }

        var text: String { String(decoding: payload, as: UTF8.self) }
    }

    struct Options: Sendable {
        var broker: MQTTBrokerURL
        var clientID: String?
        var keepAliveSeconds: Int = 60
        var will: Message?
        var caFile: String?
        var caDirectory: String = "/etc/ssl/certs"
        /// 5 lets tests ask for retain-as-published. The bridge speaks 5 when it sets
        /// `maximumPacketSize`, and falls back to 3.1.1 for a broker that does not know 5.
        var protocolVersion5 = false
        var reconnectDelay: ClosedRange<Double> = 1...60
        /// MQTT 5's Maximum Packet Size, sent in every CONNECT: the broker then drops any message
        /// for this client that is larger, instead of sending it. Why it matters: libmosquitto
        /// allocates an incoming packet whole, whatever its size, before any callback can look at
        /// it (lib/packet_mosq.c, "FIXME - client case for incoming message … too large").
        var maximumPacketSize: UInt32?
        /// Payloads longer than this are not copied: `Handlers.oversized` gets their length only.
        var maximumIncomingPayload: Int?
        /// False: a persistent session (MQTT 3.1.1 clean session off; needs a fixed `clientID`):
        /// the broker keeps the subscriptions and queues QoS 1 messages while the client is away
        /// (the household's replication, docs/design.md 6).
        var cleanSession = true
    }

    /// Called on the network thread.
    struct Handlers: Sendable {
        var connected: @Sendable (MosquittoClient) -> Void = { _ in }
        var disconnected: @Sendable (_ unexpected: Bool) -> Void = { _ in }
        var message: @Sendable (MosquittoClient, Message) -> Void = { _, _ in }
        /// A message longer than `Options.maximumIncomingPayload`: its topic and length.
        var oversized: @Sendable (MosquittoClient, _ topic: String, _ bytes: Int) -> Void = { _, _, _ in }
        /// The last will of the next connection, asked before each attempt (nil: `Options.will`
        /// stays): a signed will carries a stamp newer than the connection before (the household's).
        var nextWill: (@Sendable () -> Message)?
    }

    let options: Options
    private let handle: OpaquePointer
    private let handlers: Handlers
    private let logger: Logger
    private let wakeUp = DispatchSemaphore(value: 0)

    private let state = Locked(State())

    /// What the network thread and the callers share.
    private struct State {
        var connected = false
        var started = false
        var stopRequested = false
        var finished = false
        var finishWaiters: [CheckedContinuation<Void, Never>] = []
        /// Why the last attempt failed (a refused CONNACK is only known in the connect callback).
        var refusal: String?
        /// Message ids the broker has acknowledged, collected only while `stop()` waits for them.
        var acknowledged: Set<Int32>?
        var acknowledgementWaiter: (ids: Set<Int32>, continuation: CheckedContinuation<Void, Never>)?
        /// The broker said it still had this client's session at the last connection.
        var sessionPresent = false
        /// Callers of `waitUntilConnected`, by number, with the task that ends their wait.
        var connectionWaiters: [Int: (continuation: CheckedContinuation<Bool, Never>, timeout: Task<Void, Never>?)] = [:]
        var nextWaiter = 0
    }
    /// MQTT 5 in use; false after a broker refused it (network thread only, like connecting).
    private var speaksVersion5: Bool
    /// The next attempt must be a full connect: set when falling back to 3.1.1 (see `connect`).
    private var fullConnectNeeded = false
    /// What the connection's waits and the outage's length are measured on. The network's own
    /// time (a real broker's), not the caller's: a test that steps its clock still talks to a
    /// broker in real time.
    private let clock: any WallClock

    init(options: Options, handlers: Handlers, logger: Logger, clock: any WallClock = SystemClock()) throws(SinkConfigurationError) {
        self.clock = clock
        try MosquittoLibrary.load()
        guard let handle = aq_mosquitto_new(options.clientID, options.cleanSession || options.clientID == nil, nil) else {
            throw .mqttSetupFailed("mosquitto_new: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.options = options
        self.speaksVersion5 = options.protocolVersion5 || options.maximumPacketSize != nil
        self.handlers = handlers
        self.logger = logger
        try configure()
        aq_mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        aq_mosquitto_connect_with_flags_callback_set(handle, mosquittoConnected)
        aq_mosquitto_disconnect_callback_set(handle, mosquittoDisconnected)
        aq_mosquitto_message_callback_set(handle, mosquittoMessage)
        aq_mosquitto_publish_callback_set(handle, mosquittoPublished)
    }

    deinit {
        aq_mosquitto_destroy(handle)
    }

    private func configure() throws(SinkConfigurationError) {
        func check(_ code: Int32, _ what: String) throws(SinkConfigurationError) {
            guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
                throw .mqttSetupFailed("\(what): \(MosquittoLibrary.describe(code))")
            }
        }
        try check(aq_mosquitto_threaded_set(handle, true), "threaded mode")
        if speaksVersion5 {
            try check(aq_mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5), "protocol version 5")
        }
        if let user = options.broker.username {
            try check(aq_mosquitto_username_pw_set(handle, user, options.broker.password), "user name and password")
        }
        if let will = options.will {
            try check(will.payload.withUnsafeBytes {
                aq_mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
            }, "last will on \(will.topic)")
        }
        if options.broker.usesTLS {
            let directory = options.caFile == nil ? options.caDirectory : nil
            try check(aq_mosquitto_tls_set(handle, options.caFile, directory, nil, nil, nil),
                      "TLS with CA \(options.caFile ?? options.caDirectory) (mqtts needs a readable CA file or directory)")
        }
    }

    var isConnected: Bool { state.withLock { $0.connected } }

    /// Waits until the broker accepted the connection (true) or `timeout` passed (false). Woken
    /// by the connect callback, not polled; for a one-shot client (`bottle forget`, `doctor`) that
    /// has nothing to do before it is connected.
    func waitUntilConnected(within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let waiter = state.withLock { state -> Int? in
                guard !state.connected else { return nil }
                state.nextWaiter += 1
                state.connectionWaiters[state.nextWaiter] = (continuation, nil)
                return state.nextWaiter
            }
            guard let waiter else { return continuation.resume(returning: true) }
            let timer = Task { [state, clock] in
                try? await clock.sleep(for: timeout)
                state.withLock { $0.connectionWaiters.removeValue(forKey: waiter) }?.continuation.resume(returning: false)
            }
            // Connected meanwhile: the entry is gone and the timer has nothing left to end.
            let pending = state.withLock { state -> Bool in
                guard state.connectionWaiters[waiter] != nil else { return false }
                state.connectionWaiters[waiter]?.timeout = timer
                return true
            }
            if !pending { timer.cancel() }
        }
    }

    /// Whether the broker still had this client's session at the last connection (a persistent
    /// session: false at the first connection, and after a broker that lost it).
    var sessionPresent: Bool { state.withLock { $0.sessionPresent } }

    // MARK: - Any thread

    /// Starts the network thread, which connects and keeps reconnecting until `stop()`.
    func start() {
        let shouldStart = state.withLock { state -> Bool in
            guard !state.started, !state.stopRequested else { return false }
            state.started = true
            return true
        }
        guard shouldStart else { return }
        let thread = Thread { [self] in
            runNetworkLoop()
            networkLoopEnded()
        }
        thread.name = "mqtt \(options.broker.host):\(options.broker.port)"
        thread.start()
    }

    /// Queues a message for the broker and returns its message id. Throws when there is no
    /// connection: libmosquitto would otherwise accept it and lose it at the next reconnect
    /// (clean session).
    @discardableResult
    func publish(_ message: Message) throws(MQTTClientError) -> Int32 {
        guard isConnected else { throw .notConnected(broker: options.broker.description) }
        var id: Int32 = 0
        let code = message.payload.withUnsafeBytes {
            aq_mosquitto_publish(handle, &id, message.topic, Int32($0.count), $0.baseAddress, message.qos, message.retain)
        }
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
            throw .failed(operation: "publish to \(message.topic)", code: code)
        }
        return id
    }

    /// Subscribes for the current connection (clean session: call it from `connected`).
    /// `retainAsPublished` (MQTT 5 only) keeps the retain flag of live messages, for tests.
    func subscribe(_ topic: String, qos: Int32 = 1, retainAsPublished: Bool = false) throws(MQTTClientError) {
        let code: Int32
        if options.protocolVersion5 {
            let retainAsPublishedOption: Int32 = 0x08  // MQTT_SUB_OPT_RETAIN_AS_PUBLISHED
            code = aq_mosquitto_subscribe_v5(handle, nil, topic, qos, retainAsPublished ? retainAsPublishedOption : 0, nil)
        } else {
            code = aq_mosquitto_subscribe(handle, nil, topic, qos)
        }
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
            throw .failed(operation: "subscribe to \(topic)", code: code)
        }
    }

    /// Ends a subscription of the current connection.
    func unsubscribe(_ topic: String) throws(MQTTClientError) {
        let code = aq_mosquitto_unsubscribe(handle, nil, topic)
        guard code == Int32(MOSQ_ERR_SUCCESS.rawValue) else {
            throw .failed(operation: "unsubscribe from \(topic)", code: code)
        }
    }

    /// Publishes `finalMessages` (e.g. availability `offline`) if connected, waits up to 2 s for
    /// the broker to acknowledge them, disconnects cleanly and waits for the network thread to
    /// end (at most about 3 s more with a broker that stalls).
    ///
    /// Why wait for the acknowledgements: closing a socket whose receive buffer still holds the
    /// broker's PUBACK makes Linux send a reset, the broker may then lose the DISCONNECT it had
    /// not read yet, and it publishes the last will after all (seen in this suite).
    func stop(finalMessages: [Message] = []) async {
        let (wasRunning, wasConnected) = state.withLock { state -> (Bool, Bool) in
            let wasRunning = state.started && !state.stopRequested
            state.stopRequested = true
            if wasRunning && state.connected { state.acknowledged = [] }
            return (wasRunning, state.connected)
        }
        if wasRunning && wasConnected {
            var ids: Set<Int32> = []
            for message in finalMessages where message.qos > 0 {
                do { ids.insert(try publish(message)) } catch { logger.debug("MQTT: \(error)") }
            }
            for message in finalMessages where message.qos == 0 {
                do { try publish(message) } catch { logger.debug("MQTT: \(error)") }
            }
            await waitForAcknowledgements(of: ids, seconds: 2)
            aq_mosquitto_disconnect(handle)
        }
        wakeUp.signal()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.finished || !state.started { return true }
                state.finishWaiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    private func waitForAcknowledgements(of ids: Set<Int32>, seconds: Double) async {
        guard !ids.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let done = self.state.withLock { state -> Bool in
                        if ids.isSubset(of: state.acknowledged ?? []) || !state.connected || Task.isCancelled { return true }
                        state.acknowledgementWaiter = (ids, continuation)
                        return false
                    }
                    if done { continuation.resume() }
                }
            }
            group.addTask {
                try? await self.clock.sleep(for: .seconds(max(0, seconds)))
                self.resumeAcknowledgementWaiter()
            }
            await group.next()
            group.cancelAll()
            self.resumeAcknowledgementWaiter()
        }
    }

    private func resumeAcknowledgementWaiter() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            defer { state.acknowledgementWaiter = nil }
            return state.acknowledgementWaiter?.continuation
        }
        waiter?.resume()
    }

    /// Test hook: breaks the TCP connection without an MQTT DISCONNECT, as a crash or a pulled
    /// cable would, so the broker publishes the last will.
    func dropConnectionUncleanly() {
        let socket = aq_mosquitto_socket(handle)
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    // MARK: - The network thread

    private var isStopping: Bool { state.withLock { $0.stopRequested } }

    private func runNetworkLoop() {
        let label = options.broker.description
        var failures = 0
        var outageStart: MonotonicInstant?
        var neverConnected = true
        var stopDeadline: MonotonicInstant?

        // Progress: each pass is one connection attempt; the inner loop blocks in select() for up
        // to a second per pass, and a failed attempt sleeps its back-off before the next.
        while true {
            if isStopping { return }
            if let will = handlers.nextWill?() {
                // Only this thread connects, and no connection is open now: the will is libmosquitto's to change.
                let code = will.payload.withUnsafeBytes {
                    aq_mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain)
                }
                if code != Int32(MOSQ_ERR_SUCCESS.rawValue) { logger.warning("MQTT: last will on \(will.topic): \(MosquittoLibrary.describe(code))") }
            }
            let code = connect(first: neverConnected && failures == 0)
            var failure: String?
            if code != Int32(MOSQ_ERR_SUCCESS.rawValue) {
                failure = MosquittoLibrary.describe(code)
            } else {
                var loopCode: Int32
                repeat {
                    loopCode = aq_mosquitto_loop(handle, 1000, 1)
                    if isStopping {
                        let now = clock.instant
                        if stopDeadline == nil { stopDeadline = now + .seconds(3) }
                        if now > stopDeadline! { return }
                    }
                    if isConnected {
                        if let start = outageStart {
                            let seconds = clock.elapsed(since: start).components.seconds
                            let again = neverConnected ? "" : " again"
                            logger.notice("MQTT: connected to \(label)\(again) after \(failures) failed attempts over \(seconds) s")
                        } else if neverConnected {
                            logger.info("MQTT: connected to \(label)")
                        }
                        failures = 0
                        outageStart = nil
                        neverConnected = false
                    }
                } while loopCode == Int32(MOSQ_ERR_SUCCESS.rawValue)
                if isStopping { return }
                failure = state.withLock { $0.refusal } ?? describeLoopFailure(loopCode)
                state.withLock { $0.refusal = nil }
            }

            failures += 1
            let delay = min(options.reconnectDelay.upperBound,
                            options.reconnectDelay.lowerBound * pow(2, Double(min(failures - 1, 30))))
            if outageStart == nil {
                outageStart = clock.instant
                let text = "MQTT: \(neverConnected ? "cannot connect to" : "lost the connection to") \(label): "
                    + "\(failure ?? "unknown error"); retrying with back-off up to \(Int(options.reconnectDelay.upperBound)) s, "
                    + "further failures are not logged until it connects"
                logger.warning("\(text)")
            } else {
                logger.debug("MQTT: attempt \(failures) to reach \(label) failed: \(failure ?? "unknown error")")
            }
            // The back-off ends by the clock's timer, or is cut short by stop(): both signal the
            // semaphore (a late signal of a cancelled timer only comes once the thread is ending).
            let cancelTimer = clock.startTimer(after: .seconds(delay)) { [wakeUp] in wakeUp.signal() }
            wakeUp.wait()
            cancelTimer()
        }
    }

    /// Starts one connection attempt. The first one with a maximum packet size is a
    /// `mosquitto_connect_bind_v5`: libmosquitto keeps its CONNECT properties and sends them
    /// again with every `reconnect_async`. That first call makes its TCP connection blocking, so a
    /// broker host that drops packets holds this thread (and a stop) for the kernel's connect
    /// time-out once; later attempts are non-blocking.
    private func connect(first: Bool) -> Int32 {
        let host = options.broker.host, port = Int32(options.broker.port), keepAlive = Int32(options.keepAliveSeconds)
        if fullConnectNeeded {
            // After falling back to 3.1.1: connect_bind_v5 without properties forgets the MQTT 5
            // ones, which a 3.1.1 reconnect refuses to send ("not supported").
            fullConnectNeeded = false
            return aq_mosquitto_connect_bind_v5(handle, host, port, keepAlive, nil, nil)
        }
        guard first else { return aq_mosquitto_reconnect_async(handle) }
        if speaksVersion5, let maximum = options.maximumPacketSize {
            var properties: OpaquePointer?
            defer { aq_mosquitto_property_free_all(&properties) }
            let added = aq_mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_MAXIMUM_PACKET_SIZE.rawValue), maximum)
            guard added == Int32(MOSQ_ERR_SUCCESS.rawValue) else { return added }
            if !options.cleanSession {
                // MQTT 5 ends a session with its connection unless it is given an expiry: a
                // persistent session (3.1.1's clean session off) lasts as long as the broker does.
                let kept = aq_mosquitto_property_add_int32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), UInt32.max)
                guard kept == Int32(MOSQ_ERR_SUCCESS.rawValue) else { return kept }
            }
            return aq_mosquitto_connect_bind_v5(handle, host, port, keepAlive, nil, properties)
        }
        return aq_mosquitto_connect_async(handle, host, port, keepAlive)
    }

    /// A broker that does not speak MQTT 5 refuses the CONNECT: fall back to 3.1.1 (and lose the
    /// maximum packet size, so the broker's own limit is all there is; docs/home-assistant.md).
    /// Changing the protocol here is safe: only this thread connects, and nothing is published
    /// while there is no connection.
    private func fallBackToVersion3() -> Bool {
        guard speaksVersion5, !options.protocolVersion5 else { return false }
        speaksVersion5 = false
        fullConnectNeeded = true
        _ = aq_mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V311)
        logger.notice("MQTT: the broker at \(options.broker.description) does not speak MQTT 5; using 3.1.1, so only the broker's max_packet_size bounds what it may send")
        return true
    }

    /// What a failed `mosquitto_loop` means. MOSQ_ERR_INVAL there is almost always a socket
    /// numbered FD_SETSIZE (1024) or more, which libmosquitto's select() cannot wait on: say so,
    /// rather than "Invalid function arguments provided", on every attempt.
    private func describeLoopFailure(_ code: Int32) -> String {
        let socket = aq_mosquitto_socket(handle)
        if code == Int32(MOSQ_ERR_INVAL.rawValue), socket >= Int32(FD_SETSIZE) {
            return "libmosquitto cannot wait on socket \(socket): select() handles descriptors below \(FD_SETSIZE) "
                + "only, and this process has too many files open"
        }
        return MosquittoLibrary.describe(code)
    }

    private func networkLoopEnded() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.finished = true
            state.connected = false
            let waiters = state.finishWaiters
            state.finishWaiters.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: - Callbacks (network thread)

    fileprivate func didConnect(_ code: Int32, flags: Int32 = 0) {
        guard code == 0 else {
            let unsupportedVersion = Int32(MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION.rawValue)
            if speaksVersion5, code == unsupportedVersion || code == 1, fallBackToVersion3() {
                state.withLock { $0.refusal = "the broker does not speak MQTT 5; trying 3.1.1" }
                return
            }
            // MQTT 5 reason codes (134, 135) and 3.1.1 return codes (4, 5) read differently.
            let reason = String(cString: speaksVersion5 ? aq_mosquitto_reason_string(code) : aq_mosquitto_connack_string(code))
            let credentials: Set<Int32> = speaksVersion5
                ? [Int32(MQTT_RC_BAD_USERNAME_OR_PASSWORD.rawValue), Int32(MQTT_RC_NOT_AUTHORIZED.rawValue)] : [4, 5]
            let refusal = "the broker refused the connection: \(reason)" + (credentials.contains(code)
                ? " (check user and password in mqtt.url)" : "")
            state.withLock { $0.refusal = refusal }
            return
        }
        let (stopping, waiters) = state.withLock { state in
            state.connected = true
            state.sessionPresent = flags & 1 != 0
            defer { state.connectionWaiters = [:] }
            return (state.stopRequested, Array(state.connectionWaiters.values))
        }
        for waiter in waiters {
            waiter.timeout?.cancel()
            waiter.continuation.resume(returning: true)
        }
        if stopping {
            // stop() came while the connection was still being made: leave cleanly at once.
            aq_mosquitto_disconnect(handle)
            return
        }
        handlers.connected(self)
    }

    fileprivate func didDisconnect(_ code: Int32) {
        let wasConnected = state.withLock { state -> Bool in
            let was = state.connected
            state.connected = false
            return was
        }
        resumeAcknowledgementWaiter()
        if wasConnected { handlers.disconnected(code != 0) }
    }

    fileprivate func didPublish(_ id: Int32) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.acknowledged != nil else { return nil }
            state.acknowledged!.insert(id)
            guard let pending = state.acknowledgementWaiter, pending.ids.isSubset(of: state.acknowledged!) else { return nil }
            state.acknowledgementWaiter = nil
            return pending.continuation
        }
        waiter?.resume()
    }

    fileprivate func didReceive(_ message: UnsafePointer<mosquitto_message>) {
        let raw = message.pointee
        guard let topic = raw.topic else { return }
        // Judged by its length alone: a flood of large messages costs no copies here.
        if let limit = options.maximumIncomingPayload, Int(raw.payloadlen) > limit {
            handlers.oversized(self, String(cString: topic), Int(raw.payloadlen))
            return
        }
        let payload: [UInt8]
        if let bytes = raw.payload, raw.payloadlen > 0 {
            payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(raw.payloadlen)))
        } else {
            payload = []
        }
        handlers.message(self, Message(topic: String(cString: topic), payload: payload, qos: raw.qos, retain: raw.retain))
    }
}

// C callbacks: no captures allowed, so they find the client through libmosquitto's user data.

private func client(_ userData: UnsafeMutableRawPointer?) -> MosquittoClient? {
    userData.map { Unmanaged<MosquittoClient>.fromOpaque($0).takeUnretainedValue() }
}

private func mosquittoConnected(_: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ code: Int32, _ flags: Int32) {
    client(userData)?.didConnect(code, flags: flags)
}

private func mosquittoDisconnected(_: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ code: Int32) {
    client(userData)?.didDisconnect(code)
}

private func mosquittoPublished(_: OpaquePointer?, _ userData: UnsafeMutableRawPointer?, _ id: Int32) {
    client(userData)?.didPublish(id)
}

private func mosquittoMessage(_: OpaquePointer?, _ userData: UnsafeMutableRawPointer?,
                              _ message: UnsafePointer<mosquitto_message>?) {
    if let message { client(userData)?.didReceive(message) }
}
