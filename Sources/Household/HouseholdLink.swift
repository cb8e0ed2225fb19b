// The household's link through the broker (docs/design.md 6): bridges that share `mqtt.url`
// exchange the drinks each stored, with nothing but MQTT between them.
//
//     <prefix>/household/drink/<bridge>   one JSON drink per message, QoS 1, not retained:
//                                         what bridge <bridge> synced (or deleted)
//     <prefix>/household/hello/<bridge>   retained {"epoch","have":{member: time}}: a bridge the
//                                         broker had no session for (a new epoch each time);
//                                         every other bridge publishes its drinks changed after
//                                         what `have` names for it (all when nothing) once per
//                                         epoch it sees, also one that connects later (it gets
//                                         the retained hello)
//     <prefix>/household/bottle/<address> retained: the serial of the bottle with that address
//                                         (claims and syncer are keyed by the serial once read)
//     <prefix>/household/reminds/<bottle>/<bridge>  retained "1" / "": the bridge runs the
//                                         bottle's reminders (a hand-over candidate)
//     <prefix>/household/delivered/<bridge>  {"bottle","id","kind","time"}, QoS 1, retained: a
//                                         reminder the bridge delivered (another never repeats
//                                         it; retained so a member whose session was emptied
//                                         still learns each bridge's newest one)
//     <prefix>/household/alive/<bridge>   online / offline, retained; offline is the last will
//     <prefix>/household/claim/<bottle>/<bridge>   retained: the bridge wants (with the RSSI it
//                                         hears) or holds the bottle's one connection; empty
//                                         when released (HouseholdClaims decides)
//     <prefix>/household/syncer/<bottle>  retained {"bridge","time"}: the bridge that last synced
//                                         the bottle (at `time`, its clock), which alone sends its
//                                         person's reminders while alive (an older bridge's plain
//                                         bridge id is read too, without a time)
//     <prefix>/household/delete/<bridge>  {"bottle","origin","record_id","timestamp"}, QoS 1: the
//                                         bridge deleted a drink that member `origin` added by
//                                         hand (HouseholdDeletionMessage)
//     <prefix>/household/ping/<asker>     `doctor` asks; every bridge answers on
//     <prefix>/household/pong/<bridge>    {"time", "instance", "synchronised"} (HouseholdProbe)
//
// Every payload is signed (HouseholdSeal, with `household.key`): a message that is not, or that is
// older on its topic than one already heard, is dropped and counted (HouseholdDrops), before its
// body is read. Membership is the key, not the topic name. Every link is MQTT 5 with a maximum
// packet size, so the broker never sends a message larger than a household message can be.
//
// Each bridge keeps a persistent session (clean session off, client id `aquavate-<bridge>-house`,
// MQTT 3.1.1), so the broker queues what was published while it was away; a first connection
// (or a broker that lost the session) says hello instead, retained, so that a bridge whose own
// session went too (a broker restarted without persistence) hears it whenever it comes back.
// Receivers store idempotently on
// (bottle, record_id, timestamp), so a repeated or reordered delivery changes nothing.

import AquavateProtocol
import Foundation
import Locking
import Logging
import MQTT
import Settings
import Timekeeping

