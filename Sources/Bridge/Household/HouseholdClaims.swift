// One bridge syncs a bottle at a time (docs/design.md 6): before it connects, a bridge claims
// the bottle through the broker, and the strongest RSSI wins; the claim is released when the
// session ends and is void when its bridge's last will says it is offline, or after `expiry`.
// A person is reminded once: a bottle's reminders are delivered only by the bridge that last
// synced it (the others' engines run on the same replicated history and count the same
// reminders, so a hand-over neither repeats one nor loses one).
//
//   want(rssi) ─ settle 0.6 s ─┬─ another alive bridge holds it, or wants it louder ─> release, defer
//                              └─ otherwise ─> hold ─> connect, sync ─> release, "synced by me"

import Foundation
import Locking
import Logging
import Sinks
import Timekeeping

public final class HouseholdClaims: Sendable {
    /// How long a bridge listens for competing claims before it holds the bottle.
    static let settle: Duration = .milliseconds(600)
    /// A held claim that was never released counts this long (a sync lasts well under a minute;
    /// a bridge that died is void at once through its last will).
    static let expiry = 180.0
    /// A want that neither became a hold nor was released counts this long.
    static let wantLifetime = 10.0

    public enum Outcome: Sendable, Equatable {
        case granted
        case heldBy(String)
    }

    struct Entry: Sendable, Equatable {
        var claim: HouseholdLink.Claim
        var heardAt: Double
    }

    private struct State {
        /// bottle topic id → bridge → its claim.
        var claims: [String: [String: Entry]] = [:]
        var alive: [String: Bool] = [:]
        /// bottle topic id → the bridge that last synced it.
        var syncers: [String: String] = [:]
    }

    public let me: String
    private let link: HouseholdLink
    private let clock: any WallClock
    private let logger: Logger
    private let state = Locked(State())

    init(link: HouseholdLink, clock: any WallClock, logger: Logger) {
        self.me = link.bridgeID
        self.link = link
        self.clock = clock
        self.logger = logger
    }

    /// What the household said (HouseholdReplication hands every claim, presence and syncer here).
    func heard(_ received: HouseholdLink.Received) {
        let now = clock.now
        state.withLock { state in
            switch received {
            case let .alive(bridge, online):
                state.alive[bridge] = online
            case let .claim(bottle, bridge, claim, _):
                state.claims[bottle, default: [:]][bridge] = claim.map { Entry(claim: $0, heardAt: now) }
            case let .syncer(bottle, bridge):
                state.syncers[bottle] = bridge
            case .drink, .hello, .ping:
                break
            }
        }
    }

    /// The bottle's topic id, as Home Assistant's topics name it.
    static func bottleID(_ address: String) -> String { MQTTTopics.bottleID(fromAddress: address) }

    /// Claims the bottle with `address`, heard at `rssi`: granted, or held by (or left to) another
    /// bridge. Without the broker the bridge syncs on its own (a partition must not stop it).
    public func acquire(address: String, rssi: Int?) async -> Outcome {
        guard link.isConnected else { return .granted }
        let bottle = Self.bottleID(address)
        if case .heldBy(let other) = decision(bottle: bottle, mine: nil) { return .heldBy(other) }
        let mine = HouseholdLink.Claim(phase: .want, rssi: rssi ?? -127)
        do { try link.claim(bottle, mine) } catch { return .granted }
        try? await Task.sleep(for: Self.settle)
        let outcome = decision(bottle: bottle, mine: mine)
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
    /// one that reminds its person.
    public func release(address: String, synced: Bool) {
        let bottle = Self.bottleID(address)
        try? link.claim(bottle, nil)
        if synced { try? link.synced(bottle) }
    }

    /// Whether this bridge delivers the reminders of the bottle with `address`: it synced it
    /// last, or the one that did is offline, or nobody is known to have.
    public func remindsFor(address: String) -> Bool {
        let bottle = Self.bottleID(address)
        return state.withLock { state in
            guard let syncer = state.syncers[bottle], syncer != me else { return true }
            return state.alive[syncer] == false
        }
    }

    private func decision(bottle: String, mine: HouseholdLink.Claim?) -> Outcome {
        let now = clock.now
        return state.withLock { state in
            Self.decide(claims: state.claims[bottle] ?? [:], alive: state.alive, me: me, mine: mine, now: now)
        }
    }

    /// The rule: another alive bridge's fresh hold wins; then, between wants, the strongest RSSI
    /// (the smaller bridge id on a tie); a bridge whose last will came is not counted.
    static func decide(claims: [String: Entry], alive: [String: Bool], me: String, mine: HouseholdLink.Claim?,
                       now: Double) -> Outcome {
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
