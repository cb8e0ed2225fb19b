// One bridge syncs a bottle at a time (docs/design.md 6): before it connects, a bridge claims
// the bottle through the broker, and the strongest RSSI wins; the claim is released when the
// session ends and is void when its bridge's last will says it is offline, or after `expiry`.
//
//   want(rssi) ─ settle 0.6 s ─┬─ another alive bridge holds it, or wants it louder ─> release, defer
//                              └─ otherwise ─> hold ─> connect, sync ─> release, "synced by me"
//
// A bottle is keyed by its serial (its address until the serial is read): a claim goes to the
// serial's topic once this bridge knows it (from its history, or from the household's
// `bottle/<address>` mapping, which a bridge publishes before any claim of its own under the
// serial, so a bridge that hears that claim has heard the mapping first), and the decision
// counts the claims under the address's topic as well: a bridge that knows the bottle only by
// its address and one that knows its serial see each other's claims.
//
// A person is reminded once: a bottle's reminders are delivered by the bridge that last synced
// it while that bridge is alive; when its last will says it is offline (or nobody is known to
// have synced it), by the alive bridge with the smallest `bridge.id` among those that run the
// bottle's reminders (`reminds/<bottle>/<bridge>`). Every engine runs on the same replicated
// history; a bridge that does not remind withholds what its engine decided, and every reminder
// delivered is told to the household (`delivered`), so at a hand-over the new bridge delivers
// what it withheld in the last `handOverWindow` that nobody delivered (nothing lost), and never
// a reminder another bridge delivered (nothing repeated).
//
// The rules themselves, and what they judge by, are a value (HouseholdClaimRule, tested as it
// is); this class holds one under its lock, sends the claims, syncs, reminders and deliveries,
// waits out the settling times, and keeps what it withheld until a hand-over delivers it.

import Foundation
import Locking
import Logging
import MQTT
import Timekeeping

