// A stuck bottle (docs/design.md 3.4): the same structural refusal at 3 connections in a row.
// The bottle marks records synced only at the final ACK, so a chunk refused unacknowledged comes
// back at every connection and every later drink waits behind it; nothing the bridge does on its
// own changes that, so a person must be told, on every surface, in the same words.

import Foundation
import History
import Timekeeping

extension SyncRefusal {
    /// What a person can do, one sentence.
    package static let advice = "Restart the bottle; if it stays stuck, record a connection with `aquavate-bridge run --once --record stuck.aqcap` and report it (syncing once with the Aquavate app moves its drinks on, but to the app, not to this bridge)."

    /// One line for `status` and the journal: which bottle, since when, how many drinks wait.
    package func line(bottle: String, unsynced: Int?, timeZone: TimeZone) -> String {
        "\(bottle) is stuck since \(LocalTimeText.format(since, in: timeZone)): \(connections) connections in a row refused the same chunk (\(reason)); "
            + (unsynced.map { "\($0) drink(s) wait on the bottle. " } ?? "its drinks wait on the bottle. ") + Self.advice
    }
}

extension QuarantinedRecord {
    /// The record as the `quarantined` event of docs/design.md 3.4.
    package var event: BridgeEvent.QuarantinedEvent {
        .init(id: id, bottle: bottle, recordID: record.recordID, time: receivedAt, reason: reason,
              problems: problems, raw: record.encoded(), resolution: resolution?.rawValue)
    }
}
