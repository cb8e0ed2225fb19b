// What one bridge knows of its household's claims, syncs and reminders, and the rules it judges
// by (docs/household.md): who syncs a bottle (the claim rule: a fresh hold, else the strongest
// RSSI, the smaller bridge id on a tie) and who reminds its person (the hand-over rule: the last
// syncer while it is not known offline, else the alive bridge with the smallest id among those
// that run the bottle's reminders). A value: every time is handed in, nothing is sent or locked,
// so the rules are tested as they are (HouseholdClaimRuleTests); `HouseholdClaims` holds one
// under its lock and does the talking to the broker.

import MQTT
import Timekeeping

struct HouseholdClaimRule: Sendable {
    /// A held claim that was never released counts this long (a sync lasts well under a minute;
    /// a bridge that died is void at once through its last will).
    static let expiry: Duration = .seconds(180)
    /// A want that neither became a hold nor was released counts this long.
    static let wantLifetime: Duration = .seconds(10)
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

    struct Entry: Sendable, Equatable {
        var claim: HouseholdLink.Claim
        var heardAt: WallInstant
    }

    /// This bridge.
    let me: String
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
    /// When who reminds last changed: for any bottle (a bridge came or went), and per bottle
    /// topic id (its syncer, the bridges that run its reminders).
    var aliveChangedAt: [String: WallInstant] = [:]
    var changedAt: [String: WallInstant] = [:]

    /// - Parameter remembered: deliveries of other bridges heard before this process started.
    init(me: String, remembered: [(bottle: String, id: String, time: WallInstant, heardAt: WallInstant)] = []) {
        self.me = me
        for item in remembered {
            deliveredElsewhere[Self.topicID(item.bottle), default: [:]][item.id] = (item.heardAt, item.time)
        }
    }

    /// The topic id of a bottle key or address (`F4:12:FA:00:A3:F2` → `f412fa00a3f2`).
    static func topicID(_ key: String) -> String { MQTTTopics.bottleID(fromAddress: key) }

    /// Keeps at most `limit` entries of `map`, those with the largest `rank` (the most recent).
    static func cap<Value, Rank: Comparable>(_ map: inout [String: Value], _ limit: Int, rank: ((key: String, value: Value)) -> Rank) {
        guard map.count > limit else { return }
        for (key, _) in map.sorted(by: { rank($0) < rank($1) }).prefix(map.count - limit) {
            map.removeValue(forKey: key)
        }
    }

    // MARK: What the household said

    /// Takes in what the household said at `now`; returns the bridge that became a bottle's last
    /// syncer by it (another than this one), for the log.
    mutating func hear(_ received: HouseholdLink.Received, at now: WallInstant) -> String? {
        var newSyncer: String?
        switch received {
        case let .alive(bridge, online):
            if alive[bridge] != online { aliveChangedAt[bridge] = now }
            Self.cap(&aliveChangedAt, Self.maximumBridges) { $0.value }
            alive[bridge] = online
            Self.cap(&alive, Self.maximumBridges) { $0.value ? 1 : 0 }
        case let .claim(bottle, bridge, claim, _, sentAt):
            // Counted from when its bridge signed it, if that was earlier: a retained hold
            // heard long after it was made is as old as it is.
            claims[bottle, default: [:]][bridge] = claim.map { Entry(claim: $0, heardAt: min(now, sentAt)) }
            Self.cap(&claims[bottle, default: [:]], Self.maximumBridges) { $0.value.heardAt }
            if claims[bottle]?.isEmpty == true { claims.removeValue(forKey: bottle) }
            if claims.count > Self.maximumBottles {
                // The released and expired go first, then the oldest.
                claims = claims.compactMapValues { entries in
                    let live = entries.filter { now - $0.value.heardAt < Self.expiry }
                    return live.isEmpty ? nil : live
                }
                Self.cap(&claims, Self.maximumBottles) { $0.value.values.map(\.heardAt).max() ?? Self.never }
            }
        case let .syncer(bottle, bridge, time):
            // The later sync counts, also on one topic: a message heard after a newer one
            // (this bridge's own sync is known here before its echo) changes nothing.
            if let known = syncers[bottle], !bridge.isEmpty, known.at > (time ?? now) { break }
            if !bridge.isEmpty, bridge != me, syncers[bottle]?.bridge != bridge { newSyncer = bridge }
            if syncers[bottle]?.bridge != bridge { changedAt[bottle] = now }
            Self.cap(&changedAt, Self.maximumBottles) { $0.value }
            syncers[bottle] = bridge.isEmpty ? nil : (bridge, time ?? now)
            Self.cap(&syncers, Self.maximumBottles) { $0.value.at }
        case let .bottleKey(address, key):
            serials[address] = key
            Self.cap(&serials, Self.maximumBottles) { _ in 0 }
        case let .reminds(bottle, bridge, runs):
            if runs != (reminding[bottle]?.contains(bridge) ?? false) { changedAt[bottle] = now }
            if runs { reminding[bottle, default: []].insert(bridge) } else { reminding[bottle]?.remove(bridge) }
            if reminding[bottle]?.isEmpty == true { reminding.removeValue(forKey: bottle) }
            Self.cap(&reminding, Self.maximumBottles) { $0.value.count }
        case let .delivered(delivered):
            guard delivered.from != me else { break }
            let bottle = Self.topicID(delivered.bottle)
            deliveredElsewhere[bottle, default: [:]][delivered.id] = (now, delivered.time)
            deliveredElsewhere[bottle] = deliveredElsewhere[bottle]?.filter { now - $0.value.heardAt < Self.deliveredMemory }
            Self.cap(&deliveredElsewhere[bottle, default: [:]], Self.maximumDeliveries) { $0.value.heardAt }
            Self.cap(&deliveredElsewhere, Self.maximumBottles) { $0.value.values.map(\.heardAt).max() ?? Self.never }
        case .drink, .hello, .ping, .digest, .want, .deletion:
            break
        }
        return newSyncer
    }

