// A broker restarted without its sessions (docs/design.md 6): every bridge comes back without a
// session and says hello, in whatever order. A hello said while another bridge was still away
// used to be lost for it, and with it that bridge's drinks for the one who said it; the hello is
// now retained with an epoch, answered once per epoch by every bridge that hears it, also by one
// that connects later. Deterministic: the order is made by the test, not by timing.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
@testable import Household
import Logging
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

@Suite("Household hello")
struct HouseholdHelloTests {
    static let kitchenBottle = "F4:12:FA:00:A3:F2"
    static let officeBottle = "F4:12:FA:00:B0:02"

    func replication(_ history: DrinkHistory, port: Int, id: String) throws -> HouseholdReplication {
        try HouseholdReplication(history: history, url: "mqtt://127.0.0.1:\(port)", bridgeID: id, key: HouseholdTestKey.key, clock: SystemClock(),
                                 logger: Logger(label: id) { _ in SwiftLogNoOpLogHandler() }, reconnectDelay: 0.1...0.5)
    }

    /// `count` drinks of `bottle`, stored `age` seconds ago and 1000 s apart: older than the
    /// 5 minutes a restarted bridge republishes anyway (`restartMargin`), but the last.
    func history(bottle: String, count: Int, now: WallInstant) throws -> DrinkHistory {
        let history = try DrinkHistory(path: nil)
        for index in 0..<count {
            let record = DrinkRecord(recordID: UInt32(index + 1), timestamp: UInt32(now.secondsSince1970) - UInt32((count - index) * 600),
                                     amountML: 100, bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)
            _ = try history.drinks.store([record], bottle: bottle, at: now - .seconds((count - index) * 1000 + 9000))
        }
        return history
    }

    func count(_ history: DrinkHistory, _ bottle: String) -> Int {
        (try? history.drinks.storedDrinks(bottle: bottle).count) ?? -1
    }

    func broker(_ bus: PrivateBus, _ folder: TemporaryFolder, port: Int, name: String) throws -> ChildProcess {
        try startMosquitto(on: bus, in: folder, port: port, logName: name)
    }

    @Test("the kitchen says hello while the office is away; the office comes back later: each still gets the other's drinks, and a hello is answered once")
    func helloHeardByALaterBridge() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let port = try freeTCPPort()
            let now = WallInstant(Date())
            let officeHistory = try history(bottle: Self.officeBottle, count: 3, now: now)
            let kitchenHistory = try history(bottle: Self.kitchenBottle, count: 2, now: now)

            // The office publishes its drinks to a first broker (its mark is saved), then goes.
            var broker = try broker(bus, folder, port: port, name: "mosquitto")
            let office1 = try replication(officeHistory, port: port, id: "office")
            let office1Run = Task { try await office1.run() }
            try await waitUntil(.seconds(20), "the office to publish its 3 drinks") { await office1.publishedDrinks == 3 }
            office1Run.cancel()
            _ = await office1Run.result
            // The broker restarts without its sessions.
            broker.killNow()
            _ = await broker.waitForExit(timeout: .seconds(10))
            broker = try self.broker(bus, folder, port: port, name: "mosquitto2")
            defer { broker.killNow() }

            // The kitchen comes first: its hello and its drinks go to nobody.
            let kitchen = try replication(kitchenHistory, port: port, id: "kitchen")
            let kitchenRun = Task { try await kitchen.run() }
            defer { kitchenRun.cancel() }
            try await waitUntil(.seconds(20), "the kitchen to say hello and publish its 2 drinks") {
                let published = await kitchen.publishedDrinks
                return kitchen.isConnected && published == 2
            }
            // Then the office, with its history and its saved mark (only its last drink is recent enough to go again).
            let office = try replication(officeHistory, port: port, id: "office")
            let officeRun = Task { try await office.run() }
            defer { officeRun.cancel() }
            do {
                try await waitUntil(.seconds(30), "each history to hold the other's drinks") {
                    count(kitchenHistory, Self.officeBottle) == 3 && count(officeHistory, Self.kitchenBottle) == 2
                }
            } catch {
                Issue.record("kitchen holds \(count(kitchenHistory, Self.officeBottle)) office drinks, office \(count(officeHistory, Self.kitchenBottle)) kitchen drinks")
                throw error
            }
            let published = await office.publishedDrinks
            #expect(published >= 3, "the office answered the kitchen's retained hello with all its drinks: \(published)")

