// The person's commands, applied after the sync the way docs/protocol.md says the bottle takes each
// (docs/design.md 3.5). The bottle never answers a command (B10: "fire and forget"), so each is
// checked by what the bottle shows afterwards where it shows anything:
//
// * goal: Bottle Config read-modify-write (3.2, 6.7): scale and tare echoed, capacity 830; an
//   uncalibrated bottle reads scale 1.0, which the bottle would reject, so a harmless in-range
//   scale is written instead (3.2); checked by reading the value back.
// * delete: DELETE_DRINK_RECORD; the bottle answers every one, found or not, with a Current State
//   notification (6.3, B6), the only confirmation there is; none within 5 s is tried again at
//   the next connection, three times at most.
// A command cut short by the link is tried again at every connection until it is applied,
// unless it must not be applied twice (tare).
// * tare: TARE_NOW, acted on only by a calibrated bottle (6.2); not idempotent, so it is marked
//   `sending` before the write and never written twice.
// * shake-to-empty: Device Settings, read-modify-write of bit 0, checked by reading it back (3.7).

import Timekeeping
import AquavateProtocol

extension BottleSession {
    /// How long the bottle has to confirm a delete with a Current State (docs/protocol.md 6.3).
    static let deleteConfirmation: Duration = .seconds(5)

    /// A characteristic this connection does not show: tried again at the next connection (a few
    /// times, then failed), never failed at once. BlueZ drops a device's characteristics from the
    /// bus when bluetoothd leaves it, and shows them again only once services are resolved
    /// (docs/bluez.md F7): a chaos seed failed a goal for good because bluetoothd restarted between
    /// the sync and the command.
    static func notShown(_ characteristic: String) -> CommandVerdict {
        .unconfirmed("the bottle showed no \(characteristic) characteristic on this connection")
    }

    func applyCommands() async throws {
        guard let commands else { return }
        let pending = commands.pendingCommands(bottle: bottleID, at: clock.now)
        for command in pending {
            guard commands.claim(command, at: clock.now) else { continue }
            do {
                let verdict = try await apply(command.action)
                commands.finished(command, verdict, at: clock.now)
            } catch let error as ProtocolError {
                commands.finished(command, .failed("the bottle's answer made no sense: \(error)"), at: clock.now)
            } catch let failure as SessionFailure {
                let verdict: CommandVerdict = command.action.isIdempotent
                    ? .interrupted("\(failure); tried again at the next connection")
                    : .failed("\(failure) while it was being sent; not repeated, because \(command.action.kind) applied twice is not the same as once: check the bottle")
                commands.finished(command, verdict, at: clock.now)
                if failure.linkLost { throw failure }
            }
        }
    }

    private func apply(_ action: BottleAction) async throws -> CommandVerdict {
        switch action {
        case .setGoal(let goal): return try await setGoal(goal)
        case .deleteDrink(let recordID, _): return try await deleteDrink(recordID)
        case .tare: return try await tare()
        case .shakeToEmpty(let on): return try await setShakeToEmpty(on)
        }
    }

    private func setGoal(_ goal: Int) async throws -> CommandVerdict {
        guard link.offers(.bottleConfig) else { return Self.notShown("Bottle Config") }
        let current = try BottleConfig(decoding: try await read(.bottleConfig))
        try await write(.bottleConfig, current.goalChangeWrite(goalML: goal).encoded())
        let after = try BottleConfig(decoding: try await read(.bottleConfig))
        guard Int(after.dailyGoalML) == goal else {
            return .failed("the bottle kept its goal of \(after.dailyGoalML) ml")
        }
        observer.heard(after, at: clock.now)
        return .applied("the bottle's goal is \(goal) ml")
    }

    private func deleteDrink(_ recordID: UInt32) async throws -> CommandVerdict {
        // Only a Current State sent after the write confirms it: one already waiting (a forced
        // notification of the sync) would "confirm" a delete the bottle never received (B6).
        try await takeWaitingEvents()
        try await write(.command, Command.deleteDrinkRecord(recordID).encoded())
        let deadline = clock.now + Self.deleteConfirmation
        // Progress: each pass takes one event or ends at the deadline; a lost link throws.
        while let event = try await nextEvent(until: deadline) {
            if case .value(.currentState, _) = event {
                return .applied("the bottle confirmed the delete of #\(recordID)")
            }
        }
        return .unconfirmed("the bottle did not confirm the delete of #\(recordID) within \(Self.deleteConfirmation.components.seconds) s")
    }

    /// Handles the events already waiting (at most 32: a bottle flooding Current State cannot
    /// keep this going), so that what comes next was sent after what follows.
    private func takeWaitingEvents() async throws {
        for _ in 0..<32 {
            guard try await nextEvent(until: clock.now + .milliseconds(1)) != nil else { return }
        }
    }

    private func tare() async throws -> CommandVerdict {
        guard calibrated == true else {
            return .failed("the bottle is not calibrated, and an uncalibrated bottle ignores TARE: run 'aquavate-bridge bottle calibrate' first")
        }
        try await write(.command, Command.tareNow.encoded())
        // The bottle answers nothing; a read shows the link still stood when the write was
        // answered (BlueZ may answer a pending write OK after the link went, docs/bluez.md).
        _ = try await read(.currentState)
        return .applied("tared: what is in the bottle now counts as empty")
    }

    private func setShakeToEmpty(_ on: Bool) async throws -> CommandVerdict {
        guard link.offers(.deviceSettings) else { return Self.notShown("Device Settings") }
        // Only bit 0 is persisted; the rest is an echo (3.7), so the phone app's plain write is right.
        try await write(.deviceSettings, DeviceSettings(shakeToEmpty: on).encoded())
        let after = try DeviceSettings(decoding: try await read(.deviceSettings))
        observer.heard(after, at: clock.now)
        guard after.shakeToEmptyEnabled == on else {
            return .failed("the bottle kept shake-to-empty \(after.shakeToEmptyEnabled ? "on" : "off")")
        }
        return .applied("shake-to-empty is \(on ? "on" : "off")")
    }
}
