// The household's router (docs/design.md 6): each topic under `<prefix>/household/` by its first
// level, the ids its other levels carry, who may write it, and the one handler that reads a
// message on it. HouseholdLink checks the seal, the writer and the freshness of every message,
// then hands it to its topic's handler here, which says what it is or why it is dropped.

import MQTT
import Timekeeping

/// A household topic, its levels after `<prefix>/household/` read.
struct HouseholdTopic: Equatable {
    enum Kind: String, CaseIterable {
        case drink, hello, alive, claim, syncer, ping, pong, bottle, reminds, delivered
        /// Anti-entropy (HouseholdDigest): a member's digest of its drinks, and a member asking
        /// for some days of another's again. A member of the release before does not subscribe
        /// to them: it neither hears nor answers them, and is compared with nobody.
        case digest, want
        /// A member deleted a drink another added by hand (HouseholdDeletionMessage). A member of
        /// the release before does not subscribe to it: it gets the deletion from the drink's
        /// origin, as the origin's own tombstone.
        case delete

        /// The levels after `household/`, this one included.
        var levels: Int {
            switch self {
            case .claim, .reminds: return 3
            case .drink, .hello, .alive, .syncer, .ping, .pong, .bottle, .delivered, .digest, .want, .delete: return 2
            }
        }

        /// Whether the topic's last level names the bridge that writes it (only that bridge
        /// may: the broker's ACL says the same, docs/household.md); the others (`syncer`,
        /// `bottle`) any member writes.
        var isNamedAfterWriter: Bool { self != .syncer && self != .bottle }

        /// What a bridge subscribes to: every topic but the answers to `doctor`'s pings.
        static let subscribed = allCases.filter { $0 != .pong }

        func filter(base: String) -> String {
            "\(base)/\(rawValue)" + String(repeating: "/+", count: levels - 1)
        }
    }

    var kind: Kind
    /// The levels after the kind: `[bridge]`, `[bottle]`, `[address]` or `[bottle, bridge]`.
    var ids: [String]

    /// The topic `levels` (after `household/`) name; nil for any other.
    init?(levels: [String]) {
        guard let first = levels.first, let kind = Kind(rawValue: first), levels.count == kind.levels else { return nil }
        self.kind = kind
        ids = Array(levels.dropFirst())
    }

    /// The bridge the topic is named after, which alone may write it.
    var writer: String? { kind.isNamedAfterWriter ? ids.last : nil }
}

/// One message on a household topic, its seal checked.
struct HouseholdInbound {
    var topic: HouseholdTopic
    var body: [UInt8]
    var stamp: HouseholdStamp
    /// The broker's retained copy, heard at subscription.
    var retained: Bool
    /// This bridge.
    var own: String
    /// This bridge's clock, now.
    var now: WallInstant

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// What a handler makes of a message.
enum HouseholdRouting: Equatable {
    case deliver(HouseholdLink.Received)
    case drop(HouseholdDropReason)
    /// Nothing to tell (this bridge's own message, or `pong`, which only `doctor` reads).
    case ignore
}

enum HouseholdRoutes {
    typealias Handler = @Sendable (HouseholdInbound) -> HouseholdRouting

    /// The router: one handler per topic.
    static let table: [HouseholdTopic.Kind: Handler] = [
        .claim: claim, .syncer: syncer, .bottle: bottle, .reminds: reminds,
        .alive: fromAnother(alive), .ping: fromAnother(ping), .hello: fromAnother(hello),
        .delivered: fromAnother(delivered), .drink: fromAnother(drink), .pong: { _ in .ignore },
        .digest: fromAnother(digest), .want: fromAnother(want), .delete: fromAnother(delete),
    ]

    static func route(_ message: HouseholdInbound) -> HouseholdRouting {
        table[message.topic.kind]?(message) ?? .ignore
    }

    /// A ping farther than this from this bridge's clock is not answered (a recorded one sent again).
    static let pingWindow: Duration = .seconds(60)

    /// Every claim, this bridge's own included: the decision counts them all.
    static func claim(_ message: HouseholdInbound) -> HouseholdRouting {
        let claim = message.body.isEmpty ? nil : HouseholdClaimMessage.read(message.body)
        if claim == nil && !message.body.isEmpty { return .drop(.malformed) }
        return .deliver(.claim(bottle: message.topic.ids[0], bridge: message.topic.ids[1], claim, stored: message.retained,
                               sentAt: message.stamp.time))
    }

    static func syncer(_ message: HouseholdInbound) -> HouseholdRouting {
        guard let (bridge, time) = HouseholdLink.syncer(from: message.body) else { return .drop(.malformed) }
        // Anyone may write the topic, but only about itself.
        if !bridge.isEmpty && bridge != message.stamp.sender { return .drop(.forged) }
        return .deliver(.syncer(bottle: message.topic.ids[0], bridge: bridge, time: time))
    }

    static func bottle(_ message: HouseholdInbound) -> HouseholdRouting {
        guard HouseholdLink.isBottleKey(message.text) else { return .drop(.malformed) }
        return .deliver(.bottleKey(address: message.topic.ids[0], key: message.text))
    }

    static func reminds(_ message: HouseholdInbound) -> HouseholdRouting {
        .deliver(.reminds(bottle: message.topic.ids[0], bridge: message.topic.ids[1], message.text == "1"))
    }

    /// A handler for a topic named after its writer that ignores this bridge's own messages.
    static func fromAnother(_ handler: @escaping @Sendable (_ sender: String, HouseholdInbound) -> HouseholdRouting) -> Handler {
        { message in
            let sender = message.topic.ids[0]
            return sender == message.own ? .ignore : handler(sender, message)
        }
    }

    static func alive(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        .deliver(.alive(bridge: sender, message.text == "online"))
    }

    static func ping(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        let apart = message.stamp.time - message.now
        guard apart <= pingWindow, .zero - apart <= pingWindow else { return .drop(.stale) }
        return .deliver(.ping(from: sender))
    }

    static func hello(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        let hello = HouseholdHelloMessage.read(message.body)
        return .deliver(.hello(from: sender, epoch: hello.epoch, have: hello.have, stored: message.retained))
    }

    static func delivered(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        guard let delivered = HouseholdDeliveredMessage.read(message.body, by: sender) else { return .drop(.malformed) }
        return .deliver(.delivered(delivered))
    }

    static func digest(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        guard let digest = HouseholdDigestMessage.readAll(message.body) else { return .drop(.malformed) }
        return .deliver(.digest(from: sender, days: digest.days, periods: digest.periods))
    }

    static func want(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        guard let want = HouseholdWantMessage.read(message.body) else { return .drop(.malformed) }
        // Only the origin answers: a want of another's drinks is nothing to this bridge.
        guard want.of == message.own else { return .ignore }
        return .deliver(.want(from: sender, days: want.days, periods: want.periods ?? [], held: want.heldByDay))
    }

    static func delete(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        guard let deletion = HouseholdDeletionMessage.read(message.body, by: sender) else { return .drop(.malformed) }
        return .deliver(.deletion(deletion))
    }

    static func drink(_ sender: String, _ message: HouseholdInbound) -> HouseholdRouting {
        guard let drink = HouseholdLink.drink(from: message.body, origin: sender) else { return .drop(.malformed) }
        return .deliver(.drink(drink))
    }
}
