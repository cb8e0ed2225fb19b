// The live path without a bus: a session with the fake bottle (TestSupport's FakeBottle behind
// FakeLink) hands what it syncs to the ingest, which stores each drink once and tells the sinks
// of each new one; a second session finds nothing new, and the history has every drink once.

import AquavateProtocol
import BottleSession
import History
import Ingest
import Locking
import Logging
import Reports
import Testing
import TestSupport
import Timekeeping

@Suite struct SessionIntoHistoryTests {
    @Test func everyDrinkSyncedIsStoredOnceAndToldOnce() async throws {
        let history = try DrinkHistory(path: nil)
        let bottle = FakeBottle()
        bottle.addDrinks(30)
        let events = Locked<[BridgeEvent]>([])
        let ingest = BottleIngest(history: history, bottleID: "F4:12:FA:00:A3:F4", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                                  emit: { event in events.withLock { $0.append(event) } }, remind: { _ in })
        let clock = FakeClock(), journal = Journal(), memory = SyncMemory()
        for _ in 1...2 {
            let link = FakeLink(bottle: bottle, clock: clock, journal: journal)
            _ = await BottleSession(link: link, observer: ingest, clock: clock, memory: memory).run()
        }
        #expect(bottle.unsyncedCount == 0)
        let stored = try history.drinks.storedDrinks()
        #expect(stored.count == 30)
        #expect(Set(stored.map(\.drink.recordID)) == Set(bottle.records.map(\.recordID)))
        let newDrinks = events.withLock { $0 }.filter { if case .drink(let drink) = $0 { return drink.isNew } else { return false } }
        #expect(newDrinks.count == 30)
    }
}
