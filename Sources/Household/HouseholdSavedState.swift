// What the household keeps in the history between starts (History's household tables), as the
// household's own types hold it: the replay guard's marks by "sender topic", and the
// replication's marks by member.

import History
import Timekeeping

extension HouseholdReplayState {
    /// The guard's state as the history saved it (one mark per sender and topic: the table's key).
    init(_ saved: HouseholdReplayRecords) {
        var marks: [String: Stamp] = [:]
        for mark in saved.marks {
            marks["\(mark.sender) \(mark.topic)"] = Stamp(boot: mark.boot, sequence: mark.sequence, time: mark.time.secondsSince1970)
        }
        self.init(marks: marks, judged: saved.judged)
    }

    /// The rows to save: a mark is "sender topic" (a sender is a bridge.id: no space in it).
    var records: HouseholdReplayRecords {
        HouseholdReplayRecords(
            marks: marks.sorted { $0.key < $1.key }.compactMap { mark, stamp in
                guard let space = mark.firstIndex(of: " ") else { return nil }
                return HouseholdReplayMark(sender: String(mark[..<space]), topic: String(mark[mark.index(after: space)...]),
                                           boot: stamp.boot, sequence: stamp.sequence, time: WallInstant(secondsSince1970: stamp.time))
            },
            judged: judged)
    }
}
