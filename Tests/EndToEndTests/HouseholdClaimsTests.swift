// One bridge syncs a bottle at a time, and one reminds its person (docs/design.md 6): the claim
// rule on its own, then two bridges' claims through a real mosquitto — the louder wins, a hold
// keeps the other out until released, a bridge that dies (its last will) loses its claim, and
// the bridge that synced last is the one that reminds.

import BusTestSupport
@testable import Diagnostics
import Foundation
import History
@testable import Household
import Locking
import Logging
import ProcessSupport
@testable import Sinks
import TestFixtures
import Testing
import Timekeeping

@Suite("Household claims")
struct HouseholdClaimsTests {
    typealias Entry = HouseholdClaims.Entry
    static let address = "F4:12:FA:00:A3:F4"

    static let heard = WallInstant(secondsSince1970: 100)
    func want(_ rssi: Int, at time: WallInstant = heard) -> Entry { Entry(claim: .init(phase: .want, rssi: rssi), heardAt: time) }
    func hold(_ rssi: Int, at time: WallInstant = heard) -> Entry { Entry(claim: .init(phase: .hold, rssi: rssi), heardAt: time) }

    @Test("the rule: a live hold wins, then the strongest RSSI (the smaller id on a tie); the dead and the stale do not count")
    func rule() {
        let mine = HouseholdLink.Claim(phase: .want, rssi: -60)
        func decide(_ claims: [String: Entry], alive: [String: Bool] = [:], now: WallInstant = Self.heard + .seconds(1)) -> HouseholdClaims.Outcome {
            HouseholdClaims.decide(claims: claims, alive: alive, me: "kitchen", mine: mine, now: now)
        }
        #expect(decide([:]) == .granted)
        #expect(decide(["office": want(-70)]) == .granted)
        #expect(decide(["office": want(-50)]) == .heldBy("office"))
        #expect(decide(["office": want(-60)]) == .granted, "kitchen < office on a tie")
        #expect(decide(["attic": want(-60)]) == .heldBy("attic"))
        #expect(decide(["office": hold(-90)]) == .heldBy("office"), "a hold is never taken over")
        #expect(decide(["office": hold(-90)], alive: ["office": false]) == .granted, "its last will voids it")
        #expect(decide(["office": hold(-90)], now: Self.heard + HouseholdClaims.expiry + .seconds(1)) == .granted, "it expires")
        #expect(decide(["office": want(-50)], now: Self.heard + HouseholdClaims.wantLifetime + .seconds(1)) == .granted)
        #expect(decide(["kitchen": hold(-60), "office": want(-50)]) == .heldBy("office"), "its own claim is not a competitor")
    }

    func replication(port: Int, id: String, reconnect: ClosedRange<Double> = 0.1...0.5,
                     knows bottles: [BottleRecord] = [], db: String? = nil) throws -> HouseholdReplication {
        let history = try DrinkHistory(path: db)
        for bottle in bottles { try history.bottles.save(bottle) }
        return try HouseholdReplication(history: history, url: "mqtt://127.0.0.1:\(port)", bridgeID: id, key: HouseholdTestKey.key,
                                 clock: SystemClock(), logger: Logger(label: id) { _ in SwiftLogNoOpLogHandler() },
                                 reconnectDelay: reconnect)
    }

    @Test("through mosquitto: the louder bridge wins, holds until it releases, and reminds after syncing; its death frees the bottle")
    func claimsThroughTheBroker() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let port = try freeTCPPort()
            let broker = try startMosquitto(on: bus, in: folder, port: port)
            defer { broker.killNow() }
            // The kitchen reconnects only after a long while once its link breaks: it stands for a dead bridge.
            let kitchen = try replication(port: port, id: "kitchen", reconnect: 60...60)
            let office = try replication(port: port, id: "office")
            let runs = [Task { try await kitchen.run() }, Task { try await office.run() }]
            defer { runs.forEach { $0.cancel() } }
            try await waitUntil(.seconds(30), "both bridges to connect") { kitchen.isConnected && office.isConnected }

            // doctor: both bridges answer, each with its own id and a clock near this machine's.
            let answers = try #require(await HouseholdProbe.survey(url: "mqtt://127.0.0.1:\(port)", key: HouseholdTestKey.key, timeout: .seconds(5)))
            #expect(Set(answers.map(\.bridge)) == ["kitchen", "office"])
            #expect(answers.allSatisfy { abs($0.clockOffset) <= $0.roundTrip / 2 + 0.1 }, "one machine, one clock: \(answers)")
            #expect(HouseholdCheck.judge(answers, ownID: "kitchen").first?.status == .ok)