package final class HouseholdLink: Sendable {
    /// One drink as the household exchanges it: the drink, who synced it and when it changed.
    package struct Drink: DrinkCarrying, Sendable, Equatable {
        package var drink: AquavateProtocol.Drink
        /// The bridge that synced it.
        package var origin: String
        /// When the origin stored or deleted it (its clock): a member's hello says the latest it
        /// has, and the origin answers with only what changed after (nil from an older bridge).
        package var changedAt: WallInstant?

        package init(_ drink: AquavateProtocol.Drink, origin: String, changedAt: WallInstant? = nil) {
            self.drink = drink
            self.origin = origin
            self.changedAt = changedAt
        }
    }

    /// A bridge's claim on a bottle's connection.
    package struct Claim: Sendable, Equatable {
        package enum Phase: String, Sendable, Codable { case want, hold }
        package var phase: Phase
        /// The RSSI the bridge hears the bottle with (dBm).
        package var rssi: Int

        package init(phase: Phase, rssi: Int) {
            self.phase = phase
            self.rssi = rssi
        }
    }

    /// A reminder a bridge delivered, as the household tells it.
    package struct Delivered: Sendable, Equatable {
        /// The bottle's key (its serial once read).
        package var bottle: String
        /// The notification's id (`hydration-7`, …).
        package var id: String
        package var kind: String
        package var time: WallInstant
        /// The bridge that delivered it.
        package var from: String

        package init(bottle: String, id: String, kind: String, time: WallInstant, from: String) {
            self.bottle = bottle
            self.id = id
            self.kind = kind
            self.time = time
            self.from = from
        }
    }

    /// What another bridge sent.
    package enum Received: Sendable, Equatable {
        case drink(Drink)
        /// A bridge without a session: it wants the drinks it lacks again, once per `epoch` (nil:
        /// an older bridge's hello without one, answered every time). `have`: per member, the
        /// latest change of that member's drinks it holds (a member it does not name gets all
        /// again). `stored`: the broker's retained copy, heard at subscription (its bridge was
        /// subscribed before this connection).
        case hello(from: String, epoch: String?, have: [String: WallInstant], stored: Bool)
        /// The serial (`key`) of the bottle whose address has topic id `address`.
        case bottleKey(address: String, key: String)
        /// A bridge runs (or no longer runs) the reminders of a bottle (its topic id).
        case reminds(bottle: String, bridge: String, Bool)
        /// A bridge delivered a reminder of a bottle (its key).
        case delivered(Delivered)
        /// A bridge came online or went offline (its last will).
        case alive(bridge: String, Bool)
        /// A bridge's claim on a bottle (nil: released). `stored`: the broker's retained copy,
        /// heard at subscription, not just now. `sentAt`: when its bridge signed it (its clock).
        case claim(bottle: String, bridge: String, Claim?, stored: Bool, sentAt: WallInstant)
        /// The bridge that last synced a bottle, and when (its clock; nil from an older bridge
        /// that did not say): retained messages replayed at a reconnection come in any order, so
        /// the latest is chosen by this time, not by the order heard.
        case syncer(bottle: String, bridge: String, time: WallInstant?)
        /// `doctor` asks who is there.
        case ping(from: String)
        /// A member's digest of the drinks it synced: day number → `count:hash`, and before the
        /// window period number → `count:hash` (HouseholdDigest).
        case digest(from: String, days: [Int64: String], periods: [Int64: String])
        /// A member asks this bridge for the drinks it synced on these days again (of a day in
        /// `held`, only those whose mark is not there), and for the per-day digests of these periods.
        case want(from: String, days: [Int64], periods: [Int64], held: [Int64: Set<String>])
        /// A member deleted a drink another member (perhaps this bridge) added by hand.
        case deletion(Deletion)
    }

    package let bridgeID: String
    private let client: MosquittoClient
    private let drinkTopic: String
    private let helloTopic: String
    /// `<prefix>/household`: every household topic is under it.
    let base: String
    private let key: HouseholdKey
    private let clock: any WallClock
    /// What was not believed, by reason.
    package let drops: HouseholdDrops
    /// This start's stamps: `boot` (HouseholdSeal) and the next sequence number; the sequence the
    /// `online` of the coming connection uses (its will takes the one after).
    private let stamps: Locked<(next: UInt64, online: UInt64?)>
    private let boot: UInt64
    /// Per sender and topic the newest stamp accepted (HouseholdSeal: an older one is a replay),
    /// and the messages dropped, kept across restarts (HouseholdReplayGuard).
    let replay: HouseholdReplayGuard

    /// The largest household message (a drink, a delivery, a hello with its stamp): the MQTT 5
    /// maximum packet size the broker is told, and the payload a 3.1.1 broker's message is cut at.
    package static let maximumPayload = 2048
    package static let maximumPacketSize: UInt32 = 4096
    /// Topics whose last stamp is kept (each bottle's claims, syncer and reminds per member, and
    /// each member's own topics): beyond it the oldest half is forgotten.
    static let maximumMarks = HouseholdReplayGuard.maximumMarks

    /// - Parameters:
    ///   - key: the household's key (`household.key`): only messages signed with it are believed.
    ///   - boot: larger at every start of this bridge (its history keeps it): the stamps of this
    ///     start are all newer than the last one's.
    ///   - replay: the replay guard's state an earlier start saved (HouseholdReplayGuard).
    ///   - connected: on every connection, whether the broker kept this bridge's session.
    ///   - received: each drink or hello from another bridge (on the network thread).
    package init(url: String, bridgeID: String, key: HouseholdKey, boot: UInt64, topicPrefix: String = "aquavate", logger: Logger,
                clock: any WallClock = SystemClock(), drops: HouseholdDrops? = nil,
                reconnectDelay: ClosedRange<Double> = 1...60, caFile: String? = nil, replay saved: HouseholdReplayState = .init(),
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
        self.key = key
        self.clock = clock
        self.boot = boot
        let drops = drops ?? HouseholdDrops(logger: logger)
        self.drops = drops
        let stamps = Locked<(next: UInt64, online: UInt64?)>((0, nil))
        self.stamps = stamps
        let replay = HouseholdReplayGuard(saved: saved)
        self.replay = replay
        let base = "\(topicPrefix)/household"
        self.base = base
        drinkTopic = "\(base)/drink/\(bridgeID)"
        helloTopic = "\(base)/hello/\(bridgeID)"
        let aliveTopic = "\(base)/alive/\(bridgeID)"
        let own = bridgeID
        let options = MosquittoClient.Options(
            broker: broker, clientID: HouseholdMembership.sessionClientID(bridgeID: bridgeID, key: key), keepAliveSeconds: 30, caFile: caFile,
            reconnectDelay: reconnectDelay, maximumPacketSize: Self.maximumPacketSize,
            maximumIncomingPayload: Self.maximumPayload, cleanSession: false)
        let handlers = MosquittoClient.Handlers(
            connected: { client in
                // Subscribed before anything is published: a persistent session keeps them, a
                // new one needs them at once.
                for kind in HouseholdTopic.Kind.subscribed {
                    do { try client.subscribe(kind.filter(base: base), qos: 1) } catch { logger.warning("MQTT household: \(error)") }
                }
                // The stamp reserved with this connection's will, one before it: `online` then
                // the will (if it comes) are in order, and both older than the next connection's.
                let sequence = stamps.withLock { $0.online } ?? 0
                let stamp = HouseholdStamp(sender: own, boot: boot, sequence: sequence, time: clock.now)
                let online = HouseholdSeal.seal(topic: aliveTopic, body: Array("online".utf8), stamp: stamp, key: key)
                do { try client.publish(.init(topic: aliveTopic, payload: online, retain: true)) } catch { logger.debug("\(error)") }
                connected(client.sessionPresent)
            },
            message: { _, message in
                guard let inbound = Self.admit(message, base: base, key: key, own: own, now: clock.now, replay: replay, drops: drops) else { return }
                switch HouseholdRoutes.route(inbound) {
                case let .deliver(heard): received(heard)
                case let .drop(reason): Self.drop(reason, message, replay: replay, drops: drops)
                case .ignore: break
                }
            },
            oversized: { _, topic, _ in
                drops.drop(.oversized, topic: topic)
            },
            nextWill: {
                let sequence = stamps.withLock { stamps -> UInt64 in
                    stamps.online = stamps.next
                    stamps.next += 2
                    return stamps.next - 1
                }
                let stamp = HouseholdStamp(sender: own, boot: boot, sequence: sequence, time: clock.now)
                return .init(topic: aliveTopic, payload: HouseholdSeal.seal(topic: aliveTopic, body: Array("offline".utf8), stamp: stamp, key: key),
                             retain: true)
            })
        client = try MosquittoClient(options: options, handlers: handlers, logger: logger)
    }

    /// A message that may be believed, ready for its topic's handler; nil when it is not (it
    /// is counted in `drops` by reason) or is the same message again, or its topic is not one
    /// of the household's.
    static func admit(_ message: MosquittoClient.Message, base: String, key: HouseholdKey, own: String, now: WallInstant,
                      replay: HouseholdReplayGuard, drops: HouseholdDrops) -> HouseholdInbound? {
        guard message.topic.hasPrefix(base + "/") else { return nil }
        let opened: (stamp: HouseholdStamp, body: [UInt8])
        switch HouseholdSeal.open(topic: message.topic, payload: message.payload, key: key) {
        case .failure(let reason):
            drop(reason, message, replay: replay, drops: drops)
            return nil
        case .success(let success):
            opened = success
        }
        let topic = HouseholdTopic(levels: message.topic.dropFirst(base.count + 1).split(separator: "/").map(String.init))
        // A topic named after a bridge is written by that bridge only: a member does not speak for another.
        if let writer = topic?.writer, writer != opened.stamp.sender {
            drop(.forged, message, replay: replay, drops: drops)
            return nil
        }
        // Per sender and topic, only newer: the same message again (a retained copy at a
        // reconnection, a QoS 1 duplicate) is ignored; an older one is a replay, also when the
        // newer one was heard before this bridge's restart.
        switch replay.judge(opened.stamp, topic: message.topic) {
        case .fresh: break
        case .same: return nil
        case .replayed:
            drop(.replayed, message, replay: replay, drops: drops)
            return nil
        }
        guard let topic else { return nil }
        return HouseholdInbound(topic: topic, body: opened.body, stamp: opened.stamp, retained: message.retain, own: own, now: now)
    }

    /// Counts a dropped message, unless it is a retained one already judged (the broker sends
    /// it again at every connection).
    static func drop(_ reason: HouseholdDropReason, _ message: MosquittoClient.Message, replay: HouseholdReplayGuard, drops: HouseholdDrops) {
        guard replay.countsAsDropped(topic: message.topic, payload: message.payload, retained: message.retain) else { return }
        drops.drop(reason, topic: message.topic)
    }

    /// `body` on `topic`, signed with this start's next stamp.
    func sealed(_ topic: String, _ body: String, qos: Int32 = 1, retain: Bool = false) -> MosquittoClient.Message {
        let sequence = stamps.withLock { stamps -> UInt64 in
            defer { stamps.next += 1 }
            return stamps.next
        }
        let stamp = HouseholdStamp(sender: bridgeID, boot: boot, sequence: sequence, time: clock.now)
        return .init(topic: topic, payload: HouseholdSeal.seal(topic: topic, body: Array(body.utf8), stamp: stamp, key: key), qos: qos, retain: retain)
    }

    package func start() { client.start() }

    /// Says `offline`, waits (about 3 s at most) for what was published to be acknowledged,
    /// then disconnects.
    package func stop() async {
        await client.stop(finalMessages: [sealed("\(base)/alive/\(bridgeID)", "offline", retain: true)])
    }

    /// Publishes this bridge's claim on `bottle` (its topic id); nil releases it.
    package func claim(_ bottle: String, _ claim: Claim?) throws(SinkDeliveryError) {
        let text = claim.map { HouseholdClaimMessage($0).text } ?? ""
        do {
            try client.publish(sealed("\(base)/claim/\(bottle)/\(bridgeID)", text, retain: true))
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// Says this bridge synced `bottle` (its topic id) last, at `time` (its clock).
    package func synced(_ bottle: String, at time: WallInstant) throws(SinkDeliveryError) {
        let text = HouseholdSyncerMessage(bridge: bridgeID, time: time).text
        do {
            try client.publish(sealed("\(base)/syncer/\(bottle)", text, retain: true))
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// A syncer message's bridge and time: `{"bridge","time"}`, or an older bridge's plain
    /// bridge id (no time); an empty one (cleared) is `("", nil)`; nil when it is neither.
    static func syncer(from payload: [UInt8]) -> (bridge: String, time: WallInstant?)? {
        if payload.first == UInt8(ascii: "{") {
            guard let (bridge, time) = HouseholdSyncerMessage.read(payload) else { return nil }
            return (bridge, time)
        }
        let text = String(decoding: payload, as: UTF8.self)
        guard text.isEmpty || MQTTTopics.isValidID(text) else { return nil }
        return (text, nil)
    }

    /// What this bridge is, for `doctor` (HouseholdProbe): its clock, this process's instance
    /// (two bridges with one `bridge.id` answer with two), and whether its clock is synchronised.
    package func pong(time: WallInstant, instance: String, synchronised: Bool) throws(SinkDeliveryError) {
        let text = HouseholdPongMessage(time: time, instance: instance, synchronised: synchronised).text
        do {
            try client.publish(sealed("\(base)/pong/\(bridgeID)", text, qos: 0))
        } catch {
            throw .unavailable(error.description)
        }
    }

    static func claim(from payload: [UInt8]) -> Claim? { HouseholdClaimMessage.read(payload) }

    package var isConnected: Bool { client.isConnected }

    /// Test hook: the connection breaks as in a crash, so the broker publishes the last will.
    package func dropConnectionUncleanly() { client.dropConnectionUncleanly() }

    /// Publishes a drink this bridge synced (QoS 1). Throws without a connection.
    package func publish(_ drink: Drink) throws(SinkDeliveryError) {
        do {
            try client.publish(sealed(drinkTopic, Self.payload(drink)))
        } catch {
            throw .unavailable(error.description)
        }
    }

    /// Asks the other bridges for what this one lacks, once for this `epoch` (QoS 1, retained:
    /// a bridge that connects later hears it too): `have` is, per member, the latest change of
    /// its drinks this bridge holds.
    package func hello(epoch: String, have: [String: WallInstant] = [:]) throws(SinkDeliveryError) {
        try publish(helloTopic, HouseholdHelloMessage(epoch: epoch, have: have).text, retain: true)
    }

    /// Publishes the digest of this bridge's own drinks (QoS 1, not retained).
    func digest(_ days: [Int64: String], periods: [Int64: String] = [:]) throws(SinkDeliveryError) {
        try publish("\(base)/digest/\(bridgeID)", HouseholdDigestMessage(days, periods: periods).text, retain: false)
    }

    /// Asks `origin` for its drinks of `days` again (of a day in `held`, the ones whose mark is not
    /// there), and for the per-day digests of `periods` (QoS 1, not retained): as many messages as
    /// the marks need.
    func want(_ days: [Int64], periods: [Int64] = [], held: [Int64: [String]] = [:], of origin: String) throws(SinkDeliveryError) {
        for want in HouseholdWantMessage.batches(of: origin, days: days, periods: periods, held: held) {
            try publish("\(base)/want/\(bridgeID)", want.text, retain: false)
        }
    }

    /// Tells the household the serial of the bottle with `address` (retained).
    package func bottleKey(address: String, key: String) throws(SinkDeliveryError) {
        try publish("\(base)/bottle/\(MQTTTopics.bottleID(fromAddress: address))", key, retain: true)
    }

    /// Says whether this bridge runs the reminders of `bottle` (its topic id; retained).
    package func reminds(_ bottle: String, _ runs: Bool) throws(SinkDeliveryError) {
        try publish("\(base)/reminds/\(bottle)/\(bridgeID)", runs ? "1" : "", retain: true)
    }

    /// Tells the household this bridge delivered a reminder (QoS 1, retained: a member whose
    /// session was emptied, by a broker restart or a queue over its limit, or that joins, still
    /// hears each bridge's newest delivery, the one a hand-over could otherwise repeat; the
    /// replay guard counts a retained copy once).
    package func delivered(_ delivered: Delivered) throws(SinkDeliveryError) {
        try publish("\(base)/delivered/\(bridgeID)", HouseholdDeliveredMessage(delivered).text, retain: true)
    }

    func publish(_ topic: String, _ text: String, retain: Bool) throws(SinkDeliveryError) {
        do {
            try client.publish(sealed(topic, text, retain: retain))
        } catch {
            throw .unavailable(error.description)
        }
    }

    // MARK: Payload

    /// The drink's message text (Codable, keys sorted: `HouseholdDrinkMessage`).
    static func payload(_ drink: Drink) -> String { HouseholdDrinkMessage(drink).text }

    /// A serial or an address: what a bridge keys a bottle by (it reaches logs, the history and
    /// topics, so nothing else is taken from the broker).
    static func isBottleKey(_ text: String) -> Bool { BottleKey.isWellFormed(text) }

    /// A drink from its payload; nil when any field is missing or out of range.
    static func drink(from payload: [UInt8], origin: String) -> Drink? {
        HouseholdDrinkMessage.read(payload)?.drink(origin: origin)
    }
}
