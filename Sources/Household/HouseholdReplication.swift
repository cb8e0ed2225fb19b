// Several bridges, one broker (docs/design.md 6): every drink this bridge stores is published
// to the household (QoS 1), and every drink another bridge published is stored here,
// idempotently on (bottle, record_id, timestamp), deletions alike, so the histories converge.
//
// The outbox is the history itself: the drinks this bridge synced (origin NULL) stored or
// deleted after `publishedUpTo` are published at every connection, after each sync (`kick`)
// and every `interval` (a `bottle delete` made by another process); the mark is saved with the
// engines' states. A bridge the broker had no session for (or whose history never said one)
// says hello with a new epoch, retained, naming per member the latest change of that member's
// drinks it holds; every other bridge publishes what changed after it (all, when it names none)
// once per epoch it sees (the epochs answered are saved with the mark), also when it connects after the
// hello was said: after a broker restarted without its sessions, each bridge hears every other's
// hello whatever the order they came back in, and the histories converge. A bridge back from an
// outage gets what it missed from its session.
//
// Only members are believed (HouseholdLink, HouseholdSeal: every message signed with
// `household.key`); what the link dropped is counted and saved with the history, for `/metrics`
// and `doctor`. A hello is answered at most once per member per `helloInterval`: a member
// saying it more often waits for the interval (the drinks it lacks still go, then).
//
// A drink another member added by hand and deleted here is not this bridge's to publish: its
// deletion is told (HouseholdDeletionMessage) after the mark `deletionsToldUpTo`, like the
// outbox, and every member applies it, the origin to its own drink, whose tombstone it then
// publishes as any of its deletions. While the origin's digest still counts such a drink alive
// (the deletion was lost on the way to it), the deletion is told again at each comparison.

import AquavateProtocol
import Foundation
import History
import HostClock
import Locking
import Logging
import MQTT
import ServiceLifecycle
import Settings
import Timekeeping

