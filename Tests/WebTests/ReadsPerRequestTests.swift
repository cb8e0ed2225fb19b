// One page render, one `/metrics` scrape and one `/api/v1/status` read the history's bottles, their
// waiting commands and the stored settings a fixed number of times, however many bottles they
// show: what the bottles' views share is read once per request (`BottleViews`), not once per
// bottle resolved. Each bottle's own reminder state is the only read per bottle.

import Foundation
import History
import Locking
import Reports
import Testing
import TestFixtures
import Timekeeping
@testable import Web

@Suite struct ReadsPerRequestTests {
    /// The reads of what every bottle shares (the history's operation names).
    static let shared = ["reading bottles", "reading bottle commands", "reading settings"]

    /// The fixture's history, opened again with every read transaction's operation counted.
    struct Counted {
        let fixture: WebFixture
        let history: DrinkHistory
        let reads = Locked<[String: Int]>([:])

        init() throws {
            fixture = try WebFixture(days: 2)
            let reads = self.reads
            history = try DrinkHistory(path: fixture.history.path, durability: .normal) { operation in
                reads.withLock { $0[operation, default: 0] += 1 }
            }
        }

        var context: WebContext {
            WebContext(history: history, baseConfiguration: fixture.configuration, clock: ManualClock(WebFixture.now))
        }

        /// The shared reads `request` makes.
        func sharedReads(_ request: (WebContext) throws -> Void) rethrows -> [String: Int] {
            reads.withLock { $0 = [:] }
            try request(context)
            return reads.withLock { counts in counts.filter { ReadsPerRequestTests.shared.contains($0.key) } }
        }

        /// A third bottle, adopted, with a pending goal and a drink today.
        func addBottle() throws {
            let id = "AQ-CAT-0003"
            try fixture.history.bottles.save(BottleRecord(id: id, name: "Cat's bottle", serial: id, address: "AA:00:00:00:00:03",
                                                          goalML: 2200, lastSeen: WallInstant(secondsSince1970: 1_795_186_000)))
            _ = try fixture.history.commands.queue(bottle: id, command: "goal", argument: "2400", replacing: true,
                                                 at: WallInstant(secondsSince1970: 1_795_186_000))
        }
    }

    @Test("a page render reads the bottles, their commands and the settings as often for three bottles as for two")
    func pageRender() throws {
        let counted = try Counted()
        defer { counted.fixture.remove() }
        let two = try counted.sharedReads { _ = try DashboardModel.make($0) }
        // The page's model and its version share one read of the waiting commands and of the bottles.
        #expect(two["reading bottle commands"] == 1, "\(two)")
        #expect(two["reading bottles"] == 1, "\(two)")
        try counted.addBottle()
        var model: DashboardModel?
        let three = try counted.sharedReads { model = try DashboardModel.make($0) }
        #expect(three == two)
        // What was read once is still each bottle's own: the new bottle's waiting goal is its alone.
        #expect(model?.panels.first { $0.id == "AQ-CAT-0003" }?.view.pendingGoalML == 2400)
        #expect(model?.panels.first { $0.id == WebFixture.ana }?.view.pendingGoalML == nil)
    }

    @Test("a /metrics scrape and the per-bottle status objects read them as often for three bottles as for two")
    func scrapeAndStatus() throws {
        let counted = try Counted()
        defer { counted.fixture.remove() }
        let scrape = { (context: WebContext) throws in _ = try MetricsPage.render(context) }
        let status = { (context: WebContext) throws in _ = try JSONAPI.bottles(context) }
        let twoScrape = try counted.sharedReads(scrape), twoStatus = try counted.sharedReads(status)
        try counted.addBottle()
        #expect(try counted.sharedReads(scrape) == twoScrape)
        #expect(try counted.sharedReads(status) == twoStatus)
        #expect(twoStatus["reading bottle commands"] == 1 && twoStatus["reading bottles"] == 1, "\(twoStatus)")
        let text = String(decoding: try MetricsPage.render(counted.context), as: UTF8.self)
        #expect(text.contains(#"aquavate_pending_commands{bottle="AQ-CAT-0003"} 1"#), "\(text)")
    }
}
