// The commands the broker's command topic brought that the daemon refused, counted by reason
// (`not_permitted`, `setting`, `rate_limit`, …), as the daemon saves them: kept here so that the
// other processes (`serve`'s `/metrics`, `doctor`) read what the daemon counted. The reasons are
// the sinks' (this module does not import them); a count is cumulative over the history's life.

import Foundation
import Timekeeping

extension DrinkHistory {
    /// The engine_state row the counts live in.
    static let refusedCommandsState = "mqtt-refused-commands"

    private struct RefusedCommands: Codable {
        var refused: [String: Int]
    }

    /// The refused commands so far, by reason; empty when none was ever saved or the row is not
    /// such a document.
    public func refusedCommands() -> [String: Int] {
        guard let json = (try? engineState(named: Self.refusedCommandsState)) ?? nil,
              let saved = try? JSONDecoder().decode(RefusedCommands.self, from: Data(json.utf8)) else { return [:] }
        return saved.refused.filter { $0.value >= 0 }
    }

    /// Saves the counts by reason (the whole tally, not an increment).
    public func saveRefusedCommands(_ counts: [String: Int], at time: WallInstant) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(RefusedCommands(refused: counts)), as: UTF8.self)
        try saveEngineState(named: Self.refusedCommandsState, json: json, at: time, durability: .normal)
    }
}