package final class HouseholdClaims: Sendable {
    /// How long a bridge listens for competing claims before it holds the bottle.
    static let settle: Duration = .milliseconds(600)
    /// What this bridge withheld is delivered at a hand-over when it is this recent: the last will
    /// of a bridge that died comes within 1.5 × its 30 s keep-alive.
    static let handOverWindow: Duration = .seconds(120)
    /// The rule's times, by the names the household's other parts and tests know them.
    static let expiry = HouseholdClaimRule.expiry
    static let wantLifetime = HouseholdClaimRule.wantLifetime
    static let deliveredMemory = HouseholdClaimRule.deliveredMemory
    static let handOverSettle = HouseholdClaimRule.handOverSettle
    static let maximumDeliveries = HouseholdClaimRule.maximumDeliveries

    package enum Outcome: Sendable, Equatable {
        case granted
        case heldBy(String)
    }

    typealias Entry = HouseholdClaimRule.Entry

    /// A reminder this bridge's engine decided while another bridge reminded.
    private struct Withheld: Sendable {
        var bottle: String
        var address: String?
        var id: String
        var kind: String
        var time: WallInstant
        var at: WallInstant
        var deliver: @Sendable () -> Void
    }

    private struct State {
        /// What this bridge knows of the household, and the rules it judges by.
        var rule: HouseholdClaimRule
        var withheld: [Withheld] = []
        /// address topic id → the bottle topic id this bridge's claim went to.
        var claimedAs: [String: String] = [:]
    }

    package let me: String
    private let link: HouseholdLink
    private let clock: any WallClock
    private let logger: Logger
    /// The serial this bridge's history knows for an address (nil: none read yet).
    private let localSerial: @Sendable (String) -> String?
    private let state: Locked<State>

    /// Keeps a delivery another bridge made (the history's `household_delivered`), so that a
    /// restarted bridge never repeats it either.
    private let remember: @Sendable (HouseholdLink.Delivered, _ heardAt: WallInstant) -> Void

    /// - Parameters:
    ///   - remembered: deliveries of other bridges heard before this process started (within `deliveredMemory`).
    ///   - remember: called with each delivery of another bridge as it is heard.
    init(link: HouseholdLink, clock: any WallClock, logger: Logger, localSerial: @escaping @Sendable (String) -> String? = { _ in nil },
         remembered: [(bottle: String, id: String, time: WallInstant, heardAt: WallInstant)] = [],
         remember: @escaping @Sendable (HouseholdLink.Delivered, _ heardAt: WallInstant) -> Void = { _, _ in }) {
        self.me = link.bridgeID
        self.link = link
        self.clock = clock
        self.logger = logger
        self.localSerial = localSerial
        self.remember = remember
        state = Locked(State(rule: HouseholdClaimRule(me: link.bridgeID, remembered: remembered)))
    }

    /// The topic id of a bottle key or address (`F4:12:FA:00:A3:F2` → `f412fa00a3f2`).
    static func topicID(_ key: String) -> String { HouseholdClaimRule.topicID(key) }

    /// What the household said (HouseholdReplication hands every claim, presence, syncer,
    /// mapping and delivery here).
    func heard(_ received: HouseholdLink.Received) {
        let now = clock.now
        let newSyncer: String? = state.withLock { state in
            let newSyncer = state.rule.hear(received, at: now)
            if case let .delivered(delivered) = received, delivered.from != me {
                let bottle = Self.topicID(delivered.bottle)
                state.withheld.removeAll { Self.topicID($0.bottle) == bottle && $0.id == delivered.id }
            }
            return newSyncer
        }
        if let newSyncer, case let .syncer(bottle, _, _) = received {
            logger.info("household: bridge \(newSyncer) synced bottle \(bottle) last; it reminds for it while it is alive")
        }
        switch received {
        case let .alive(bridge, false) where bridge != me:
            logger.info("household: bridge \(bridge) is offline; a bottle it reminded for passes to another bridge")
            settleThenHandOver()
        case .alive, .syncer, .reminds:
            settleThenHandOver()
        case .delivered(let delivered) where delivered.from != me: remember(delivered, now)
        default: break
        }
    }

    /// What this bridge withheld is judged now, and again once the change just heard has settled.
    private func settleThenHandOver() {
        handOver()
        Task { [self] in
            try? await clock.sleep(for: Self.handOverSettle.inSeconds)
            handOver()
        }
    }

    /// The keys of the bottle with `address`: the topic id claims go to (the serial's once known)
    /// and every topic id a claim on it may be under; and the serial, when known.
    private func keys(_ address: String) -> (primary: String, all: [String], serial: String?) {
        let addressID = Self.topicID(address)
        let serial = localSerial(address) ?? state.withLock { $0.rule.serials[addressID] }
        let primary = serial.map(Self.topicID) ?? addressID
        return (primary, primary == addressID ? [primary] : [primary, addressID], serial)
    }

    /// Claims the bottle with `address`, heard at `rssi`: granted, or held by (or left to) another
    /// bridge. Without the broker the bridge syncs on its own (a partition must not stop it).
    package func acquire(address: String, rssi: Int?) async -> Outcome {
        guard link.isConnected else { return .granted }
        let (bottle, all, serial) = keys(address)
        // The mapping before the claim: whoever hears this claim knows whose it is.
        if let serial { tellSerial(serial, of: address) }
        if case .heldBy(let other) = decision(bottles: all, mine: nil) { return .heldBy(other) }
        let mine = HouseholdLink.Claim(phase: .want, rssi: rssi ?? -127)
        do { try link.claim(bottle, mine) } catch { return .granted }
        state.withLock { $0.claimedAs[Self.topicID(address)] = bottle }
        try? await clock.sleep(for: Self.settle)
        // The keys again: the serial's mapping may have been heard meanwhile.
        let outcome = decision(bottles: Array(Set(all + keys(address).all)), mine: mine)
        switch outcome {
        case .granted:
            try? link.claim(bottle, .init(phase: .hold, rssi: mine.rssi))
        case .heldBy(let other):
            try? link.claim(bottle, nil)
            logger.info("\(address): \(other) has the stronger claim; this bridge leaves the bottle to it")
        }
        return outcome
    }

    /// The session with the bottle ended: its claim goes, and after a sync, this bridge is the
    /// one that reminds its person (under the serial, read by now).
    package func release(address: String, synced: Bool) {
        let claimed = state.withLock { $0.claimedAs.removeValue(forKey: Self.topicID(address)) }
        let (bottle, _, serial) = keys(address)
        try? link.claim(claimed ?? bottle, nil)
        // A bottle this bridge now knows by its serial (adopted, its drinks stored) has its
        // reminders run here: said at once, also after a session that ended in an error, so
        // that every bridge counts this one among the candidates it judges itself against.
        if serial != nil || synced { announceReminds(bottle) }
        guard synced else { return }
        if let serial { tellSerial(serial, of: address) }
        // Known here at once (the broker's echo comes later): this bridge reminds from now on.
        let now = clock.now
        state.withLock { $0.rule.syncedHere(bottle, at: now) }
        try? link.synced(bottle, at: now)
    }

    /// Says this bridge runs the reminders of `bottle` (its topic id), and counts it at once.
    private func announceReminds(_ bottle: String) {
        let known = state.withLock { $0.rule.remindsHere(bottle) }
        if !known { try? link.reminds(bottle, true) }
    }

    /// Publishes the serial of the bottle with `address`, unless the household has it already
    /// (a retained mapping is said once, not at every sync).
    private func tellSerial(_ serial: String, of address: String) {
        let addressID = Self.topicID(address)
        guard addressID != Self.topicID(serial), state.withLock({ $0.rule.serials[addressID] }) != serial else { return }
        try? link.bottleKey(address: address, key: serial)
    }

    /// A new connection to the broker: this bridge runs the reminders of `bottles` (key and
    /// address), says so, and tells the serials it knows. `lostEverything`: the broker kept
    /// nothing (no session), so the retained syncer of a bottle this bridge synced last is said again.
    package func connected(bottles: [(key: String, address: String?)], lostEverything: Bool) {
        for bottle in bottles {
            let id = Self.topicID(bottle.key)
            if let address = bottle.address { tellSerial(bottle.key, of: address) }
            try? link.reminds(id, true)
            state.withLock { _ = $0.rule.remindsHere(id) }
            if lostEverything, let mine = state.withLock({ $0.rule.syncers[id] }), mine.bridge == me { try? link.synced(id, at: mine.at) }
        }
    }

    /// `bottle forget` while this bridge runs: a bottle gone from the history has its reminds
    /// entries of this bridge withdrawn (an empty retained message each) through this bridge's
    /// own connection, so no other bridge hands the bottle's reminders over to this one, and the
    /// command opens no connection under the household's login (on a broker that allows a login
    /// one connection, it would close this one). `adopted`: every key (id, serial, address) of
    /// the bottles the history still holds. Returns the topic ids withdrawn.
    @discardableResult
    package func withdrawForgotten(adopted keys: [String]) -> [String] {
        let me = self.me
        let stale = state.withLock { state in
            // Also the serial the household told for an adopted address (announced under it
            // before this bridge read it itself).
            let ids = keys.map(Self.topicID)
            let kept = Set(ids + ids.compactMap { state.rule.serials[$0] }.map(Self.topicID))
            return state.rule.reminding.filter { $0.value.contains(me) && !kept.contains($0.key) }.keys.sorted()
        }
        var withdrawn: [String] = []
        for bottle in stale {
            do { try link.reminds(bottle, false) } catch { continue }
            let now = clock.now
            state.withLock { _ = $0.rule.hear(.reminds(bottle: bottle, bridge: me, false), at: now) }
            withdrawn.append(bottle)
        }
        return withdrawn
    }

    /// Whether this bridge delivers the reminders of bottle `key` (with `address`, when known).
    package func remindsFor(bottle key: String, address: String? = nil) -> Bool {
        state.withLock { $0.rule.reminds(key: key, address: address) }
    }

    /// Whether this bridge delivers the reminders of the bottle with `address` (its key as the
    /// history knows it).
    package func remindsFor(address: String) -> Bool {
        remindsFor(bottle: localSerial(address) ?? address, address: address)
    }

    /// Whether a reminder of bottle `key` would be judged now, not held for a hand-over to settle (tests).
    func settled(bottle key: String, address: String?) -> Bool {
        let now = clock.now
        return state.withLock { !$0.rule.settling(key: key, address: address, at: now) }
    }

    /// The reminder gate (ReminderDesk): whether a reminder this bridge's engine decided for
    /// bottle `key` is delivered now. Never one another bridge delivered; by this bridge only
    /// when it reminds (then the household is told); else withheld, and `later` delivers it if
    /// this bridge takes over within `handOverWindow` and nobody delivered it meanwhile.
    package func shouldDeliver(bottle key: String, address: String?, id: String, kind: String, time: WallInstant,
                              later: @escaping @Sendable () -> Void) -> Bool {
        let now = clock.now
        enum Verdict { case repeated, deliver, withhold(to: String) }
        let verdict: Verdict = state.withLock { state in
            if state.rule.deliveredElsewhere(id: id, bottle: key, time: time, at: now) { return .repeated }
            let reminder = state.rule.reminder(key: key, address: address)
            if reminder == me, !state.rule.settling(key: key, address: address, at: now) { return .deliver }
            state.withheld.removeAll { now - $0.at > Self.handOverWindow }
            state.withheld.append(Withheld(bottle: key, address: address, id: id, kind: kind, time: time, at: now, deliver: later))
            if state.withheld.count > Self.maximumDeliveries { state.withheld.removeFirst(state.withheld.count - Self.maximumDeliveries) }
            return .withhold(to: reminder)
        }
        switch verdict {
        case .repeated:
            logger.info("notification \(id) of \(key) was delivered by another bridge; not repeated")
            return false
        case .deliver:
            try? link.delivered(.init(bottle: key, id: id, kind: kind, time: time, from: me))
            return true
        case .withhold(let reminder):
            if reminder == me {
                logger.info("notification \(id) of \(key): who reminds for this bottle just changed; held until that settles")
            } else {
                logger.info("notification \(id) of \(key): \(reminder) reminds for this bottle; withheld here")
            }
            return false
        }
    }

    /// Another bridge went offline, synced, or joined: what this bridge withheld for a bottle it
    /// now reminds for is delivered, if recent and delivered by nobody.
    private func handOver() {
        let now = clock.now
        let due: [Withheld] = state.withLock { state in
            let snapshot = state
            // One pass: each withheld reminder is judged once (the rule reads the syncers and
            // the reminding bridges), then goes to this bridge or stays withheld.
            var mine: [Withheld] = [], others: [Withheld] = []
            for item in snapshot.withheld {
                if snapshot.rule.deliversNow(key: item.bottle, address: item.address, at: now) {
                    mine.append(item)
                } else {
                    others.append(item)
                }
            }
            guard !mine.isEmpty else { return [] }
            state.withheld = others
            return mine.filter { now - $0.at <= Self.handOverWindow }
        }
        for item in due {
            logger.info("notification \(item.id) of \(item.bottle): this bridge reminds now (hand-over); delivered")
            try? link.delivered(.init(bottle: item.bottle, id: item.id, kind: item.kind, time: item.time, from: me))
            item.deliver()
        }
    }

    /// The bridge heard to have synced `bottle` (its key) last (tests).
    func syncer(bottle: String) -> String? {
        state.withLock { $0.rule.syncers[Self.topicID(bottle)]?.bridge }
    }

    /// The bridges heard to run the reminders of `bottle` (its key) (tests).
    func reminding(bottle: String) -> Set<String> {
        state.withLock { $0.rule.reminding[Self.topicID(bottle)] ?? [] }
    }

    /// Reminders of `bottle` (its key) another bridge delivered, by id (tests).
    func deliveredElsewhere(bottle: String) -> Set<String> {
        state.withLock { Set(($0.rule.deliveredElsewhere[Self.topicID(bottle)] ?? [:]).keys) }
    }

    private func decision(bottles: [String], mine: HouseholdLink.Claim?) -> Outcome {
        let now = clock.now
        return state.withLock { $0.rule.outcome(bottles: bottles, mine: mine, at: now) }
    }

    /// The claim rule (HouseholdClaimRule.decide), by the name the tests know it.
    static func decide(claims: [String: Entry], alive: [String: Bool], me: String, mine: HouseholdLink.Claim?,
                       now: WallInstant) -> Outcome {
        HouseholdClaimRule.decide(claims: claims, alive: alive, me: me, mine: mine, now: now)
    }
}
