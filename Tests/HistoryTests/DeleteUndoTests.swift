// Undoing a delete (the page's "Undo") against the session taking the command in hand: exactly one
// of them wins, so the history never counts a drink the bottle was told to delete.

import AquavateProtocol
@testable import History
import Testing
import Timekeeping

@Suite struct DeleteUndoTests {
    let bottle = "serial-123"
    let record = drink(8, at: 1_763_712_000, ml: 140)

    /// A drink deleted by a person, with its delete command queued for the bottle.
    func deletedWithCommand() throws -> (DrinkHistory, StoredCommand) {
        let history = try memoryHistory()
        _ = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 100))
        _ = try history.drinks.markDeleted(bottle: bottle, recordID: record.recordID, timestamp: record.timestamp, at: WallInstant(secondsSince1970: 200))
        let action = BottleAction.deleteDrink(recordID: record.recordID, timestamp: record.timestamp)
        let command = try history.commands.queue(bottle: bottle, command: action.kind, argument: action.argument, replacing: false, at: WallInstant(secondsSince1970: 200))
        return (history, command)
    }

    @Test("an untouched delete is withdrawn and its drink counts again")
    func undoRestores() throws {
        let (history, command) = try deletedWithCommand()
        guard case .restored(let drink)? = try history.commands.undoDelete(commandID: command.id) else {
            Issue.record("not restored"); return
        }
        #expect(!drink.deleted)
        #expect(try history.drinks.storedDrinks().map(\.deleted) == [false])
        #expect(try history.commands.all().isEmpty)
        #expect(try !history.commands.claim(id: command.id, attempted: false, at: WallInstant(secondsSince1970: 300)), "a withdrawn command cannot be claimed")
    }

    @Test("once the session has claimed the delete, undo is too late and the drink stays deleted")
    func claimThenUndo() throws {
        let (history, command) = try deletedWithCommand()
        #expect(try history.commands.claim(id: command.id, attempted: false, at: WallInstant(secondsSince1970: 300)))
        #expect(try history.commands.undoDelete(commandID: command.id) == .tooLate)
        #expect(try history.drinks.storedDrinks().map(\.deleted) == [true])
    }

    @Test("a delete cut short by the link (back to pending, with a message) may have reached the bottle: too late")
    func interruptedThenUndo() throws {
        let (history, command) = try deletedWithCommand()
        #expect(try history.commands.claim(id: command.id, attempted: false, at: WallInstant(secondsSince1970: 300)))
        _ = try history.commands.update(id: command.id, status: .pending, message: "cut short", at: WallInstant(secondsSince1970: 310))
        #expect(try history.commands.undoDelete(commandID: command.id) == .tooLate)
        #expect(try history.drinks.storedDrinks().map(\.deleted) == [true])
    }
}
