// What `bottle info` and `bottle activity` show (docs/design.md 3.5), built from the history.

import AquavateProtocol
import Foundation
import History
import Reports
import Timekeeping

package enum BottleInfo {
    /// The `bottle` event of one stored bottle.
    package static func event(_ bottle: BottleRecord, pending: [BridgeEvent.CommandEvent]) -> BridgeEvent.BottleEvent {
        BridgeEvent.BottleEvent(
            address: bottle.address, name: bottle.name, serial: bottle.serial, firmware: bottle.firmware, model: bottle.model,
            goalML: bottle.goalML, battery: bottle.battery ?? bottle.state.map(\.batteryPercent),
            calibrated: bottle.calibrated, shakeToEmpty: bottle.shakeToEmpty, lastSeen: bottle.lastSeen,
            lastSync: bottle.lastSync, unsynced: bottle.state?.unsyncedCount, clockOffset: bottle.clockOffset,
            pending: pending)
    }

    /// The `drink` event of a stored drink (`new` false: it was in the history already).
    package static func drinkEvent(_ drink: StoredDrink) -> BridgeEvent {
        .drink(.init(drink.drink, isNew: false))
    }

    /// Several lines for a person, the times local to `timeZone` (the `timezone` setting).
    package static func text(_ bottle: BridgeEvent.BottleEvent, state: CurrentStateSnapshot?, timeZone: TimeZone) -> String {
        func local(_ instant: WallInstant) -> String { LocalTimeText.format(instant, in: timeZone) }
        func or(_ value: String?) -> String { value ?? "unknown" }
        var lines = ["\(or(bottle.name))"]
        lines.append("  address         \(or(bottle.address))")
        lines.append("  serial          \(or(bottle.serial))")
        lines.append("  firmware        \(or(bottle.firmware))\(bottle.model.map { "  (\($0))" } ?? "")")
        lines.append("  goal            \(bottle.goalML.map { "\($0) ml" } ?? "unknown")")
        lines.append("  battery         \(bottle.battery.map { "\($0) %" } ?? "unknown")")
        if let level = state?.bottleLevelML { lines.append("  bottle level    \(level) ml") }
        let calibration: String
        switch bottle.calibrated {
        case true?: calibration = "calibrated"
        case false?: calibration = "not calibrated (aquavate-bridge bottle calibrate)"
        case nil: calibration = "unknown"
        }
        lines.append("  calibration     \(calibration)")
        lines.append("  shake-to-empty  \(bottle.shakeToEmpty.map { $0 ? "on" : "off" } ?? "unknown")")
        lines.append("  last seen       \(bottle.lastSeen.map(local) ?? "never")")
        lines.append("  last sync       \(bottle.lastSync.map(local) ?? "never")")
        lines.append("  unsynced        \(bottle.unsynced.map(String.init) ?? "unknown")")
        if let offset = bottle.clockOffset {
            lines.append("  bottle clock    " + (BottleClockOffset(storedSeconds: offset).problem ?? "in step with this machine's"))
        }
        if bottle.pending.isEmpty {
            lines.append("  pending         none")
        } else {
            for command in bottle.pending {
                let what = command.argument.map { "\(command.command) \($0)" } ?? command.command
                lines.append("  pending         #\(command.id) \(what)" + (command.message.map { " (\($0))" } ?? ""))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `bottle activity`: one line per wake-up and backpack session, oldest first; the text
    /// lines' times local to `timeZone`, the JSON's UTC (docs/design.md 3.4).
    package static func activityLines(bottles: BottleStore, bottle: String?, json: Bool, timeZone: TimeZone) throws -> [String] {
        var lines: [(UInt32, String)] = []
        for (key, event) in try bottles.motionEvents(bottle: bottle) {
            let time = json ? ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: Double(event.timestamp)))
                : LocalTimeText.format(WallInstant(secondsSince1970: Double(event.timestamp)), in: timeZone)
            if json {
                lines.append((event.timestamp, BridgeEvent.line(MotionJSON(bottle: key, time: time, durationS: Int(event.durationSec),
                                                                           wakeReason: "\(event.wakeReason)", drink: event.drinkTaken))))
            } else {
                lines.append((event.timestamp, "\(time)  awake \(event.durationSec) s (\(event.wakeReason))\(event.drinkTaken ? "  drink" : "")"))
            }
        }
        for (key, session) in try bottles.backpackSessions(bottle: bottle) {
            let time = json ? ISO8601Text.formatWithMilliseconds(WallInstant(secondsSince1970: Double(session.startTimestamp)))
                : LocalTimeText.format(WallInstant(secondsSince1970: Double(session.startTimestamp)), in: timeZone)
            if json {
                lines.append((session.startTimestamp, BridgeEvent.line(BackpackJSON(
                    bottle: key, time: time, durationS: Int(session.durationSec), timerWakes: Int(session.timerWakeCount),
                    exit: "\(session.exitReason)"))))
            } else {
                lines.append((session.startTimestamp, "\(time)  backpack mode \(session.durationSec) s, \(session.timerWakeCount) timer wake(s) (\(session.exitReason))"))
            }
        }
        if lines.isEmpty && !json { return ["no activity stored yet: it is fetched after each sync"] }
        return lines.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// A wake-up of `bottle activity --json` on the wire.
private struct MotionJSON: Encodable {
    let event = "motion"
    var bottle: String
    var time: String
    var durationS: Int
    var wakeReason: String
    var drink: Bool

    enum CodingKeys: String, CodingKey { case event, bottle, time, durationS = "duration_s", wakeReason = "wake_reason", drink }
}

/// A backpack session of `bottle activity --json` on the wire.
private struct BackpackJSON: Encodable {
    let event = "backpack"
    var bottle: String
    var time: String
    var durationS: Int
    var timerWakes: Int
    var exit: String

    enum CodingKeys: String, CodingKey { case event, bottle, time, durationS = "duration_s", timerWakes = "timer_wakes", exit }
}
