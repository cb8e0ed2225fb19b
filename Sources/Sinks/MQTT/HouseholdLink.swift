// The household's link through the broker (docs/design.md 6): bridges that share `mqtt.url`
// exchange the drinks each stored, with nothing but MQTT between them.
//
//     <prefix>/household/drink/<bridge>   one JSON drink per message, QoS 1, not retained:
//                                         what bridge <bridge> synced (or deleted)
//     <prefix>/household/hello/<bridge>   a bridge the broker had no session for: the others
//                                         publish their drinks again for it
//
// Each bridge keeps a persistent session (clean session off, client id `aquavate-<bridge>-house`,
// MQTT 3.1.1), so the broker queues what was published while it was away; a first connection
// (or a broker that lost the session) says hello instead. Receivers store idempotently on
// (bottle, record_id, timestamp), so a repeated or reordered delivery changes nothing.

import Foundation
import Locking
import Logging

public final class HouseholdLink: Sendable {
    /// One drink as the household exchanges it.
    public struct Drink: Sendable, Equatable {
        /// The bottle's key (its serial once read).
        public var bottle: String
        public var recordID: UInt32
        public var timestamp: UInt32
        public var amountML: Int
        public var bottleLevelML: Int
        public var typeRaw: UInt8
        public var flagsRaw: UInt8
        public var deleted: Bool
        /// The bridge that synced it.
        public var origin: String

        public init(bottle: String, recordID: UInt32, timestamp: UInt32, amountML: Int, bottleLevelML: Int,
                    typeRaw: UInt8, flagsRaw: UInt8, deleted: Bool, origin: String) {
            self.bottle = bottle
            self.recordID = recordID
            self.timestamp = timestamp
            self.amountML = amountML
            self.bottleLevelML = bottleLevelML
            self.typeRaw = typeRaw
            self.flagsRaw = flagsRaw
            self.deleted = deleted
            self.origin = origin
        }
    }

    /// What another bridge sent.
    public enum Received: Sendable, Equatable {
        case drink(Drink)
        /// A bridge without a session: it wants every drink again.
        case hello(from: String)
    }

    public let bridgeID: String
    private let client: MosquittoClient
    private let drinkTopic: String
    private let helloTopic: String

    /// - Parameters:
    ///   - connected: on every connection, whether the broker kept this bridge's session.
    ///   - received: each drink or hello from another bridge (on the network thread).
    public init(url: String, bridgeID: String, topicPrefix: String = "aquavate", logger: Logger,
                reconnectDelay: ClosedRange<Double> = 1...60, caFile: String? = nil,
                connected: @escaping @Sendable (_ sessionPresent: Bool) -> Void,
                received: @escaping @Sendable (Received) -> Void) throws(SinkConfigurationError) {
        let broker = try MQTTBrokerURL(parsing: url)
        guard MQTTTopics.isValidID(bridgeID) else {
            throw .invalidName(setting: "bridge.id", value: bridgeID, expected: "1 to 64 of A-Z a-z 0-9 _ - (the host name, unless set)")
        }
        guard MQTTTopics.isValidPrefix(topicPrefix) else {
            throw .invalidName(setting: "mqtt.topic_prefix", value: topicPrefix,
                               expected: "topic levels like aquavate or home/aquavate, without + # or empty levels")
        }
        self.bridgeID = bridgeID
        let base = "\(topicPrefix)/household"
        drinkTopic = "\(base)/drink/\(bridgeID)"
        helloTopic = "\(base)/hello/\(bridgeID)"
        let own = bridgeID
        let options = MosquittoClient.Options(
            broker: broker, clientID: "aquavate-\(bridgeID)-house", keepAliveSeconds: 30, caFile: caFile,
            reconnectDelay: reconnectDelay, maximumIncomingPayload: 4096, cleanSession: false)
        let handlers = MosquittoClient.Handlers(
            connected: { client in
                // Subscribed before anything is published: a persistent session keeps them, a
                // new one needs them at once.
                for topic in ["\(base)/drink/+", "\(base)/hello/+"] {
                    do { try client.subscribe(topic, qos: 1) } catch { logger.warning("MQTT household: \(error)") }
                }
                connected(client.sessionPresent)
            },
            message: { _, message in
                let levels = message.topic.split(separator: "/")
                guard levels.count >= 2, String(levels[levels.count - 1]) != own else { return }
                let sender = String(levels[levels.count - 1])
                switch String(levels[levels.count - 2]) {
                case "hello":
                    received(.hello(from: sender))
                case "drink":
                    guard let drink = Self.drink(from: message.payload, origin: sender) else {
                        logger.warning("MQTT household: ignored a drink from \(sender) that is not one (\(message.payload.count) bytes)")
                        return
                    }
                    received(.drink(drink))
                default:
                    break
                }
            },
            oversized: { _, topic, bytes in
                logger.warning("MQTT household: ignored a message of \(bytes) bytes on \(topic)")
            })
        client = try MosquittoClient(options: options, handlers: handlers, logger: logger)
    }

    public func start() { client.start() }

    /// Waits (about 3 s at most) for what was published to be acknowledged, then disconnects.
    public func stop() async { await client.stop() }

    public var isConnected: Bool { client.isConnected }

    /// Publishes a drink this bridge synced (QoS 1). Throws without a connection.
    public func publish(_ drink: Drink) throws(SinkDeliveryError) {
        do {
            try client.publish(.init(topic: drinkTopic, text: Self.payload(drink).text, qos: 1))
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// Asks the other bridges for everything (QoS 1).
    public func hello() throws(SinkDeliveryError) {
        do {
            try client.publish(.init(topic: helloTopic, text: "{}", qos: 1))
        } catch {
            throw .unavailable(error.description)
        }
    }

    // MARK: Payload

    static func payload(_ drink: Drink) -> JSONValue {
        .object([
            "bottle": .string(drink.bottle), "record_id": .int(Int(drink.recordID)), "timestamp": .int(Int(drink.timestamp)),
            "amount_ml": .int(drink.amountML), "bottle_level_ml": .int(drink.bottleLevelML),
            "type_raw": .int(Int(drink.typeRaw)), "flags_raw": .int(Int(drink.flagsRaw)), "deleted": .bool(drink.deleted),
        ])
    }

    /// A drink from its payload; nil when any field is missing or out of range.
    static func drink(from payload: [UInt8], origin: String) -> Drink? {
        guard let json = JSONValue.parse(payload), case let .string(bottle)? = json["bottle"], !bottle.isEmpty, bottle.count <= 64,
              case let .int(recordID)? = json["record_id"], let recordID = UInt32(exactly: recordID),
              case let .int(timestamp)? = json["timestamp"], let timestamp = UInt32(exactly: timestamp),
              case let .int(amount)? = json["amount_ml"], Int16(exactly: amount) != nil,
              case let .int(level)? = json["bottle_level_ml"], Int16(exactly: level) != nil,
              case let .int(type)? = json["type_raw"], let typeRaw = UInt8(exactly: type),
              case let .int(flags)? = json["flags_raw"], let flagsRaw = UInt8(exactly: flags),
              case let .bool(deleted)? = json["deleted"] else { return nil }
        return Drink(bottle: bottle, recordID: recordID, timestamp: timestamp, amountML: amount, bottleLevelML: level,
                     typeRaw: typeRaw, flagsRaw: flagsRaw, deleted: deleted, origin: origin)
    }
}
