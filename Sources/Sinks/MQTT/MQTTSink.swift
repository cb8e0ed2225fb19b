// Publishes to an MQTT broker for Home Assistant and anything else listening (topics and
// payloads: MQTTTopics, MQTTPayloads, HomeAssistantDiscovery), and takes commands from the
// command topic.
//
// On every (re)connection, from the network thread: the subscriptions, then the bridge's
// availability `online` (retained), the bridge's and the bottle's discovery configs (retained)
// and the latest state (retained) — clean sessions, so after a broker restart everything is
// there again. `offline` is the last will and is also published on a clean stop. When Home
// Assistant announces itself (`online` on `homeassistant/status`) the availability, discovery
// configs and state are sent again: whatever Home Assistant missed or a stray client overwrote.
//
// A visitor (a CLI command, `MQTTSinkConfiguration.Role`) only delivers: no will, no
// availability, no discovery, no state, no subscriptions, its own client id.
//
// The bottles: no bottle device is announced until a bottle is known (a fresh install would
// otherwise leave an orphan device in Home Assistant). `identify` tells the sink who a bottle
// is — its address, its Device Information serial (the device's identifier), firmware and
// model — and the sink announces it; when that bottle's topic id changes, its old device is
// removed (an empty retained config) before the new one is announced. A bridge with several
// bottles (docs/design.md 6) has a device, topics and retained state per bottle; an item names
// its bottle (`bottle`: serial or address), and one that names none is the last identified's.
//
// Commands: whoever may publish on the command topic is not trusted with more than
// the gate allows (the daemon's: the person's settings). Each command is rate-limited, judged
// by its length before it is copied, and answered on `…/command/result`; refusals are logged.
// The broker is asked (MQTT 5 Maximum Packet Size) not to send this client anything larger than
// `maximumPacketSize` at all.
//
// Delivery: notifications and drinks need a connection; without one `deliver` throws
// `.unavailable` and the hub retries them (the sink tells it when the connection is back). The
// state never fails: the newest one is kept and goes out on the next connection.

import AquavateProtocol
import Foundation
import Locking
import Logging
import MQTT
import Timekeeping

