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

import Foundation
import Locking
import Logging
import MQTT
import Timekeeping

public final class HouseholdClaims: Sendable {
    /// How long a bridge listens for competing claims before it holds the bottle.
    static let settle: Duration = .milliseconds(600)
    /// A held claim that was never released counts this long (a sync lasts well under a minute;
    /// a bridge that died is void at once through its last will).
    static let expiry: Duration = .seconds(180)
    /// A want that neither became a hold nor was released counts this long.
    static let wantLifetime: Duration = .seconds(10)
    /// What a bridge withheld is delivered at a hand-over when it is this recent: the last will
    /// of a bridge that died comes within 1.5 × its 30 s keep-alive.
    static let handOverWindow: Duration = .seconds(120)
    /// How long a reminder another bridge delivered is remembered (ids do not repeat within a day).
    static let deliveredMemory: Duration = .seconds(86_400)
    /// A reminder due within this long after a change in who reminds for its bottle (a last
    /// will, a new syncer, a bridge starting or ceasing to run its reminders) waits until the
    /// change is that old, then is judged again: by then every bridge has heard the change, and
    /// two bridges never both judge with different views (each deciding it reminds).
    static let handOverSettle: Duration = .seconds(5)
    /// Before anything was heard: where a time is compared with the last one, "never".
    static let never = WallInstant(secondsSince1970: -.infinity)
    /// Bounds on what the broker feeds (members only, but a member's bug must not grow this
    /// bridge without end): bottles, bridges per bottle or household, deliveries per bottle.
    static let maximumBottles = 256
    static let maximumBridges = 64
    static let maximumDeliveries = 1024

    public enum Outcome: Sendable, Equatable {
        case granted
        case heldBy(String)
    }