            async let kitchenClaim = kitchen.claims.acquire(address: Self.address, rssi: -75)
            async let officeClaim = office.claims.acquire(address: Self.address, rssi: -55)
            let (k, o) = await (kitchenClaim, officeClaim)
            #expect(k == .heldBy("office") && o == .granted, "the stronger RSSI wins, the other defers: \(k) \(o)")
            #expect(await kitchen.claims.acquire(address: Self.address, rssi: -40) == .heldBy("office"), "a hold is not taken over")

            office.claims.release(address: Self.address, synced: true)
            try await waitUntil(.seconds(30), "the kitchen to hear the office synced last") {
                kitchen.claims.syncer(bottle: Self.address) == "office"
            }
            #expect(!kitchen.claims.remindsFor(address: Self.address))
            #expect(office.claims.remindsFor(address: Self.address), "the bridge that synced last reminds")
            #expect(await kitchen.claims.acquire(address: Self.address, rssi: -75) == .granted, "released: the other may sync")

            // The kitchen dies holding the claim: its last will frees the bottle for the office.
            let died = ContinuousClock.now
            kitchen.dropLinkUncleanly()
            var outcome = HouseholdClaims.Outcome.heldBy("kitchen")
            // Progress: each pass is one claim attempt (0.6 s settle), until the will is heard.
            while outcome != .granted, ContinuousClock.now - died < .seconds(20) {
                outcome = await office.claims.acquire(address: Self.address, rssi: -55)
            }
            #expect(outcome == .granted, "a dead holder's claim goes with its last will")
        }
    }

    /// A mosquitto on a random port, its configuration in `folder` (which must outlive its start).
    func startBroker(_ bus: PrivateBus, in folder: TemporaryFolder) throws -> (ChildProcess, Int) {
        let port = try freeTCPPort()
        return (try startMosquitto(on: bus, in: folder, port: port), port)
    }

    static let serial = "F4:12:FA:00:A3:F2"

    @Test("claims are keyed by the serial: a bridge that knows the bottle only by its address and one that knows its serial never both hold it")
    func claimsKeyedBySerial() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let (broker, port) = try startBroker(bus, in: folder)
            defer { broker.killNow() }
            // The kitchen synced the bottle before (its history knows the serial); the office never did.
            let kitchen = try replication(port: port, id: "kitchen",
                                          knows: [BottleRecord(id: Self.serial, serial: Self.serial, address: Self.address)])
            let office = try replication(port: port, id: "office")
            // The office first: it claims under the address it hears (nobody told it the serial yet).
            let officeRun = Task { try await office.run() }
            defer { officeRun.cancel() }
            try await waitUntil(.seconds(30), "the office to connect") { office.isConnected }
            #expect(await office.claims.acquire(address: Self.address, rssi: -80) == .granted)
            // The kitchen, which claims under the serial, still sees that hold.
            let kitchenRun = Task { try await kitchen.run() }
            defer { kitchenRun.cancel() }
            try await waitUntil(.seconds(30), "the kitchen to connect") { kitchen.isConnected }
            #expect(await kitchen.claims.acquire(address: Self.address, rssi: -40) == .heldBy("office"),
                    "a hold under the address counts for the bridge that knows the serial")
            office.claims.release(address: Self.address, synced: true)
            // (under the serial if the office heard the kitchen's mapping by then, else under the address: both count)
            try await waitUntil(.seconds(30), "the kitchen to hear the office synced last") {
                !kitchen.claims.remindsFor(bottle: Self.serial, address: Self.address)
            }
            #expect(office.claims.remindsFor(bottle: Self.serial, address: Self.address))

            // Now the kitchen holds it under the serial: the office (which never read the serial)
            // and a bridge that joins only now (knowing nothing) both leave it alone.
            #expect(await kitchen.claims.acquire(address: Self.address, rssi: -75) == .granted)
            #expect(await office.claims.acquire(address: Self.address, rssi: -40) == .heldBy("kitchen"))
            let attic = try replication(port: port, id: "attic")
            let atticRun = Task { try await attic.run() }
            defer { atticRun.cancel() }
            try await waitUntil(.seconds(30), "the attic to connect") { attic.isConnected }
            #expect(await attic.claims.acquire(address: Self.address, rssi: -30) == .heldBy("kitchen"),
                    "the retained mapping and hold reach a bridge that knows only the address")
            kitchen.claims.release(address: Self.address, synced: true)
            // The release goes before the syncer on the kitchen's connection: heard the one, heard the other.
            try await waitUntil(.seconds(30), "the attic to hear the kitchen released") {
                attic.claims.syncer(bottle: Self.serial) == "kitchen"
            }
            #expect(await attic.claims.acquire(address: Self.address, rssi: -30) == .granted)
        }
    }

    @Test("the last syncer dies: exactly one other bridge (the smallest alive id) reminds, delivers what it withheld, and never repeats what was delivered")
    func reminderHandOver() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let (broker, port) = try startBroker(bus, in: folder)
            defer { broker.killNow() }
            // All three run the bottle's reminders; the kitchen syncs it and then dies (no reconnection for a minute).
            let bottle = [BottleRecord(id: Self.serial, serial: Self.serial, address: Self.address)]
            let kitchen = try replication(port: port, id: "kitchen", reconnect: 60...60, knows: bottle)
            let office = try replication(port: port, id: "office", knows: bottle)
            let attic = try replication(port: port, id: "attic", knows: bottle)
            let bridges = [kitchen, office, attic]
            let runs = bridges.map { bridge in Task { try await bridge.run() } }
            defer { runs.forEach { $0.cancel() } }
            try await waitUntil(.seconds(30), "the bridges to connect") { bridges.allSatisfy(\.isConnected) }
            kitchen.claims.release(address: Self.address, synced: true)
            // Heard, not inferred: a bridge that has heard nothing yet would remind on its own.
            try await waitUntil(.seconds(30), "office and attic to hear the kitchen synced last and everyone runs its reminders") {
                [office, attic].allSatisfy {
                    $0.claims.syncer(bottle: Self.serial) == "kitchen" && $0.claims.reminding(bottle: Self.serial) == ["kitchen", "office", "attic"]
                }
            }
            #expect(!office.claims.remindsFor(bottle: Self.serial) && !attic.claims.remindsFor(bottle: Self.serial))

            let sent = Locked<[String]>([])
            func offer(_ bridge: HouseholdReplication, _ id: String) -> Bool {
                bridge.claims.shouldDeliver(bottle: Self.serial, address: Self.address, id: id, kind: "reminder", time: WallInstant(secondsSince1970: 1_764_000_000),
                                            later: { sent.withLock { $0.append("\(bridge.bridgeID):\(id)") } })
            }
            // hydration-1: the kitchen delivers it, the others withhold it.
            #expect(offer(kitchen, "hydration-1"))
            #expect(!offer(office, "hydration-1") && !offer(attic, "hydration-1"))
            try await waitUntil(.seconds(30), "the others to hear the kitchen delivered hydration-1") {
                office.claims.deliveredElsewhere(bottle: Self.serial).contains("hydration-1")
                    && attic.claims.deliveredElsewhere(bottle: Self.serial).contains("hydration-1")
            }
            // hydration-2: the others' engines decide it; the kitchen dies before it does.
            #expect(!offer(office, "hydration-2") && !offer(attic, "hydration-2"))
            kitchen.dropLinkUncleanly()
            try await waitUntil(.seconds(20), "the attic to take over and deliver what it withheld") {
                sent.withLock { $0.contains("attic:hydration-2") }
            }
            // The office heard the attic's delivery after the kitchen's last will (the broker's order): its hand-over decision is made.
            try await waitUntil(.seconds(30), "the office to hear the attic delivered hydration-2") {
                office.claims.deliveredElsewhere(bottle: Self.serial).contains("hydration-2")
            }
            #expect(sent.withLock { $0 } == ["attic:hydration-2"], "once, by one bridge; hydration-1 is not repeated")
            #expect(attic.claims.remindsFor(bottle: Self.serial, address: Self.address))
            #expect(!office.claims.remindsFor(bottle: Self.serial, address: Self.address), "attic < office")
            #expect(offer(attic, "hydration-3") && !offer(office, "hydration-3"))
            #expect(!offer(attic, "hydration-1"), "what another bridge delivered is never delivered again")
            #expect(sent.withLock { $0 } == ["attic:hydration-2"])
        }
    }

    @Test("what another bridge delivered survives a restart: the restarted bridge, now the one that reminds, never repeats it")
    func deliveredSurvivesRestart() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let (broker, port) = try startBroker(bus, in: folder)
            defer { broker.killNow() }
            let bottle = [BottleRecord(id: Self.serial, serial: Self.serial, address: Self.address)]
            let db = folder.path + "/office.sqlite"
            let kitchen = try replication(port: port, id: "kitchen", reconnect: 60...60, knows: bottle)
            let office = try replication(port: port, id: "office", knows: bottle, db: db)
            let kitchenRun = Task { try await kitchen.run() }
            defer { kitchenRun.cancel() }
            let officeRun = Task { try await office.run() }
            try await waitUntil(.seconds(30), "the bridges to connect") { kitchen.isConnected && office.isConnected }
            kitchen.claims.release(address: Self.address, synced: true)
            try await waitUntil(.seconds(30), "the office to hear the kitchen synced last") { !office.claims.remindsFor(bottle: Self.serial) }
            func offer(_ bridge: HouseholdReplication, _ id: String) -> Bool {
                bridge.claims.shouldDeliver(bottle: Self.serial, address: Self.address, id: id, kind: "reminder", time: WallInstant(secondsSince1970: 1_764_000_000),
                                            later: {})
            }
            // Two deliveries: the broker retains only the kitchen's last (hydration-2).
            #expect(offer(kitchen, "hydration-1") && offer(kitchen, "hydration-2"))
            try await waitUntil(.seconds(30), "the office to hear both") {
                office.claims.deliveredElsewhere(bottle: Self.serial).isSuperset(of: ["hydration-1", "hydration-2"])
            }
            officeRun.cancel()
            try? await officeRun.value
            // The kitchen dies while the office is away: the restarted office reminds alone.
            kitchen.dropLinkUncleanly()
            let restarted = try replication(port: port, id: "office", knows: bottle, db: db)
            let restartedRun = Task { try await restarted.run() }
            defer { restartedRun.cancel() }
            // Heard, not inferred from an empty view: the kitchen synced last, and its last will
            // says it is offline, so the office reminds; judged once that hand-over has settled
            // (HouseholdClaims.handOverSettle).
            try await waitUntil(.seconds(30), "the restarted office to remind (the kitchen's last will), the hand-over settled") {
                restarted.isConnected && restarted.claims.syncer(bottle: Self.serial) == "kitchen"
                    && restarted.claims.remindsFor(bottle: Self.serial, address: Self.address)
                    && restarted.claims.settled(bottle: Self.serial, address: Self.address)
            }
            #expect(restarted.claims.deliveredElsewhere(bottle: Self.serial).contains("hydration-1"), "kept in its history")
            #expect(!offer(restarted, "hydration-1"), "what the kitchen delivered before the restart is not repeated")
            #expect(!offer(restarted, "hydration-2"))
            #expect(offer(restarted, "hydration-3"), "a new one is delivered")
            let kept = try DrinkHistory(path: db).household.deliveries(since: WallInstant(secondsSince1970: 0))
            #expect(Set(kept.map(\.id)) == ["hydration-1", "hydration-2"] && kept.allSatisfy { $0.origin == "kitchen" && $0.bottle == Self.serial })
        }
    }

    /// Two bridges on one broker that both know the bottle, nobody having synced it yet, running
    /// until the office hears both run its reminders (the alive bridge with the smallest id among
    /// them, the attic, reminds); `body` gets the office, the broker's port, the attic's history
    /// and the folder.
    func atticAndOfficeRunTheReminders(_ body: (HouseholdReplication, Int, String, TemporaryFolder) async throws -> Void) async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let (broker, port) = try startBroker(bus, in: folder)
            defer { broker.killNow() }
            let bottle = [BottleRecord(id: Self.serial, serial: Self.serial, address: Self.address)]
            let db = folder.path + "/attic.sqlite"
            let attic = try replication(port: port, id: "attic", knows: bottle, db: db)
            let office = try replication(port: port, id: "office", knows: bottle)
            let runs = [attic, office].map { bridge in Task { try await bridge.run() } }
            defer { runs.forEach { $0.cancel() } }
            try await waitUntil(.seconds(30), "the office to hear both bridges run the bottle's reminders") {
                office.claims.reminding(bottle: Self.serial) == ["attic", "office"]
            }
            try await body(office, port, db, folder)
        }
    }

    @Test("bottle forget withdraws this bridge's retained reminds entry: a bridge no longer running the bottle is never chosen to remind")
    func forgetWithdrawsReminds() async throws {
        try await atticAndOfficeRunTheReminders { office, port, db, folder in
            #expect(!office.claims.remindsFor(bottle: Self.serial, address: Self.address), "attic < office")
            let forget = try await runTool(LiveCommandTests.bridge, [
                "bottle", "forget", Self.serial, "--db", db, "--set", "mqtt.url=mqtt://127.0.0.1:\(port)", "--set", "bridge.id=attic", "--set", "household.key=\(HouseholdTestKey.text)",
            ])
            #expect(forget.status == 0 && forget.output.contains("no longer counts attic"), "\(forget)")
            try await waitUntil(.seconds(30), "the office to hear the attic no longer runs them") {
                office.claims.reminding(bottle: Self.serial) == ["office"]
            }
            #expect(office.claims.remindsFor(bottle: Self.serial, address: Self.address), "the attic, alive, is no longer chosen")
            // No broker: the bottle is forgotten anyway, and one line says the entry stayed.
            let other = folder.path + "/other.sqlite"
            try DrinkHistory(path: other).bottles.save(BottleRecord(id: Self.serial, serial: Self.serial, address: Self.address))
            let unreachable = try await runTool(LiveCommandTests.bridge, [
                "bottle", "forget", Self.serial, "--db", other, "--set", "mqtt.url=mqtt://127.0.0.1:1", "--set", "bridge.id=attic", "--set", "household.key=\(HouseholdTestKey.text)",
            ])
            #expect(unreachable.status == 0 && unreachable.error.contains("was not withdrawn"), "\(unreachable)")
            #expect(try DrinkHistory(path: other).bottles.all().isEmpty)
        }
    }

    @Test("a bottle forgotten beside the running bridge (another process): the bridge withdraws its reminds entry itself, within a kick")
    func runningBridgeWithdrawsForgotten() async throws {
        try await atticAndOfficeRunTheReminders { office, port, db, _ in
            // `bottle forget` beside the daemon: the history changes, and nothing is sent from there.
            #expect(try DrinkHistory(path: db).bottles.forget(id: Self.serial, at: SystemClock().now))
            try await waitUntil(.seconds(30), "the office to hear the attic no longer runs them") {
                office.claims.reminding(bottle: Self.serial) == ["office"]
            }
            #expect(office.claims.remindsFor(bottle: Self.serial, address: Self.address))
            #expect(office.drops.values.reduce(0, +) == 0, "the withdrawal is the attic's own, signed and newer: \(office.drops)")
        }
    }

    @Test("a bottle with syncers under its address and its serial: the later sync reminds, whatever order the broker replays them in")
    func syncerOrderIndependent() throws {
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let addressID = HouseholdClaims.topicID(Self.address), serialID = HouseholdClaims.topicID(Self.serial)
        // The office synced the bottle under its address at 100 (before anyone read its serial);
        // the kitchen under its serial at 200. The attic hears both, retained, in either order.
        let messages: [HouseholdLink.Received] = [
            .bottleKey(address: addressID, key: Self.serial),
            .alive(bridge: "kitchen", true), .alive(bridge: "office", true),
            .syncer(bottle: addressID, bridge: "office", time: WallInstant(secondsSince1970: 1_764_000_100)),
            .syncer(bottle: serialID, bridge: "kitchen", time: WallInstant(secondsSince1970: 1_764_000_200)),
        ]
        for order in [messages, messages.reversed(), [messages[0], messages[1], messages[2], messages[4], messages[3]]] {
            for me in ["kitchen", "office", "attic"] {
                // Not started: no connection, so nothing is published; only what is heard counts.
                let link = try HouseholdLink(url: "mqtt://127.0.0.1:1", bridgeID: me, key: HouseholdTestKey.key, boot: 1, logger: quiet, connected: { _ in }, received: { _ in })
                let claims = HouseholdClaims(link: link, clock: SystemClock(), logger: quiet)
                for message in order { claims.heard(message) }
                #expect(claims.remindsFor(bottle: Self.serial, address: Self.address) == (me == "kitchen"), "\(me) after \(order)")
                #expect(claims.syncer(bottle: Self.serial) == "kitchen")
            }
        }
        // The payload: bridge and time; an older bridge's plain id (no time); cleared; nonsense refused.
        #expect(HouseholdLink.syncer(from: Array(#"{"bridge":"kitchen","time":"1764000200.5"}"#.utf8))! == ("kitchen", WallInstant(secondsSince1970: 1_764_000_200.5)))
        #expect(HouseholdLink.syncer(from: Array("office".utf8))! == ("office", nil))
        #expect(HouseholdLink.syncer(from: [])! == ("", nil))
        for bad in [#"{"bridge":"kitchen"}"#, #"{"bridge":"a/b","time":"1"}"#, #"{"bridge":"kitchen","time":"-1"}"#, "a b", "{"] {
            #expect(HouseholdLink.syncer(from: Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
