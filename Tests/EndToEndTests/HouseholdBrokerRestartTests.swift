// A broker restarted (without its sessions) within the household's hello interval (docs/design.md
// 6): the office had just answered the kitchen's hello, so the kitchen's new hello at the
// reconnection comes too soon to be answered at once (deferred, not dropped). Each bridge
// reconnects and subscribes again; a drink synced while the broker was down, which went to
// nobody, reaches the other bridge when the interval ends; a drink synced after the restart
// crosses at once. The household's clock is a manual one: "within the interval" is made by the
// test, not by timing.

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

@Suite("Household broker restart")
struct HouseholdBrokerRestartTests {
    static let kitchenBottle = "F4:12:FA:00:A3:F2"
    static let officeBottle = "F4:12:FA:00:B0:02"

    func replication(_ history: DrinkHistory, port: Int, id: String, clock: ManualClock,
                     reconnectDelay: ClosedRange<Double>) throws -> HouseholdReplication {
        // The periodic kick every 2 s of the manual clock: it runs only when the test advances it.
        try HouseholdReplication(history: history, url: "mqtt://127.0.0.1:\(port)", bridgeID: id, key: HouseholdTestKey.key, clock: clock,
                                 logger: Logger(label: id) { _ in SwiftLogNoOpLogHandler() }, interval: .seconds(2),
                                 reconnectDelay: reconnectDelay)
    }

    func drink(_ id: UInt32, at time: WallInstant) -> DrinkRecord {
        DrinkRecord(recordID: id, timestamp: UInt32(time.secondsSince1970) - 60, amountML: 100 + Int16(id), bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)
    }

    func count(_ history: DrinkHistory, _ bottle: String) -> Int {
        (try? history.drinks.storedDrinks(bottle: bottle).count) ?? -1
    }

    @Test("the broker restarts within the hello interval: both bridges reconnect and subscribe again, and the histories converge")
    func brokerRestartWithinTheHelloInterval() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let port = try freeTCPPort()
            let clock = ManualClock(secondsSince1970: 1_764_000_000)
            let kitchenHistory = try DrinkHistory(path: nil)
            let officeHistory = try DrinkHistory(path: nil)
            _ = try kitchenHistory.drinks.store([drink(1, at: clock.now)], bottle: Self.kitchenBottle, at: clock.now)
            _ = try officeHistory.drinks.store([drink(1, at: clock.now)], bottle: Self.officeBottle, at: clock.now)

            var broker = try startMosquitto(on: bus, in: folder, port: port, logName: "mosquitto")
            // The office first, then the kitchen: the office hears the kitchen's hello as it is
            // said, and answers it (its last answer to the kitchen is now).
            let office = try replication(officeHistory, port: port, id: "office", clock: clock, reconnectDelay: 0.1...0.3)
            let officeRun = Task { try await office.run() }
            defer { officeRun.cancel() }
            try await waitUntil(.seconds(20), "the office to connect") { office.isConnected }
            // The kitchen comes back from the restart later than the office, as a rule: the
            // office's drink of the outage then goes to nobody, and only the hello brings it.
            let kitchen = try replication(kitchenHistory, port: port, id: "kitchen", clock: clock, reconnectDelay: 1...1.5)
            let kitchenRun = Task { try await kitchen.run() }
            defer { kitchenRun.cancel() }
            try await waitUntil(.seconds(30), "each history to hold the other's first drink") {
                count(kitchenHistory, Self.officeBottle) == 1 && count(officeHistory, Self.kitchenBottle) == 1
            }

            // The broker goes (its sessions and retained hellos with it); the office syncs a drink
            // meanwhile, which reaches nobody. The manual clock stands still: what follows is
            // within the hello interval of the answers just given.
            broker.killNow()
            _ = await broker.waitForExit(timeout: .seconds(10))
            try await waitUntil(.seconds(10), "both bridges to see the broker gone") { !kitchen.isConnected && !office.isConnected }
            // Half a second on (a drink is published when it changed after the last one published),
            // well within the hello interval, before the periodic kick.
            clock.advance(by: .milliseconds(500))
            _ = try officeHistory.drinks.store([drink(2, at: clock.now)], bottle: Self.officeBottle, at: clock.now)
            office.kick()
            broker = try startMosquitto(on: bus, in: folder, port: port, logName: "mosquitto2")
            defer { broker.killNow() }
            try await waitUntil(.seconds(20), "both bridges to reconnect") { kitchen.isConnected && office.isConnected }

            // Subscribed again: a drink the kitchen syncs now crosses, the interval not over.
            clock.advance(by: .milliseconds(500))
            _ = try kitchenHistory.drinks.store([drink(2, at: clock.now)], bottle: Self.kitchenBottle, at: clock.now)
            kitchen.kick()
            try await waitUntil(.seconds(20), "the kitchen's new drink to reach the office (it subscribed again)") {
                count(officeHistory, Self.kitchenBottle) == 2
            }

            // The hello interval ends (the manual clock steps through it, a kick at a time): the
            // hellos said at the reconnection are answered, and the office's drink of the outage
            // reaches the kitchen.
            do {
                try await waitUntil(.seconds(30), "the office's drink of the outage to reach the kitchen") {
                    clock.advance(by: .seconds(1))
                    return count(kitchenHistory, Self.officeBottle) == 2
                }
            } catch {
                Issue.record("kitchen holds \(count(kitchenHistory, Self.officeBottle)) office drinks; drops: kitchen \(kitchen.drops), office \(office.drops)")
                throw error
            }
            #expect(try kitchenHistory.drinks.storedDrinks().count == 4 && officeHistory.drinks.storedDrinks().count == 4)
            #expect(office.deferredHellos == 1, "the kitchen's hello after the restart came within the interval, and waited for its end")
            #expect(office.drops.isEmpty && kitchen.drops.isEmpty,
                    "a member's early hello is no dropped message (/metrics and doctor would blame a stranger): kitchen \(kitchen.drops), office \(office.drops)")
            #expect(kitchen.drops[.malformed] == nil && office.drops[.malformed] == nil, "every message read")
        }
    }
}