package actor HouseholdReplication: Service {
    enum Event: Sendable {
        case kick
        case connected(sessionPresent: Bool)
        case received(HouseholdLink.Received)
    }

    /// What is republished after a restart: whatever was published in the last 5 minutes may
    /// not have been acknowledged before the bridge stopped (receivers store it once anyway).
    static let restartMargin: Duration = .seconds(300)
    /// Before every drink: the mark of a bridge that published nothing yet, or of a hello that names no time.
    static let beforeEverything = WallInstant(secondsSince1970: -.infinity)

    package nonisolated let bridgeID: String
    private let history: DrinkHistory
    private let clock: any WallClock
    private let logger: Logger
    private let interval: Duration
    private let changed: @Sendable (String) -> Void
    private nonisolated let events: AsyncStream<Event>
    private nonisolated let inbox: Inbox
    private nonisolated let link: HouseholdLink
    /// The claims on bottles and who reminds (fed from the same link).
    package nonisolated let claims: HouseholdClaims
    private var publishedUpTo: WallInstant
    /// The latest deletion of another member's hand-added drink told (those deleted here later
    /// are told at the next kick).
    private var deletionsToldUpTo: WallInstant
    /// Deletions of other members' drinks this process applied because the household said so (a
    /// deletion or a tombstone heard): every member heard them already, so they are not told
    /// again. Forgotten beyond `maximumHeardDeletions` (one is then told once more, harmlessly).
    private var heardDeletions: Set<DrinkKey> = []
    static let maximumHeardDeletions = 4096
    /// A comparison with a member's digest tells again at most this many deletions of its drinks.
    static let maximumDeletionsRetold = 256
    /// This bridge's last hello (nil: its history never said one).
    private var epoch: String?
    /// bridge → the epoch of its hello this bridge answered (at most `maximumMembers`).
    private var answered: [String: String]
    /// bridge → when this bridge last answered its hello (this process), and a hello heard
    /// within the interval after it, answered when the interval ends.
    private var lastAnswer: [String: WallInstant] = [:]
    private var pendingHellos: [String: (epoch: String?, have: WallInstant?)] = [:]
    /// member → the latest change of its drinks stored here (its clock, from the drinks it
    /// sent): what this bridge's hello says it has. A member whose drink could not be stored
    /// has none for the rest of the process, so that a hello asks it for everything.
    private var heardUpTo: [String: WallInstant]
    private var heardUnreliably: Set<String> = []
    /// A member's hello is answered at most this often: a burst of them (a broker's restart has
    /// every member say hello at once) is answered once. Short, because an answer sends only what
    /// the member lacks, and a member back from a broker's restart lacks what was in flight: at
    /// 600 s, a restart within 10 minutes of the last answer left it without those drinks for
    /// the rest of the 10 minutes.
    static let helloInterval: Duration = .seconds(10)
    /// The members whose hellos are kept track of; beyond it the oldest are forgotten.
    static let maximumMembers = 64
    /// The drop tally last saved (saved again at a kick when it changed).
    private var savedDrops: [HouseholdDropReason: Int]
    /// The replay guard's version last saved (saved again at a kick when it moved).
    private var savedReplay = 0
    /// Every drink of this bridge was published since this connection began: a hello the broker
    /// had stored (its bridge subscribed before this connection) got them all already.
    private var allSentSinceConnect = false
    /// Drinks stored from other bridges, and drinks published, since start (tests, figures).
    package private(set) var receivedDrinks = 0
    package private(set) var publishedDrinks = 0
    /// Deletions of hand-added drinks told, and heard that deleted a drink here, since start.
    package private(set) var toldDeletions = 0
    package private(set) var appliedDeletions = 0
    /// This process, for `doctor`: two bridges answering with one `bridge.id` have two.
    private let instance = String(UInt64.random(in: 0...UInt64.max), radix: 36)
    private let clockSync: any ClockSyncSource
    /// Anti-entropy (HouseholdDigest): when this connection began, and when this bridge last
    /// published its digest on it (nil: not yet).
    private var connectedAt: WallInstant?
    private var lastDigest: WallInstant?
    /// The first digest waits this long after a connection (the outbox and the hellos' answers
    /// go first, so what is in flight is not taken for a difference); then one every `digestInterval`.
    static let digestDelay: Duration = .seconds(60)
    static let digestInterval: Duration = .seconds(240)
    /// Days asked for again and answered, since start (tests, figures).
    package private(set) var daysWanted = 0
    package private(set) var daysAnswered = 0
    package private(set) var periodsWanted = 0

    /// - Parameters:
    ///   - changed: a bottle's history changed through another bridge (the reminders re-read it).
    /// - Parameters:
    ///   - key: the household's key: the link believes only messages signed with it, and signs its own.
    package init(history: DrinkHistory, url: String, bridgeID: String, key: HouseholdKey, topicPrefix: String = "aquavate", caFile: String? = nil,
                clock: any WallClock, logger: Logger, interval: Duration = .seconds(10),
                reconnectDelay: ClosedRange<Double> = 1...60, clockSync: any ClockSyncSource = KernelClockSync(),
                changed: @escaping @Sendable (String) -> Void = { _ in }) throws(SinkConfigurationError) {
        let (events, continuation) = AsyncStream<Event>.makeStream()
        let inbox = Inbox(continuation: continuation)
        self.events = events
        self.inbox = inbox
        self.history = history
        self.clock = clock
        self.logger = logger
        self.interval = interval
        self.changed = changed
        self.bridgeID = bridgeID
        self.clockSync = clockSync
        let savedDrops = HouseholdMembership.drops(history)
        self.savedDrops = savedDrops
        let boot: UInt64
        do {
            boot = try HouseholdMembership.nextBoot(history, now: clock.now)
        } catch {
            throw .mqttSetupFailed("the household link needs this start counted in the history: \(error)")
        }
        link = try HouseholdLink(url: url, bridgeID: bridgeID, key: key, boot: boot, topicPrefix: topicPrefix, logger: logger,
                                 clock: clock, drops: HouseholdDrops(logger: logger, initial: savedDrops),
                                 reconnectDelay: reconnectDelay, caFile: caFile,
                                 replay: HouseholdReplayState((try? history.household.replay()) ?? HouseholdReplayRecords()),
                                 connected: { inbox.yield(.connected(sessionPresent: $0)) },
                                 received: { inbox.yield(.received($0)) })
        let memory = HouseholdClaims.deliveredMemory
        let remembered = ((try? history.household.deliveries(since: clock.now - memory)) ?? []).map { (bottle: $0.bottle, id: $0.id, time: $0.time, heardAt: $0.heardAt) }
        claims = HouseholdClaims(link: link, clock: clock, logger: logger, localSerial: { address in
            // The key the history uses once the serial was read.
            guard let key = try? history.bottles.key(forAddress: address), key != address.uppercased() else { return nil }
            return key
        }, remembered: remembered, remember: { delivered, heardAt in
            do {
                try history.household.recordDelivery(.init(bottle: delivered.bottle, id: delivered.id, kind: delivered.kind, time: delivered.time,
                                                          origin: delivered.from, heardAt: heardAt),
                                                    forgetBefore: heardAt - memory)
            } catch {
                logger.warning("MQTT household: could not keep \(delivered.id) delivered by \(delivered.from): \(error)")
            }
        })
        let saved = (try? history.household.replication()) ?? HouseholdReplicationRecords()
        publishedUpTo = saved.publishedUpTo.map { $0 - Self.restartMargin } ?? Self.beforeEverything
        epoch = saved.epoch
        answered = Dictionary(saved.peers.compactMap { peer in peer.answeredEpoch.map { (peer.member, $0) } }, uniquingKeysWith: { $1 })
        heardUpTo = Dictionary(saved.peers.compactMap { peer in peer.heardUpTo.map { (peer.member, $0) } }, uniquingKeysWith: { $1 })
        // As the outbox: what was told in the last minutes before a stop may not have gone out.
        deletionsToldUpTo = saved.deletionsToldUpTo.map { $0 - Self.restartMargin } ?? Self.beforeEverything
    }

    /// The events posted to this replication (by the link's thread, the ticker, `kick`), and how
    /// many wait to be handled: a test that runs the household on a manual clock moves the clock
    /// on only once none waits (a digest over a year of drinks takes a while to compute).
    struct Inbox: Sendable {
        let continuation: AsyncStream<Event>.Continuation
        let waiting = Locked(0)

        func yield(_ event: Event) {
            waiting.withLock { $0 += 1 }
            if case .dropped = continuation.yield(event) { waiting.withLock { $0 -= 1 } }
        }

        func handled() { waiting.withLock { $0 -= 1 } }

        func finish() { continuation.finish() }
    }

    /// The events posted and not handled yet (tests).
    package nonisolated var pendingEvents: Int { inbox.waiting.withLock { $0 } }

    /// Test hook: the link breaks as in a crash (the broker publishes its last will).
    nonisolated func dropLinkUncleanly() { link.dropConnectionUncleanly() }

    package nonisolated var isConnected: Bool { link.isConnected }

    /// What the link did not believe since the history began, by reason.
    package nonisolated var drops: [HouseholdDropReason: Int] { link.drops.snapshot }
    /// The members' hellos kept for the end of their interval since this link started.
    package nonisolated var deferredHellos: Int { link.drops.deferredHellos }

    /// Something was stored here: publish it soon.
    package nonisolated func kick() { inbox.yield(.kick) }

    package func run() async throws {
        link.start()
        let inbox = self.inbox, interval = self.interval, clock = self.clock
        // The periodic kick: the loop below makes progress at least once per `interval`.
        let ticker = Task {
            while !Task.isCancelled {
                guard (try? await clock.sleep(for: interval)) != nil else { break }
                inbox.yield(.kick)
            }
        }
        await withGracefulShutdownHandler {
            // Progress: each pass handles one event (a connection, a drink or hello received, a
            // kick); the ticker yields one every `interval`, and shutdown finishes the stream.
            for await event in events {
                handle(event)
                inbox.handled()
            }
        } onGracefulShutdown: {
            inbox.finish()
        }
        ticker.cancel()
        publishOutbox()
        tellDeletions()
        withdrawForgottenBottles()
        saveDrops()
        saveReplay()
        await link.stop()
    }

    private func handle(_ event: Event) {
        switch event {
        case .kick:
            publishOutbox()
            tellDeletions()
            withdrawForgottenBottles()
            answerPendingHellos()
            publishDigestWhenDue()
            saveDrops()
            saveReplay()
        case .connected(let sessionPresent):
            // A hello at every connection, also when the broker kept the session: what it queued
            // may have been taken (a client that had the session meanwhile) or dropped (a queue
            // over the broker's limit). It names what this bridge holds, so a member answers with
            // what changed since, not its history.
            do {
                let epoch = String(UInt64.random(in: 0...UInt64.max), radix: 36)
                let kept = sessionPresent ? "its session resumed" : "a new session"
                logger.info("MQTT household: \(kept) for \(bridgeID) (epoch \(epoch)); asking the other bridges for the drinks it lacks")
                do {
                    try link.hello(epoch: epoch, have: heardUpTo)
                    self.epoch = epoch
                } catch {
                    logger.debug("MQTT household: \(error)")
                }
            }
            connectedAt = clock.now
            lastDigest = nil
            let bottles = ((try? history.bottles.all()) ?? []).filter { $0.address != nil }.map { (key: $0.id, address: $0.address) }
            claims.connected(bottles: bottles, lostEverything: !sessionPresent)
            let fromTheStart = !publishedUpTo.secondsSince1970.isFinite
            allSentSinceConnect = publishOutbox() && fromTheStart
            tellDeletions()
            saveState()
        case .received(.hello(let from, let epoch, let have, let stored)):
            // A member (re)connected: compare with it soon, once what is in flight has arrived.
            if !stored, let lastDigest, clock.now - lastDigest > Self.digestDelay {
                self.lastDigest = clock.now - Self.digestInterval + Self.digestDelay
            }
            if let epoch, answered[from] == epoch { return }
            if stored && allSentSinceConnect {
                // Its bridge was subscribed before this connection: everything sent since reached it.
                if let epoch { remember(epoch, of: from) }
                saveState()
                return
            }
            if let last = lastAnswer[from], clock.now - last < Self.helloInterval {
                // Answered a moment ago: once more when the interval ends, not now.
                link.drops.deferHello(topic: "hello/\(from)")
                pendingHellos[from] = (epoch, have[bridgeID])
                return
            }
            answer(hello: from, epoch: epoch, has: have[bridgeID])
        case .received(.drink(let drink)):
            store(drink)
        case .received(.deletion(let deletion)):
            apply(deletion)
        case .received(.digest(let from, let days, let periods)):
            compare(digest: days, periods: periods, of: from)
        case .received(.want(let from, let days, let periods, let held)):
            answer(want: days, periods: periods, held: held, from: from)
        case .received(.ping):
            try? link.pong(time: clock.now, instance: instance, synchronised: clockSync.read() == .synchronised)
        case .received(let other):
            claims.heard(other)
        }
    }

    /// Publishes the drinks of this bridge that `from` lacks again, for its hello: those changed
    /// after the latest it `has` (less `restartMargin`: what was in flight when it lost its
    /// session), or all when it did not say.
    private func answer(hello from: String, epoch: String?, has: WallInstant?) {
        let since = has.map { $0 - Self.restartMargin } ?? Self.beforeEverything
        let what = since.secondsSince1970.isFinite ? "the drinks it lacks (changed since \(ISO8601Text.format(since)))" : "all of this bridge's drinks"
        logger.info("MQTT household: \(from) said hello (epoch \(epoch ?? "none")); publishing \(what) again")
        publishedUpTo = min(publishedUpTo, since)
        // Answered only once everything went (else the next hello heard, the retained one
        // at the next connection, asks again).
        let complete = publishOutbox()
        // The deletions of other members' drinks told since then too: a member back without its
        // session lost them with it.
        retellDeletions(since: since)
        if complete, let epoch { remember(epoch, of: from) }
        if complete { allSentSinceConnect = true }
        lastAnswer[from] = clock.now
        if lastAnswer.count > Self.maximumMembers {
            for (bridge, _) in lastAnswer.sorted(by: { $0.value < $1.value }).prefix(lastAnswer.count - Self.maximumMembers) {
                lastAnswer.removeValue(forKey: bridge)
            }
        }
        saveState()
    }

    /// A bottle `bottle forget` (another process) took from the history while this one runs:
    /// this bridge no longer runs its reminders, and says so to the household itself, read from
    /// the history at every kick like a `bottle delete` of another process.
    private func withdrawForgottenBottles() {
        guard link.isConnected, let bottles = try? history.bottles.all() else { return }
        let keys = bottles.filter { $0.address != nil }.flatMap { [$0.id, $0.serial, $0.address].compactMap { $0 } }
        let withdrawn = claims.withdrawForgotten(adopted: keys)
        guard !withdrawn.isEmpty else { return }
        logger.notice("household: \(bridgeID) no longer reminds for bottle \(withdrawn.joined(separator: ", ")) (bottle forget); its reminds entry is withdrawn")
    }

    /// Publishes the digest of this bridge's own drinks when due: `digestDelay` after the
    /// connection began, then every `digestInterval`.
    private func publishDigestWhenDue() {
        guard link.isConnected, let connectedAt else { return }
        let now = clock.now
        if let lastDigest {
            guard now - lastDigest >= Self.digestInterval else { return }
        } else {
            guard now - connectedAt >= Self.digestDelay else { return }
        }
        do {
            let start = HouseholdDigest.windowStart(now: now.secondsSince1970)
            let rows = try history.drinks.digestRows(origin: nil, from: HouseholdDigest.horizonStart(now: now.secondsSince1970))
            try link.digest(HouseholdDigest.days(rows.filter { $0.timestamp >= start }), periods: HouseholdDigest.periods(rows, before: start))
            lastDigest = now
        } catch {
            logger.debug("MQTT household: could not publish the digest: \(error)")
        }
    }

    /// A member's digest of its drinks against what this bridge holds of them: asks for the
    /// days that differ, and for the per-day digests of the periods that differ. A digest of
    /// days before the window is a member's answer to such a question: its days are compared too.
    private func compare(digest theirs: [Int64: String], periods theirPeriods: [Int64: String], of origin: String) {
        let now = clock.now.secondsSince1970
        let start = HouseholdDigest.windowStart(now: now), horizon = HouseholdDigest.horizonStart(now: now)
        let theirDays = theirs.filter { $0.key * HouseholdDigest.secondsPerDay >= horizon }
        let from = min(start, theirDays.keys.min().map { $0 * HouseholdDigest.secondsPerDay } ?? start)
        let needsPeriods = !theirPeriods.isEmpty
        guard let rows = try? history.drinks.digestRows(origin: origin, from: needsPeriods ? horizon : from) else { return }
        let days = HouseholdDigest.differing(theirs: theirDays, ours: HouseholdDigest.days(rows))
        // What this bridge holds of each such day, so that the origin sends only the rest.
        let differing = Set(days)
        let held = Dictionary(grouping: rows.filter { differing.contains(HouseholdDigest.day(of: $0.timestamp)) }) {
            HouseholdDigest.day(of: $0.timestamp)
        }.mapValues { $0.map(HouseholdDigest.mark) }
        let periods = needsPeriods
            ? HouseholdDigest.differing(theirs: theirPeriods, ours: HouseholdDigest.periods(rows, before: start)) : []
        guard !days.isEmpty || !periods.isEmpty else { return }
        logger.info("MQTT household: \(days.count) day(s) of \(origin)'s drinks differ from what this bridge holds, and \(periods.count) older period(s); asking for them again")
        retellDeletions(of: origin, days: days)
        do {
            try link.want(days, periods: periods, held: held, of: origin)
            daysWanted += days.count
            periodsWanted += periods.count
        } catch {
            logger.debug("MQTT household: \(error)")
        }
    }

    /// Publishes this bridge's drinks of the days a member asked for again (of a day whose marks
    /// it sent, only the drinks it does not hold as they are here), and the per-day digest of
    /// each period it asked for.
    private func answer(want days: [Int64], periods: [Int64], held: [Int64: Set<String>], from member: String) {
        for period in periods {
            let range = HouseholdDigest.days(ofPeriod: period)
            guard let rows = try? history.drinks.digestRows(origin: nil, from: range.lowerBound * HouseholdDigest.secondsPerDay) else { return }
            let inPeriod = rows.filter { range.contains(HouseholdDigest.day(of: $0.timestamp)) }
            logger.info("MQTT household: \(member) asked for the digest of an older period of this bridge's drinks; publishing its \(Set(inPeriod.map { HouseholdDigest.day(of: $0.timestamp) }).count) day(s)")
            do {
                try link.digest(HouseholdDigest.days(inPeriod))
            } catch {
                return
            }
        }
        guard !days.isEmpty else { return }
        let asked = Set(days)
        guard let all = try? history.drinks.localDrinksChanged(since: Self.beforeEverything, limit: Int.max) else { return }
        let batch = all.filter { changed in
            let drink = changed.drink.drink
            let day = HouseholdDigest.day(of: Int64(drink.timestamp))
            guard asked.contains(day) else { return false }
            let mark = HouseholdDigest.mark(bottle: drink.bottle, recordID: Int64(drink.recordID), timestamp: Int64(drink.timestamp), deleted: drink.deleted)
            return !(held[day]?.contains(mark) ?? false)
        }
        logger.info("MQTT household: \(member) asked for \(days.count) day(s) of this bridge's drinks again (\(held.count) of them drink by drink); publishing \(batch.count)")
        for (drink, changedAt) in batch {
            do {
                try link.publish(HouseholdLink.Drink(drink.drink, origin: bridgeID, changedAt: changedAt))
            } catch {
                return
            }
            publishedDrinks += 1
        }
        daysAnswered += days.count
    }

    /// The hellos heard within their bridge's interval, answered once it has passed.
    private func answerPendingHellos() {
        for (from, pending) in pendingHellos where clock.now - (lastAnswer[from] ?? Self.beforeEverything) >= Self.helloInterval {
            pendingHellos.removeValue(forKey: from)
            if let epoch = pending.epoch, answered[from] == epoch { continue }
            answer(hello: from, epoch: pending.epoch, has: pending.have)
        }
    }

    /// Keeps the epoch of `bridge`'s hello as answered; a member count past the cap forgets others.
    private func remember(_ epoch: String, of bridge: String) {
        answered[bridge] = epoch
        while answered.count > Self.maximumMembers, let other = answered.keys.first(where: { $0 != bridge }) {
            answered.removeValue(forKey: other)
        }
    }

    /// Saves the drop tally when it changed (at a kick, not at each drop: a flood must not write).
    private func saveDrops() {
        let now = link.drops.snapshot
        guard now != savedDrops else { return }
        do {
            try HouseholdMembership.saveDrops(now, history: history, at: clock.now)
            savedDrops = now
        } catch {
            logger.warning("MQTT household: could not save the count of dropped messages: \(error)")
        }
    }

    /// Saves the replay guard when it moved (at a kick, not at each message).
    private func saveReplay() {
        let (state, version) = link.replay.saved
        guard version != savedReplay else { return }
        do {
            try history.household.saveReplay(state.records)
            savedReplay = version
        } catch {
            logger.warning("MQTT household: could not save the replay guard: \(error)")
        }
    }

    /// The record a received drink stands for, and why it cannot be a drink (nil when it can).
    /// Another bridge checked it against its bottle, but the broker is a network: a drink only
    /// counts when a bottle could have recorded it (the bounds of a chunk's records).
    static func record(of drink: HouseholdLink.Drink, now: WallInstant) -> (record: DrinkRecord, problem: String?) {
        // A deleted drink is a tombstone: its record carries the deleted bit, whatever its flags said.
        let record = drink.deleted ? drink.record.withFlags(drink.flagsRaw | DrinkRecordFlags.deleted.rawValue) : drink.record
        guard drink.manual else { return (record, RecordBounds(now: now.secondsSince1970).problem(with: record)) }
        // A drink added by hand: the volume a person may add, an id of the hand-added ones, and a
        // bottle's bounds for the rest (its time).
        guard ManualDrinkLimits.volumeML.contains(drink.amountML), drink.recordID >= Drink.firstManualRecordID else {
            return (record, "a drink added by hand must have 1 to 5000 ml and an id from \(Drink.firstManualRecordID)")
        }
        var checked = record
        checked.amountML = 1
        return (record, RecordBounds(now: now.secondsSince1970).problem(with: checked))
    }

    private func store(_ drink: HouseholdLink.Drink) {
        let (record, problem) = Self.record(of: drink, now: clock.now)
        if let problem {
            logger.warning("MQTT household: ignored a drink of \(drink.bottle) from \(drink.origin): \(problem)")
            return
        }
        do {
            let results = try history.drinks.storeReplicated([record], bottle: drink.bottle, origin: drink.origin,
                                                      manual: drink.manual, at: clock.now)
            if results.contains(where: { [.inserted, .insertedDeleted, .deleted].contains($0.outcome) }) {
                receivedDrinks += 1
                changed(drink.bottle)
            }
            if drink.manual, results.contains(where: { [.insertedDeleted, .deleted].contains($0.outcome) }) {
                heard(HouseholdLink.Deletion(bottle: drink.bottle, recordID: drink.recordID, timestamp: drink.timestamp,
                                             origin: drink.origin, by: drink.origin))
            }
            if let changedAt = drink.changedAt, !heardUnreliably.contains(drink.origin),
               heardUpTo[drink.origin] != nil || heardUpTo.count < Self.maximumMembers {
                heardUpTo[drink.origin] = max(heardUpTo[drink.origin] ?? Self.beforeEverything, changedAt)
                saveState()
            }
        } catch {
            heardUnreliably.insert(drink.origin)
            heardUpTo.removeValue(forKey: drink.origin)
            logger.warning("MQTT household: could not store drink #\(drink.recordID) of \(drink.bottle) from \(drink.origin): \(error)")
        }
    }

    /// Publishes this bridge's drinks changed since the mark, while connected; whether all went.
    @discardableResult
    private func publishOutbox() -> Bool {
        guard link.isConnected else { return false }
        let batch: [(drink: StoredDrink, changedAt: WallInstant)]
        do {
            batch = try history.drinks.localDrinksChanged(since: publishedUpTo, limit: Int.max)
                .map { ($0.drink, $0.changedAt) }
        } catch {
            logger.warning("MQTT household: could not read the drinks to publish: \(error)")
            return false
        }
        guard !batch.isEmpty else { return true }
        var complete = true
        for (drink, changedAt) in batch {
            do {
                try link.publish(HouseholdLink.Drink(drink.drink, origin: bridgeID, changedAt: changedAt))
            } catch {
                complete = false
                break  // the connection went: the rest goes at the next one
            }
            publishedDrinks += 1
            publishedUpTo = max(publishedUpTo, changedAt)
        }
        saveState()
        return complete
    }

    /// Tells the household the deletions of other members' hand-added drinks made here after the
    /// mark, while connected; whether all went.
    @discardableResult
    private func tellDeletions() -> Bool {
        guard link.isConnected else { return false }
        let batch: [DrinkStore.ForeignDeletion]
        do {
            batch = try history.drinks.foreignManualDeletions(since: deletionsToldUpTo, limit: Int.max)
        } catch {
            logger.warning("MQTT household: could not read the deletions to tell: \(error)")
            return false
        }
        guard !batch.isEmpty else { return true }
        var complete = true
        for deletion in batch {
            if !heardDeletions.contains(DrinkKey(bottle: deletion.bottle, recordID: deletion.recordID, timestamp: deletion.timestamp)) {
                do {
                    try link.delete(Self.deletion(deletion, by: bridgeID))
                } catch {
                    complete = false
                    break  // the connection went: the rest goes at the next one
                }
                toldDeletions += 1
                logger.info("MQTT household: told the household that drink #\(deletion.recordID) of \(deletion.bottle), added by hand on \(deletion.origin), was deleted here")
            }
            deletionsToldUpTo = max(deletionsToldUpTo, deletion.deletedAt)
        }
        saveState()
        return complete
    }

    /// Tells again the deletions held here of `origin`'s hand-added drinks of `days`, whose
    /// digest differs: the origin may not have heard them (it then deletes the drink and
    /// publishes its tombstone; otherwise every member finds it deleted already).
    private func retellDeletions(of origin: String, days: [Int64]) {
        var told = 0
        for day in days.sorted() where told < Self.maximumDeletionsRetold {
            let start = day * HouseholdDigest.secondsPerDay
            guard let deletions = try? history.drinks.foreignManualDeletions(origin: origin, from: start, to: start + HouseholdDigest.secondsPerDay,
                                                                      limit: Self.maximumDeletionsRetold - told) else { return }
            for deletion in deletions {
                do {
                    try link.delete(Self.deletion(deletion, by: bridgeID))
                } catch {
                    return
                }
                told += 1
            }
        }
        if told > 0 {
            toldDeletions += told
            logger.info("MQTT household: told \(origin) again of \(told) deletion(s) of its drinks added by hand")
        }
    }

    /// Tells again the deletions of other members' hand-added drinks made here after `since`
    /// (at most `maximumDeletionsRetold`), for a member's hello.
    private func retellDeletions(since: WallInstant) {
        guard let deletions = try? history.drinks.foreignManualDeletions(since: since, limit: Self.maximumDeletionsRetold) else { return }
        for deletion in deletions {
            do {
                try link.delete(Self.deletion(deletion, by: bridgeID))
            } catch {
                return
            }
            toldDeletions += 1
        }
    }

    /// A member's deletion of a hand-added drink: applied to the drink of the origin it names
    /// held here; this bridge's own is then published as its tombstone.
    private func apply(_ deletion: HouseholdLink.Deletion) {
        let own = deletion.origin == bridgeID
        do {
            guard try history.drinks.deleteManualDrink(bottle: deletion.bottle, recordID: deletion.recordID, timestamp: deletion.timestamp,
                                                origin: own ? nil : deletion.origin, at: clock.now) else { return }
        } catch {
            logger.warning("MQTT household: could not delete drink #\(deletion.recordID) of \(deletion.bottle) as \(deletion.by) asked: \(error)")
            return
        }
        appliedDeletions += 1
        let whose = own ? "this bridge" : deletion.origin
        logger.info("MQTT household: \(deletion.by) deleted drink #\(deletion.recordID) of \(deletion.bottle), added by hand on \(whose)")
        changed(deletion.bottle)
        if own {
            publishOutbox()
        } else {
            heard(deletion)
        }
    }

    /// Keeps a deletion of another member's drink the household told this bridge of, so it is not told again.
    private func heard(_ deletion: HouseholdLink.Deletion) {
        if heardDeletions.count >= Self.maximumHeardDeletions { heardDeletions.removeAll() }
        heardDeletions.insert(DrinkKey(bottle: deletion.bottle, recordID: deletion.recordID, timestamp: deletion.timestamp))
    }

    /// A drink as every member knows it: its bottle, id and time.
    private struct DrinkKey: Hashable {
        var bottle: String
        var recordID: UInt32
        var timestamp: UInt32
    }

    private static func deletion(_ deletion: DrinkStore.ForeignDeletion, by deleter: String) -> HouseholdLink.Deletion {
        HouseholdLink.Deletion(bottle: deletion.bottle, recordID: deletion.recordID, timestamp: deletion.timestamp,
                               origin: deletion.origin, by: deleter)
    }

    /// Saves the mark, this bridge's epoch and the epochs it answered.
    private func saveState() {
        do {
            try history.household.saveReplication(HouseholdReplicationRecords(
                publishedUpTo: publishedUpTo.secondsSince1970.isFinite ? publishedUpTo : nil, epoch: epoch,
                deletionsToldUpTo: deletionsToldUpTo.secondsSince1970.isFinite ? deletionsToldUpTo : nil,
                peers: Set(answered.keys).union(heardUpTo.keys).sorted().map { member in
                    HouseholdPeerMark(member: member, answeredEpoch: answered[member],
                                      heardUpTo: heardUpTo[member].flatMap { $0.secondsSince1970.isFinite ? $0 : nil })
                }))
        } catch {
            logger.warning("MQTT household: could not save what was published: \(error)")
        }
    }
}