package final class MQTTSink: NotificationSink {
    package let name = "mqtt"
    /// The configuration the sink started with (`topics` and `current` follow `identify`).
    package let configuration: MQTTSinkConfiguration
    /// Which commands from the command topic go on to the bridge.
    package let gate: SinkCommandGate
    /// The commands refused so far, by reason.
    package let refusals: CommandRefusals
    private let client: MosquittoClient
    private let shared: Shared
    private let logger: Logger

    /// What the network thread's handlers and the hub's worker share.
    private final class Shared: Sendable {
        private struct Values {
            var context: SinkContext?
            /// The latest state of each bottle, by topic id.
            var snapshots: [String: BridgeSnapshot] = [:]
            /// The last bottle command's result of each bottle, by topic id (retained again at
            /// each connection: a restarted broker has forgotten it).
            var lastCommands: [String: String] = [:]
            /// The last identified bottle's configuration (the one before any was identified).
            var configuration: MQTTSinkConfiguration
            /// Every identified bottle's, the last identified among them.
            var bottles: [MQTTSinkConfiguration]
            /// The household's other bridges seen on the broker (docs/design.md 6).
            var otherBridges: Set<String> = []
        }
        private let values: Locked<Values>

        init(configuration: MQTTSinkConfiguration) {
            values = Locked(Values(configuration: configuration, bottles: configuration.hasBottle ? [configuration] : []))
        }

        var current: MQTTSinkConfiguration { values.withLock { $0.configuration } }
        var bottles: [MQTTSinkConfiguration] { values.withLock { $0.bottles } }

        /// Records `bottle`'s identity: returns the configuration it had (nil: a new bottle of
        /// several) and the one it has now.
        func identify(_ bottle: SinkBottle) -> (old: MQTTSinkConfiguration?, new: MQTTSinkConfiguration) {
            values.withLock { values in
                // A bottle already known by address or serial; or the one the sink started
                // with that only had its topic id fixed (`mqtt.bottle_id`).
                let index = values.bottles.firstIndex { $0.isBottle(bottle) }
                    ?? (values.bottles.count == 1 && values.bottles[0].bottleAddress == nil && values.bottles[0].bottleSerial == nil ? 0 : nil)
                let old: MQTTSinkConfiguration?
                if let index {
                    old = values.bottles[index]
                } else if values.bottles.isEmpty {
                    old = values.configuration  // the first bottle: what the sink started with
                } else {
                    old = nil
                }
                let new = (old ?? values.configuration.forAnotherBottle()).identifying(bottle)
                if let index { values.bottles[index] = new } else { values.bottles.append(new) }
                values.configuration = new
                if let old, old.topics.bottleID != new.topics.bottleID {
                    values.snapshots[new.topics.bottleID] = values.snapshots.removeValue(forKey: old.topics.bottleID)
                }
                return (old, new)
            }
        }

        /// The configuration of the bottle an item names (nil or unknown: the last identified).
        func configuration(for bottle: String?) -> MQTTSinkConfiguration {
            values.withLock { values in
                bottle.flatMap { key in values.bottles.first { $0.isBottle(key) } } ?? values.configuration
            }
        }

        /// Records another bridge; true when it is new.
        func sawBridge(_ id: String) -> Bool { values.withLock { $0.otherBridges.insert(id).inserted } }
        var otherBridges: [String] { values.withLock { $0.otherBridges.sorted() } }

        func set(context: SinkContext) { values.withLock { $0.context = context } }
        var currentContext: SinkContext? { values.withLock { $0.context } }
        func set(snapshot: BridgeSnapshot, for id: String) { values.withLock { $0.snapshots[id] = snapshot } }
        func snapshot(for id: String) -> BridgeSnapshot? { values.withLock { $0.snapshots[id] } }
        func set(lastCommand: String, for id: String) { values.withLock { $0.lastCommands[id] = lastCommand } }
        func lastCommand(for id: String) -> String? { values.withLock { $0.lastCommands[id] } }
    }

    /// The topics of the bottle as now known.
    package var topics: MQTTTopics { shared.current.topics }
    /// The configuration as now known (the bottle's identity after `identify`).
    package var current: MQTTSinkConfiguration { shared.current }

    /// The largest packet the broker may send this client: a command (4 KiB) with its topic and
    /// headers fits many times over, and the only other subscription is Home Assistant's
    /// one-word birth message.
    package static let maximumPacketSize: UInt32 = 65_536

    /// - Parameters:
    ///   - gate: which commands may go on; the default lets no setting change.
    ///   - refusals: where refused commands are counted.
    ///   - clock: time for the command rate limit.
    package init(configuration: MQTTSinkConfiguration, gate: SinkCommandGate = .noSettings,
                refusals: CommandRefusals = CommandRefusals(),
                clock: any WallClock = SystemClock(), logger: Logger) throws(SinkConfigurationError) {
        self.configuration = configuration
        self.gate = gate
        self.refusals = refusals
        self.logger = logger
        let shared = Shared(configuration: configuration)
        self.shared = shared
        let topics = configuration.topics
        let intake = CommandIntake(gate: gate, limiter: CommandRateLimiter(clock: clock), refusals: refusals, logger: logger)
        let daemon = configuration.role == .daemon
        let options = MosquittoClient.Options(
            broker: configuration.broker,
            clientID: configuration.clientID ?? configuration.visitorClientID,
            keepAliveSeconds: configuration.keepAliveSeconds,
            will: daemon ? .init(topic: topics.availability, text: "offline", retain: true) : nil,
            caFile: configuration.caFile,
            caDirectory: configuration.caDirectory,
            reconnectDelay: configuration.reconnectDelay,
            maximumPacketSize: Self.maximumPacketSize,
            maximumIncomingPayload: SinkCommandParser.maximumBytes)
        let handlers = MosquittoClient.Handlers(
            connected: { client in
                guard daemon else {
                    shared.currentContext?.reachable()
                    return
                }
                // Subscribe before announcing: the broker handles this connection's packets in
                // order, so whatever reacts to the announcement (Home Assistant's birth message, a
                // command from the new device's page) finds the subscriptions in place.
                let current = shared.current
                let bottles = shared.bottles
                let subscriptions = bottles.map(\.topics.command) + [current.topics.homeAssistantStatus, current.bridgesAvailabilityFilter]
                    + (current.discovery ? Self.otherFormTopics(current, bottles: bottles) : [])
                for topic in subscriptions {
                    do { try client.subscribe(topic) } catch { logger.warning("\(error)") }
                }
                Self.announce(on: client, configuration: current, bottles: bottles, shared: shared,
                              availability: true, logger: logger)
                shared.currentContext?.reachable()
            },
            message: { client, message in
                Self.received(message, on: client, configuration: configuration, shared: shared, intake: intake,
                              logger: logger)
            },
            oversized: { client, topic, bytes in
                guard let bottle = shared.bottles.first(where: { $0.topics.command == topic }) else {
                    logger.warning("MQTT: ignored a message of \(bytes) bytes on \(topic)")
                    return
                }
                intake.oversized(bytes: bytes, topics: bottle.topics, on: client)
            })
        client = try MosquittoClient(options: options, handlers: handlers, logger: logger)
    }

    package func start(_ context: SinkContext) async {
        shared.set(context: context)
        client.start()
    }

    package func stop() async {
        guard isDaemon else {
            await client.stop()
            return
        }
        await client.stop(finalMessages: [.init(topic: topics.availability, text: "offline", retain: true)])
    }

    private var isDaemon: Bool { configuration.role == .daemon }

    /// Home Assistant's entities are the bridge's state (the daemon's alone).
    package var publishesState: Bool { isDaemon }

    package func identify(_ bottle: SinkBottle) async {
        guard bottle.isKnown else { return }
        guard isDaemon else {
            _ = shared.identify(bottle)
            return
        }
        let (known, new) = shared.identify(bottle)
        guard new != known, client.isConnected else { return }
        let old = known ?? new.forAnotherBottle()
        let moved = old.hasBottle && old.topics.bottleID != new.topics.bottleID
        if moved {
            // The old device goes (an empty retained config removes it), with its retained state.
            for topic in [old.topics.discovery, old.topics.state, old.topics.commandLast]
                + HomeAssistantDiscovery.entityTopics(for: old) {
                _ = try? client.publish(.init(topic: topic, text: "", retain: true))
            }
            try? client.unsubscribe(old.topics.command)
        }
        if moved || !old.hasBottle {
            do { try client.subscribe(new.topics.command) } catch { logger.warning("\(error)") }
        }
        Self.announce(on: client, configuration: new, bottles: [new], shared: shared, availability: false, logger: logger)
    }

    package func publish(_ result: SinkCommandResult) async throws {
        let bottle = shared.configuration(for: result.bottle)
        guard bottle.hasBottle, isDaemon else { return }
        let text = MQTTPayloads.bottleCommandResult(result).text
        shared.set(lastCommand: text, for: bottle.topics.bottleID)
        if !result.isReplay { try publish(.init(topic: bottle.topics.commandResult, text: text)) }
        // Retained apart: Home Assistant's "Last bottle command" after its restart; the result
        // topic itself stays unretained (a retained refusal would be answered again to each
        // new subscriber).
        _ = try? client.publish(.init(topic: bottle.topics.commandLast, text: text, retain: true))
    }

    package func deliver(_ notification: SinkNotification) async throws {
        let bottle = shared.configuration(for: notification.bottle)
        try publish(.init(topic: bottle.topics.notification, text: MQTTPayloads.notification(notification).text))
    }

    package func publish(_ drink: Drink) async throws {
        let bottle = shared.configuration(for: drink.bottle)
        guard bottle.hasBottle else { return }
        try publish(.init(topic: bottle.topics.drink, text: MQTTPayloads.drink(drink).text))
    }

    package func publish(_ snapshot: BridgeSnapshot) async throws {
        let bottle = shared.configuration(for: snapshot.bottle)
        shared.set(snapshot: snapshot, for: bottle.topics.bottleID)
        // Without a connection it goes out with the next `connected`; nothing to retry. Without
        // a bottle there is no device to carry it.
        guard bottle.hasBottle, isDaemon else { return }
        _ = try? client.publish(.init(topic: bottle.topics.state, text: MQTTPayloads.state(snapshot).text, retain: true))
    }

    private func publish(_ message: MosquittoClient.Message) throws(SinkDeliveryError) {
        do {
            try client.publish(message)
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// Test hook: see MosquittoClient.dropConnectionUncleanly.
    func dropConnectionUncleanly() { client.dropConnectionUncleanly() }

    var isConnected: Bool { client.isConnected }

    // MARK: - Network thread

    /// The bridge's availability and device, then each of `bottles`' device and latest state.
    /// Discovery goes out in the configured form (`mqtt.discovery_format`).
    private static func announce(on client: MosquittoClient, configuration: MQTTSinkConfiguration,
                                 bottles: [MQTTSinkConfiguration], shared: Shared, availability: Bool, logger: Logger) {
        let topics = configuration.topics
        var messages: [MosquittoClient.Message] = []
        if availability { messages.append(.init(topic: topics.availability, text: "online", retain: true)) }
        let entityForm = configuration.discoveryFormat == .entity
        if configuration.discovery {
            messages.append(entityForm
                ? .init(topic: topics.bridgeEntityDiscovery, text: HomeAssistantDiscovery.bridgeEntityPayload(for: configuration).text, retain: true)
                : .init(topic: topics.bridgeDiscovery, text: HomeAssistantDiscovery.bridgePayload(for: configuration).text, retain: true))
        }
        for bottle in bottles where bottle.hasBottle {
            if configuration.discovery {
                let others = shared.otherBridges
                if entityForm {
                    for (topic, payload) in HomeAssistantDiscovery.entityPayloads(for: bottle, otherBridges: others) {
                        messages.append(.init(topic: topic, text: payload.text, retain: true))
                    }
                } else {
                    messages.append(.init(topic: bottle.topics.discovery,
                                          text: HomeAssistantDiscovery.payload(for: bottle, otherBridges: others).text, retain: true))
                }
            }
            if let snapshot = shared.snapshot(for: bottle.topics.bottleID) {
                messages.append(.init(topic: bottle.topics.state, text: MQTTPayloads.state(snapshot).text, retain: true))
            }
            if let last = shared.lastCommand(for: bottle.topics.bottleID) {
                messages.append(.init(topic: bottle.topics.commandLast, text: last, retain: true))
            }
        }
        for message in messages {
            do { try client.publish(message) } catch { logger.warning("\(error)") }
        }
    }

    /// The config topics of the discovery form not in use: a retained config found there (left by
    /// this bridge before `mqtt.discovery_format` changed) is emptied when it arrives. Both forms
    /// name each entity alike for Home Assistant, which would otherwise keep the old one and
    /// warn of a conflict at every announcement.
    private static func otherFormTopics(_ configuration: MQTTSinkConfiguration, bottles: [MQTTSinkConfiguration]) -> [String] {
        let topics = configuration.topics
        if configuration.discoveryFormat == .entity {
            return [topics.bridgeDiscovery] + bottles.filter(\.hasBottle).map(\.topics.discovery)
        }
        return [topics.bridgeEntityDiscovery] + bottles.filter(\.hasBottle).flatMap { HomeAssistantDiscovery.entityTopics(for: $0) }
    }

    /// The id of another bridge whose availability topic this is; nil otherwise.
    private static func otherBridge(_ topic: String, configuration: MQTTSinkConfiguration) -> String? {
        let filter = configuration.bridgesAvailabilityFilter.split(separator: "/", omittingEmptySubsequences: false)
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == filter.count, let wildcard = filter.firstIndex(of: "+") else { return nil }
        for (level, expected) in zip(levels, filter) where expected != "+" && level != expected { return nil }
        let id = String(levels[wildcard])
        return id == configuration.topics.bridgeID || !MQTTTopics.isValidID(id) ? nil : id
    }

    private static func received(_ message: MosquittoClient.Message, on client: MosquittoClient,
                                 configuration _: MQTTSinkConfiguration, shared: Shared, intake: CommandIntake,
                                 logger: Logger) {
        let configuration = shared.current
        let topics = configuration.topics
        if message.topic == topics.homeAssistantStatus {
            // A retained `online` arrives with every subscription, right after the announcement
            // the connection made: only a live birth message means Home Assistant restarted.
            guard message.text == "online", !message.retain else { return }
            logger.info("MQTT: Home Assistant is online; announcing the bridge and the bottle again")
            announce(on: client, configuration: configuration, bottles: shared.bottles, shared: shared,
                     availability: true, logger: logger)
        } else if message.retain, !message.payload.isEmpty, configuration.discovery,
                  otherFormTopics(configuration, bottles: shared.bottles).contains(message.topic) {
            // The old form's config goes (Home Assistant removes its entity), then the current
            // form is announced again to take its place, in that order on this connection.
            logger.info("MQTT: removing \(message.topic), a discovery config of the other mqtt.discovery_format")
            do { try client.publish(.init(topic: message.topic, text: "", retain: true)) } catch { logger.warning("\(error)") }
            announce(on: client, configuration: configuration, bottles: shared.bottles, shared: shared,
                     availability: false, logger: logger)
        } else if let other = otherBridge(message.topic, configuration: configuration) {
            // Another bridge of the household: the bottles are available while any bridge is.
            guard shared.sawBridge(other), configuration.discovery else { return }
            logger.info("MQTT: bridge \(other) shares this broker; the bottles are available while either is")
            announce(on: client, configuration: configuration, bottles: shared.bottles, shared: shared,
                     availability: false, logger: logger)
        } else if let bottle = shared.bottles.first(where: { $0.topics.command == message.topic }) {
            guard !message.retain else {
                logger.warning("MQTT: ignored a retained message on \(bottle.topics.command): commands must be published without retain, or they would run again at every reconnection")
                return
            }
            if var command = intake.admit(message.payload, topics: bottle.topics, on: client) {
                // With several bottles, a bottle command or a manual intake is for the one whose
                // topic it came on (a manual intake naming a bottle keeps its own).
                if shared.bottles.count > 1, let key = bottle.bottleSerial ?? bottle.bottleAddress {
                    if case let .bottle(request) = command { command = .bottleOf(request, bottle: key) }
                    if case let .log(type, nil) = command { command = .log(type: type, bottle: key) }
                }
                shared.currentContext?.command(command)
            }
        }
    }
}
