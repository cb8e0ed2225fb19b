// The ingest as the session's command queue (docs/design.md 3.5): a command cut short by the link
// stays pending however often it happens (it is idempotent and the bottle will come back), one
// the bottle never confirmed fails after three connections, a tare left `sending` by a bridge
// that stopped is reported failed and never handed out again.

import AquavateProtocol
import BottleSession
import History
import Ingest
import Logging
import Testing
import Timekeeping

@Suite struct CommandQueueTests {
    let history: DrinkHistory
    let ingest: BottleIngest

    init() throws {
        history = try DrinkHistory(path: nil)
        try history.bottles.update(id: "F4:12:FA:00:A3:F2") { $0.address = "F4:12:FA:00:A3:F4" }
        ingest = BottleIngest(history: history, bottleID: "F4:12:FA:00:A3:F2", logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                              emit: { _ in }, remind: { _ in })
    }

    func queued(_ action: BottleAction) throws -> QueuedCommand {
        let stored = try history.commands.queue(bottle: ingest.bottleID, command: action.kind, argument: action.argument,
                                              replacing: action.replacesPendingOfSameKind, at: WallInstant(secondsSince1970: 100))
        return QueuedCommand(id: stored.id, action: action)
    }

    @Test func aDroppedLinkNeverUsesUpAttempts() throws {
        let goal = try queued(.setGoal(3000))
        for time in 1...6 { ingest.finished(goal, .interrupted("the link was lost"), at: .init(secondsSince1970: Double(200 + time))) }
        #expect(try history.commands.all().map(\.status) == [.pending])
        #expect(ingest.pendingCommands(bottle: ingest.bottleID, at: WallInstant(secondsSince1970: 300)) == [goal])
    }

    @Test func anUnconfirmedDeleteFailsAfterThreeConnections() throws {
        let delete = try queued(.deleteDrink(recordID: 1, timestamp: 1_763_712_000))
        for time in 1...2 { ingest.finished(delete, .unconfirmed("no Current State"), at: .init(secondsSince1970: Double(200 + time))) }
        #expect(try history.commands.all().map(\.status) == [.pending])
        ingest.finished(delete, .unconfirmed("no Current State"), at: WallInstant(secondsSince1970: 210))
        let command = try #require(try history.commands.all().first)
        #expect(command.status == .failed && command.message?.contains("3 attempts") == true)
    }

    @Test func aTareLeftSendingIsFailedNotRepeated() throws {
        let tare = try queued(.tare)
        #expect(ingest.claim(tare, at: WallInstant(secondsSince1970: 200)))
        // The bridge stopped here; at the next connection:
        #expect(ingest.pendingCommands(bottle: ingest.bottleID, at: WallInstant(secondsSince1970: 300)).isEmpty)
        let command = try #require(try history.commands.all().first)
        #expect(command.status == .failed && command.message?.contains("not repeated") == true)
    }
}