    /// This bridge synced `bottle` (its topic id) at `now`: known at once, before the broker's echo.
    mutating func syncedHere(_ bottle: String, at now: WallInstant) {
        syncers[bottle] = (me, now)
    }

    /// This bridge runs the reminders of `bottle` (its topic id); true when that was known already.
    mutating func remindsHere(_ bottle: String) -> Bool {
        reminding[bottle, default: []].insert(me).inserted == false
    }

    // MARK: Who syncs

    /// Who may sync the bottle whose claims are under `bottles` (its topic ids), with this
    /// bridge's own claim `mine` (nil: none yet).
    func outcome(bottles: [String], mine: HouseholdLink.Claim?, at now: WallInstant) -> HouseholdClaims.Outcome {
        // Each bridge's latest claim on any of the bottle's keys.
        var merged: [String: Entry] = [:]
        for bottle in bottles {
            for (bridge, entry) in claims[bottle] ?? [:] where (merged[bridge]?.heardAt ?? Self.never) <= entry.heardAt {
                merged[bridge] = entry
            }
        }
        return Self.decide(claims: merged, alive: alive, me: me, mine: mine, now: now)
    }

    /// The claim rule: another alive bridge's fresh hold wins; then, between wants, the strongest
    /// RSSI (the smaller bridge id on a tie); a bridge whose last will came is not counted.
    static func decide(claims: [String: Entry], alive: [String: Bool], me: String, mine: HouseholdLink.Claim?,
                       now: WallInstant) -> HouseholdClaims.Outcome {
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

    // MARK: Who reminds

    /// Every topic id the bottle `key` (with `address`, when known) may be heard under: its key's,
    /// its address's, and the serial the household mapped that address to.
    func topicIDs(key: String, address: String?) -> [String] {
        var ids = [Self.topicID(key)]
        if let address {
            ids.append(Self.topicID(address))
            if let serial = serials[Self.topicID(address)] { ids.append(Self.topicID(serial)) }
        }
        return ids
    }

    /// The bridge that synced the bottle last under any of `ids` (by the time its message carries).
    func lastSyncer(of ids: [String]) -> String? {
        ids.compactMap { syncers[$0] }.max(by: { $0.at < $1.at })?.bridge
    }

    /// The bridge that delivers the reminders of bottle `key`, as this bridge knows the household.
    func reminder(key: String, address: String?) -> String {
        let ids = topicIDs(key: key, address: address)
        if let syncer = lastSyncer(of: ids), syncer == me || alive[syncer] != false {
            return syncer
        }
        // Judged among the alive bridges that said they run the bottle's reminders. This one
        // counts when it said so too, or when it knows no other: a bridge that never said so is
        // no candidate in the others' eyes, so it is none in its own while one of them is alive
        // (else it and the smallest announced one would both remind); and a bridge that has
        // heard nobody (no broker yet) reminds on its own rather than nobody reminding.
        let announced = Set(ids.flatMap { reminding[$0] ?? [] })
        let others = announced.filter { $0 != me && alive[$0] == true }
        return (announced.contains(me) || others.isEmpty ? others.union([me]) : others).min() ?? me
    }

    /// Whether this bridge delivers the reminders of bottle `key`.
    func reminds(key: String, address: String?) -> Bool {
        reminder(key: key, address: address) == me
    }

    /// Whether this bridge reminds for bottle `key` by the hand-over rule (not as its syncer)
    /// while who reminds changed within `handOverSettle` before `now`: its syncer, the bridges
    /// that run its reminders, or whether one of them is alive.
    func settling(key: String, address: String?, at now: WallInstant) -> Bool {
        let ids = topicIDs(key: key, address: address)
        let syncer = lastSyncer(of: ids)
        if syncer == me { return false }
        let bridges = Set(ids.flatMap { reminding[$0] ?? [] }).union(syncer.map { [$0] } ?? [])
        let changed = (ids.compactMap { changedAt[$0] } + bridges.compactMap { aliveChangedAt[$0] }).max() ?? Self.never
        return now - changed < Self.handOverSettle
    }

    /// Whether reminder `id` of bottle `key`, due at `time`, was delivered by another bridge
    /// (heard within `deliveredMemory`, and the same day's: an id comes back the next day).
    func deliveredElsewhere(id: String, bottle key: String, time: WallInstant, at now: WallInstant) -> Bool {
        guard let heard = deliveredElsewhere[Self.topicID(key)]?[id] else { return false }
        return now - heard.heardAt < Self.deliveredMemory
            && (time - heard.time) < Self.deliveredMemory / 2 && (heard.time - time) < Self.deliveredMemory / 2
    }

    /// Whether this bridge delivers a reminder of bottle `key` now: it reminds for it, and who
    /// reminds has settled.
    func deliversNow(key: String, address: String?, at now: WallInstant) -> Bool {
        reminds(key: key, address: address) && !settling(key: key, address: address, at: now)
    }
}