            // The office's link breaks and comes back with its session: the kitchen's retained
            // hello comes again at the subscription, and is not answered twice.
            office.dropLinkUncleanly()
            try await waitUntil(.seconds(20), "the office to reconnect") { office.isConnected }
            // A drink the kitchen syncs after that: it reaches the office after the retained hello did.
            let later = DrinkRecord(recordID: 9, timestamp: UInt32(now.secondsSince1970) - 60, amountML: 150, bottleLevelML: 250, typeRaw: 0, flagsRaw: 0)
            _ = try kitchenHistory.drinks.store([later], bottle: Self.kitchenBottle, at: WallInstant(Date()))
            kitchen.kick()
            try await waitUntil(.seconds(20), "the kitchen's new drink to reach the office") {
                count(officeHistory, Self.kitchenBottle) == 3
            }
            #expect(await office.publishedDrinks == published, "one epoch, one answer")
            #expect(try officeHistory.drinks.storedDrinks().count == 6 && kitchenHistory.drinks.storedDrinks().count == 6)
        }
    }

    @Test("a hello says what its bridge has: a member answers with only the drinks it lacks, not its whole history")
    func helloAnsweredWithWhatIsLacking() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let port = try freeTCPPort()
            let now = WallInstant(Date())
            let officeHistory = try history(bottle: Self.officeBottle, count: 5, now: now)
            let kitchenHistory = try DrinkHistory(path: nil)

            // The kitchen hears the office's 5 drinks; both go.
            var broker = try broker(bus, folder, port: port, name: "mosquitto")
            let office1 = try replication(officeHistory, port: port, id: "office")
            let kitchen1 = try replication(kitchenHistory, port: port, id: "kitchen")
            let runs = [office1, kitchen1].map { bridge in Task { try await bridge.run() } }
            try await waitUntil(.seconds(30), "the kitchen to hold the office's 5 drinks") { count(kitchenHistory, Self.officeBottle) == 5 }
            for run in runs { run.cancel(); _ = await run.result }
            // The broker restarts without its sessions; meanwhile the office syncs one drink more.
            broker.killNow()
            _ = await broker.waitForExit(timeout: .seconds(10))
            broker = try self.broker(bus, folder, port: port, name: "mosquitto2")
            defer { broker.killNow() }
            let new = DrinkRecord(recordID: 6, timestamp: UInt32(now.secondsSince1970) - 60, amountML: 150, bottleLevelML: 250, typeRaw: 0, flagsRaw: 0)
            _ = try officeHistory.drinks.store([new], bottle: Self.officeBottle, at: now)

            // The office comes back first: its new drink goes to nobody (the kitchen has no session).
            let office = try replication(officeHistory, port: port, id: "office")
            let officeRun = Task { try await office.run() }
            defer { officeRun.cancel() }
            // At the connection: its mark's last drink again (within `restartMargin`) and the new one.
            try await waitUntil(.seconds(20), "the office to publish its new drink") { await office.publishedDrinks >= 2 }
            let atConnection = await office.publishedDrinks
            #expect(atConnection == 2, "the mark's last drink and the new one at the connection (its mark was saved): \(atConnection)")
            // The kitchen's hello names the latest office drink it has: the office sends the new one only.
            let kitchen = try replication(kitchenHistory, port: port, id: "kitchen")
            let kitchenRun = Task { try await kitchen.run() }
            defer { kitchenRun.cancel() }
            try await waitUntil(.seconds(30), "the kitchen to hold the office's 6 drinks") { count(kitchenHistory, Self.officeBottle) == 6 }
            let published = await office.publishedDrinks
            // The same two again for the hello (changed after what the kitchen has, less the margin), not all 6.
            #expect(published == 4, "2 at the connection and 2 for the hello, not all 6 again: \(published)")
        }
    }
}
