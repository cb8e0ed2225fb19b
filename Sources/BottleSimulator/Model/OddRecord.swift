// Records the firmware really produces that cannot be drinks (docs/protocol.md B9, docs/protocol-vectors.md TV11), mixed
// into a bottle's ordinary ones (`--fault odd-record=KIND`, and drawn by the chaos injector), so
// that the bridge is tested against what a bottle in the field sends, not only against tidy rings:
//
// * `1970`: a SET_TIME of a wrong value (no plausibility check, and TIME_VALID set for good) or a
//   DS3231 whose cell died: a real drink stamped days after the epoch.
// * `2000`: an RTC chip that lost power restarts at its own epoch, 2000-01-01.
// * `2106`: a clock set to the u32's last seconds (a phone sending -1).
// * `erased`: an erased flash slot the ring's index still covers; it reads as all FF on the air,
//   the deleted bit among them (TV11: parse it, treat it as deleted).

import AquavateProtocol

package enum OddRecord: String, Sendable, Hashable, CaseIterable, Codable {
    case stamped1970 = "1970"
    case stamped2000 = "2000"
    case stamped2106 = "2106"
    case erased

    /// The stamp a time-odd record carries.
    var timestamp: UInt32 {
        switch self {
        case .stamped1970: 259_200                 // 1970-01-04T00:00:00Z
        case .stamped2000: 946_717_200             // 2000-01-01T09:00:00Z
        case .stamped2106: 4_294_967_000           // 2106-02-07T06:23:20Z
        case .erased: .max
        }
    }

    /// The ring's slot for an erased record: every field FF but the flags, which the ring keeps
    /// clear so that the bottle counts and sends the slot (the firmware's index covers it); on the
    /// air its flags are FF too (`DrinkRecord.onAir`).
    static let erasedSlot = DrinkRecord(recordID: .max, timestamp: .max, amountML: -1, bottleLevelML: -1,
                                        typeRaw: 0xFF, flagsRaw: 0)

    /// `records` (oldest first) with one odd record of each of `kinds` among them, spread evenly;
    /// the ids of the ordinary and time-odd records renumbered in order, as the bottle gave them.
    package static func mix(_ kinds: [OddRecord], into records: [DrinkRecord]) -> [DrinkRecord] {
        guard !kinds.isEmpty else { return records }
        var mixed = records
        for (index, kind) in kinds.enumerated().reversed() {
            // Never first: a bottle's history starts with a drink (tests take the first as one).
            let position = min(records.count, max(1, records.count * (index + 1) / (kinds.count + 1)))
            let level = position > 0 ? records[position - 1].bottleLevelML : 500
            let odd = kind == .erased ? erasedSlot
                : DrinkRecord(recordID: 0, timestamp: kind.timestamp, amountML: 180, bottleLevelML: max(0, level - 180),
                              typeRaw: 0, flagsRaw: 0)
            mixed.insert(odd, at: min(position, mixed.count))
        }
        var nextID = records.first?.recordID ?? 1
        for index in mixed.indices where !mixed[index].isErasedSlot {
            mixed[index].recordID = nextID
            nextID &+= 1
        }
        return mixed
    }
}

extension DrinkRecord {
    /// The simulator's stand-in for an erased flash slot (`OddRecord.erased`).
    var isErasedSlot: Bool {
        recordID == .max && timestamp == .max && amountML == -1 && bottleLevelML == -1 && typeRaw == 0xFF
    }

    /// The record as the bottle sends it: an erased slot reads as all FF, flags included.
    var onAir: DrinkRecord {
        isErasedSlot ? withFlags(0xFF) : self
    }
}