    struct Entry: Sendable, Equatable {
        var claim: HouseholdLink.Claim
        var heardAt: WallInstant
    }

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
        /// bottle topic id → bridge → its claim.
        var claims: [String: [String: Entry]] = [:]
        var alive: [String: Bool] = [:]
        /// bottle topic id → the bridge that last synced it, and when (the time its message
        /// carries, else when it was heard): a bottle may have one under its address and one
        /// under its serial, and the later sync counts, whatever order the broker replays them in.
        var syncers: [String: (bridge: String, at: WallInstant)] = [:]
        /// address topic id → the bottle's serial (as a bridge that read it told).
        var serials: [String: String] = [:]
        /// bottle topic id → the bridges that run its reminders.
        var reminding: [String: Set<String>] = [:]
        /// bottle topic id → reminder id → when another bridge's delivery was heard, and the
        /// notification's time (an id comes back the next day: that is another reminder).
        var deliveredElsewhere: [String: [String: (heardAt: WallInstant, time: WallInstant)]] = [:]
        var withheld: [Withheld] = []
        /// address topic id → the bottle topic id this bridge's claim went to.
        var claimedAs: [String: String] = [:]
        /// When who reminds last changed: for any bottle (a bridge came or went), and per bottle
        /// topic id (its syncer, the bridges that run its reminders).
        var aliveChangedAt: [String: WallInstant] = [:]
        var changedAt: [String: WallInstant] = [:]
    }

    public let me: String
    private let link: HouseholdLink
    private let clock: any WallClock
    private let logger: Logger
    /// The serial this bridge's history knows for an address (nil: none read yet).
    private let localSerial: @Sendable (String) -> String?
    private let state = Locked(State())

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
        state.withLock { state in
            for item in remembered {
                state.deliveredElsewhere[Self.topicID(item.bottle), default: [:]][item.id] = (item.heardAt, item.time)
            }
        }
    }

    /// Keeps at most `limit` entries of `map`, those with the largest `rank` (the most recent).
    static func cap<Value, Rank: Comparable>(_ map: inout [String: Value], _ limit: Int, rank: ((key: String, value: Value)) -> Rank) {
        guard map.count > limit else { return }
        for (key, _) in map.sorted(by: { rank($0) < rank($1) }).prefix(map.count - limit) {
            map.removeValue(forKey: key)
        }
    }

    /// The topic id of a bottle key or address (`F4:12:FA:00:A3:F2` → `f412fa00a3f2`).
    static func topicID(_ key: String) -> String { MQTTTopics.bottleID(fromAddress: key) }

    /// What the household said (HouseholdReplication hands every claim, presence, syncer,
    /// mapping and delivery here).
    func heard(_ received: HouseholdLink.Received) {
        let now = clock.now
        let newSyncer: String? = state.withLock { state in
            var newSyncer: String?
            switch received {
            case let .alive(bridge, online):
                if state.alive[bridge] != online { state.aliveChangedAt[bridge] = now }
                Self.cap(&state.aliveChangedAt, Self.maximumBridges) { $0.value }
                state.alive[bridge] = online
                Self.cap(&state.alive, Self.maximumBridges) { $0.value ? 1 : 0 }
            case let .claim(bottle, bridge, claim, _, sentAt):
                // Counted from when its bridge signed it, if that was earlier: a retained hold
                // heard long after it was made is as old as it is.
                state.claims[bottle, default: [:]][bridge] = claim.map { Entry(claim: $0, heardAt: min(now, sentAt)) }
                Self.cap(&state.claims[bottle, default: [:]], Self.maximumBridges) { $0.value.heardAt }
                if state.claims[bottle]?.isEmpty == true { state.claims.removeValue(forKey: bottle) }
                if state.claims.count > Self.maximumBottles {
                    // The released and expired go first, then the oldest.
                    state.claims = state.claims.compactMapValues { entries in
                        let live = entries.filter { now - $0.value.heardAt < Self.expiry }
                        return live.isEmpty ? nil : live
                    }
                    Self.cap(&state.claims, Self.maximumBottles) { $0.value.values.map(\.heardAt).max() ?? Self.never }
                }
            case let .syncer(bottle, bridge, time):
                // The later sync counts, also on one topic: a message heard after a newer one
                // (this bridge's own sync is known here before its echo) changes nothing.
                if let known = state.syncers[bottle], !bridge.isEmpty, known.at > (time ?? now) { break }
                if !bridge.isEmpty, bridge != me, state.syncers[bottle]?.bridge != bridge { newSyncer = bridge }
                if state.syncers[bottle]?.bridge != bridge { state.changedAt[bottle] = now }
                Self.cap(&state.changedAt, Self.maximumBottles) { $0.value }
                state.syncers[bottle] = bridge.isEmpty ? nil : (bridge, time ?? now)
                Self.cap(&state.syncers, Self.maximumBottles) { $0.value.at }
            case let .bottleKey(address, key):
                state.serials[address] = key
                Self.cap(&state.serials, Self.maximumBottles) { _ in 0 }
            case let .reminds(bottle, bridge, runs):
                if runs != (state.reminding[bottle]?.contains(bridge) ?? false) { state.changedAt[bottle] = now }
                if runs { state.reminding[bottle, default: []].insert(bridge) } else { state.reminding[bottle]?.remove(bridge) }
                if state.reminding[bottle]?.isEmpty == true { state.reminding.removeValue(forKey: bottle) }
                Self.cap(&state.reminding, Self.maximumBottles) { $0.value.count }
            case let .delivered(delivered):
                guard delivered.from != me else { break }
                let bottle = Self.topicID(delivered.bottle)
                state.deliveredElsewhere[bottle, default: [:]][delivered.id] = (now, delivered.time)
                state.deliveredElsewhere[bottle] = state.deliveredElsewhere[bottle]?.filter { now - $0.value.heardAt < Self.deliveredMemory }
                Self.cap(&state.deliveredElsewhere[bottle, default: [:]], Self.maximumDeliveries) { $0.value.heardAt }
                Self.cap(&state.deliveredElsewhere, Self.maximumBottles) { $0.value.values.map(\.heardAt).max() ?? Self.never }
                state.withheld.removeAll { Self.topicID($0.bottle) == bottle && $0.id == delivered.id }
            case .drink, .hello, .ping, .digest, .want:
                break
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
        let serial = localSerial(address) ?? state.withLock { $0.serials[addressID] }
        let primary = serial.map(Self.topicID) ?? addressID
        return (primary, primary == addressID ? [primary] : [primary, addressID], serial)
    }

    /// Claims the bottle with `address`, heard at `rssi`: granted, or held by (or left to) another
    /// bridge. Without the broker the bridge syncs on its own (a partition must not stop it).
    public func acquire(address: String, rssi: Int?) async -> Outcome {
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
    public func release(address: String, synced: Bool) {
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
        state.withLock { $0.syncers[bottle] = (me, now) }
        try? link.synced(bottle, at: now)
    }

    /// Says this bridge runs the reminders of `bottle` (its topic id), and counts it at once.
    private func announceReminds(_ bottle: String) {
        let known = state.withLock { state -> Bool in
            defer { state.reminding[bottle, default: []].insert(me) }
            return state.reminding[bottle]?.contains(me) ?? false
        }
        if !known { try? link.reminds(bottle, true) }
    }

    /// Publishes the serial of the bottle with `address`, unless the household has it already
    /// (a retained mapping is said once, not at every sync).
    private func tellSerial(_ serial: String, of address: String) {
        let addressID = Self.topicID(address)
        guard addressID != Self.topicID(serial), state.withLock({ $0.serials[addressID] }) != serial else { return }
        try? link.bottleKey(address: address, key: serial)
    }

    /// A new connection to the broker: this bridge runs the reminders of `bottles` (key and
    /// address), says so, and tells the serials it knows. `lostEverything`: the broker kept
    /// nothing (no session), so the retained syncer of a bottle this bridge synced last is said again.
    public func connected(bottles: [(key: String, address: String?)], lostEverything: Bool) {
        for bottle in bottles {
            let id = Self.topicID(bottle.key)
            if let address = bottle.address { tellSerial(bottle.key, of: address) }
            try? link.reminds(id, true)
            state.withLock { _ = $0.reminding[id, default: []].insert(me) }
            if lostEverything, let mine = state.withLock({ $0.syncers[id] }), mine.bridge == me { try? link.synced(id, at: mine.at) }
        }
    }

    /// Whether this bridge delivers the reminders of bottle `key` (with `address`, when known).
    public func remindsFor(bottle key: String, address: String? = nil) -> Bool {
        state.withLock { Self.reminds(key: key, address: address, me: me, in: $0) }
    }

    /// Whether this bridge delivers the reminders of the bottle with `address` (its key as the
    /// history knows it).
    public func remindsFor(address: String) -> Bool {
        remindsFor(bottle: localSerial(address) ?? address, address: address)
    }

    /// Whether this bridge reminds for bottle `key` by the hand-over rule (not as its syncer)
    /// while who reminds changed within `handOverSettle` before `now`: its syncer, the bridges
    /// that run its reminders, or whether one of them is alive.
    private static func settling(key: String, address: String?, me: String, now: WallInstant, in state: State) -> Bool {
        let ids = topicIDs(key: key, address: address, in: state)
        let syncer = lastSyncer(of: ids, in: state)
        if syncer == me { return false }
        let bridges = Set(ids.flatMap { state.reminding[$0] ?? [] }).union(syncer.map { [$0] } ?? [])
        let changed = (ids.compactMap { state.changedAt[$0] } + bridges.compactMap { state.aliveChangedAt[$0] }).max() ?? never
        return now - changed < handOverSettle
    }

    /// Whether a reminder of bottle `key` would be judged now, not held for a hand-over to settle (tests).
    func settled(bottle key: String, address: String?) -> Bool {
        let now = clock.now
        return state.withLock { !Self.settling(key: key, address: address, me: me, now: now, in: $0) }
    }

    /// Every topic id the bottle `key` (with `address`, when known) may be heard under: its key's,
    /// its address's, and the serial the household mapped that address to.
    private static func topicIDs(key: String, address: String?, in state: State) -> [String] {
        var ids = [topicID(key)]
        if let address {
            ids.append(topicID(address))
            if let serial = state.serials[topicID(address)] { ids.append(topicID(serial)) }
        }
        return ids
    }

    /// The bridge that synced the bottle last under any of `ids` (by the time its message carries).
    private static func lastSyncer(of ids: [String], in state: State) -> String? {
        ids.compactMap { state.syncers[$0] }.max(by: { $0.at < $1.at })?.bridge
    }

    /// The rule: the last syncer while it is not known offline; else the alive bridge with the
    /// smallest id among those that run the bottle's reminders, this one included.
    private static func reminds(key: String, address: String?, me: String, in state: State) -> Bool {
        reminder(key: key, address: address, me: me, in: state) == me
    }

    /// The bridge that delivers the reminders of bottle `key` as this bridge `me` knows the household.
    private static func reminder(key: String, address: String?, me: String, in state: State) -> String {
        let ids = topicIDs(key: key, address: address, in: state)
        if let syncer = lastSyncer(of: ids, in: state),
           syncer == me || state.alive[syncer] != false {
            return syncer
        }
        // Judged among the alive bridges that said they run the bottle's reminders. This one
        // counts when it said so too, or when it knows no other: a bridge that never said so is
        // no candidate in the others' eyes, so it is none in its own while one of them is alive
        // (else it and the smallest announced one would both remind); and a bridge that has
        // heard nobody (no broker yet) reminds on its own rather than nobody reminding.
        let announced = Set(ids.flatMap { state.reminding[$0] ?? [] })
        let others = announced.filter { $0 != me && state.alive[$0] == true }
        return (announced.contains(me) || others.isEmpty ? others.union([me]) : others).min() ?? me
    }

    /// The reminder gate (ReminderDesk): whether a reminder this bridge's engine decided for
    /// bottle `key` is delivered now. Never one another bridge delivered; by this bridge only
    /// when it reminds (then the household is told); else withheld, and `later` delivers it if
    /// this bridge takes over within `handOverWindow` and nobody delivered it meanwhile.
    public func shouldDeliver(bottle key: String, address: String?, id: String, kind: String, time: WallInstant,
                              later: @escaping @Sendable () -> Void) -> Bool {
        let now = clock.now
        let bottle = Self.topicID(key)
        enum Verdict { case repeated, deliver, withhold(to: String) }
        let verdict: Verdict = state.withLock { state in
            if let heard = state.deliveredElsewhere[bottle]?[id], now - heard.heardAt < Self.deliveredMemory,
               (time - heard.time) < Self.deliveredMemory / 2, (heard.time - time) < Self.deliveredMemory / 2 { return .repeated }
            let reminder = Self.reminder(key: key, address: address, me: me, in: state)
            if reminder == me, !Self.settling(key: key, address: address, me: me, now: now, in: state) { return .deliver }
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
                if Self.reminds(key: item.bottle, address: item.address, me: me, in: snapshot),
                   !Self.settling(key: item.bottle, address: item.address, me: me, now: now, in: snapshot) {
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
        state.withLock { $0.syncers[Self.topicID(bottle)]?.bridge }
    }

    /// The bridges heard to run the reminders of `bottle` (its key) (tests).
    func reminding(bottle: String) -> Set<String> {
        state.withLock { $0.reminding[Self.topicID(bottle)] ?? [] }
    }

    /// Reminders of `bottle` (its key) another bridge delivered, by id (tests).
    func deliveredElsewhere(bottle: String) -> Set<String> {
        state.withLock { Set(($0.deliveredElsewhere[Self.topicID(bottle)] ?? [:]).keys) }
    }

    private func decision(bottles: [String], mine: HouseholdLink.Claim?) -> Outcome {
        let now = clock.now
        return state.withLock { state in
            // Each bridge's latest claim on any of the bottle's keys.
            var merged: [String: Entry] = [:]
            for bottle in bottles {
                for (bridge, entry) in state.claims[bottle] ?? [:] where (merged[bridge]?.heardAt ?? Self.never) <= entry.heardAt {
                    merged[bridge] = entry
                }
            }
            return Self.decide(claims: merged, alive: state.alive, me: me, mine: mine, now: now)
        }
    }

    /// The rule: another alive bridge's fresh hold wins; then, between wants, the strongest RSSI
    /// (the smaller bridge id on a tie); a bridge whose last will came is not counted.
    static func decide(claims: [String: Entry], alive: [String: Bool], me: String, mine: HouseholdLink.Claim?,
                       now: WallInstant) -> Outcome {
        let others = claims.filter { bridge, entry in
            guard bridge != me, alive[bridge] != false else { return false }
            let lifetime = entry.claim.phase == .hold ? expiry : wantLifetime
            return now - entry.heardAt < lifetime
        }
        if let holder = others.filter({ $0.value.claim.phase == .hold }).keys.sorted().first { return .heldBy(holder) }
        guard let mine else { return .granted }
        let louder = others.filter { bridge, entry in
            entry.claim.rssi > mine.rssi || (entry.claim.rssi == mine.rssi && bridge < me)
        }
        if let winner = louder.max(by: { ($0.value.claim.rssi, $1.key) < ($1.value.claim.rssi, $0.key) })?.key {
            return .heldBy(winner)
        }
        return .granted
    }
}
