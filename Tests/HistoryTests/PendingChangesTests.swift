// What a queued command asks, read back from the queue by the one parser (`BottleAction`), and what
// a bottle's commands not yet applied will change: the newest of each kind, only pending or being
// sent, a stored argument nothing could have queued read as nothing.

import AquavateProtocol
@testable import History
import Testing
import Timekeeping

@Suite struct PendingChangesTests {
    let bottle = "serial-123"
    let time = WallInstant(secondsSince1970: 1_763_712_000)

    func queue(_ action: BottleAction, in history: DrinkHistory, replacing: Bool = false) throws -> StoredCommand {
        try history.commands.queue(bottle: bottle, command: action.kind, argument: action.argument, replacing: replacing, at: time)
    }

    @Test("every action comes back from the queue as it was queued")
    func actionsRoundTrip() throws {
        let history = try memoryHistory()
        let actions: [BottleAction] = [.setGoal(2400), .deleteDrink(recordID: 17, timestamp: 1_763_712_000), .tare, .shakeToEmpty(true),
                                       .shakeToEmpty(false)]
        for action in actions { #expect(try queue(action, in: history).action == action) }
    }

    @Test("a stored argument BottleControl could not have written is read as no action")
    func unreadableArgument() throws {
        let history = try memoryHistory()
        for (kind, argument) in [("shake-to-empty", "yes"), ("goal", "lots"), ("goal", "99999"), ("delete", "17"), ("rename", "x")] {
            let command = try history.commands.queue(bottle: bottle, command: kind, argument: argument, replacing: false, at: time)
            #expect(command.action == nil, "\(kind) \(argument)")
        }
        // Nothing is said about the bottle's switch or goal from them (a hand parse read "yes" as off).
        #expect(PendingChanges(try history.commands.all(bottle: bottle)) == PendingChanges([]))
    }

    @Test("of each kind the newest pending or sending command counts; applied and failed ones do not")
    func newestPendingCounts() throws {
        let history = try memoryHistory()
        #expect(PendingChanges([]).goalML == nil && PendingChanges([]).shakeToEmpty == nil)
        _ = try queue(.setGoal(2200), in: history)
        _ = try queue(.shakeToEmpty(true), in: history)
        let newerGoal = try queue(.setGoal(2600), in: history)
        _ = try queue(.tare, in: history)
        var changes = PendingChanges(try history.commands.all(bottle: bottle, statuses: [.pending, .sending]))
        #expect(changes.goalML == 2600 && changes.shakeToEmpty == true)

        #expect(try history.commands.claim(id: newerGoal.id, attempted: false, at: time), "a goal being sent still waits for the bottle")
        changes = PendingChanges(try history.commands.all(bottle: bottle))
        #expect(changes.goalML == 2600)

        _ = try history.commands.update(id: newerGoal.id, status: .applied, message: nil, at: time)
        let off = try queue(.shakeToEmpty(false), in: history)
        changes = PendingChanges(try history.commands.all(bottle: bottle))
        #expect(changes.goalML == 2200, "the applied goal waits no more: the older pending one does")
        #expect(changes.shakeToEmpty == false)

        _ = try history.commands.update(id: off.id, status: .failed, message: "refused", at: time)
        #expect(PendingChanges(try history.commands.all(bottle: bottle)).shakeToEmpty == true)
    }
}
