// The replay guard of the household's messages (HouseholdSeal), kept across restarts: per sender
// and topic the newest stamp accepted, and the retained messages already judged not to be
// believed. Both are saved in the history (HouseholdStore's replay tables), bounded (members × topics, at
// most `maximumMarks`; `maximumJudged` messages), so that:
//
// * a captured signed message republished retained (the kitchen's `alive … offline` of an
//   earlier connection) is not believed by a member that starts again while its sender runs:
//   the saved stamp is newer, so the capture is a replay;
// * a retained message this member already dropped (a stranger's junk, a replay) is not counted
//   again when the broker sends it at every reconnection.
//
// A stamp saved by an earlier start is a floor, not a message heard: the same stamp heard again
// after a restart is delivered once (the retained state of a claim, a syncer or a bridge's
// `online` must be learnt again by this process), only an older one is a replay.

import AquavateProtocol
import Crypto
import Foundation
import Locking
import MQTT

final class HouseholdReplayGuard: Sendable {
    enum Verdict: Equatable {
        /// Newer than anything of its sender on its topic: believe it.
        case fresh
        /// The message already heard by this process: ignore it, uncounted.
        case same
        /// Older than what this member holds: a replay.
        case replayed
    }

    private struct State {
        /// "sender topic" → the newest stamp heard by this process.
        var marks: [String: HouseholdStamp] = [:]
        /// "sender topic" → the newest stamp an earlier start saved.
        var floors: [String: HouseholdStamp] = [:]
        /// Digests of the messages dropped, oldest first, and as a set.
        var judgedOrder: [String] = []
        var judged: Set<String> = []
        /// Grows at every change: the saver writes only when it moved.
        var version = 0
    }

    /// Topics whose last stamp is kept (each bottle's claims, syncer and reminds per member, and
    /// each member's own topics): beyond it the oldest half is forgotten.
    static let maximumMarks = 4096
    /// Dropped messages remembered, so that a retained one is counted once.
    static let maximumJudged = 1024

    private let state: Locked<State>

    init(saved: HouseholdReplayState = .init()) {
        var state = State()
        for (mark, stamp) in saved.marks.prefix(Self.maximumMarks) {
            guard let sender = mark.split(separator: " ", maxSplits: 1).first else { continue }
            state.floors[mark] = HouseholdStamp(sender: String(sender), boot: stamp.boot, sequence: stamp.sequence,
                                                time: .init(secondsSince1970: stamp.time))
        }
        state.judgedOrder = Array(saved.judged.suffix(Self.maximumJudged))
        state.judged = Set(state.judgedOrder)
        self.state = Locked(state)
    }

    /// What `stamp` on `topic` is to this member.
    func judge(_ stamp: HouseholdStamp, topic: String) -> Verdict {
        let mark = "\(stamp.sender) \(topic)"
        return state.withLock { state in
            if let last = state.marks[mark] {
                if stamp == last { return .same }
                if stamp < last { return .replayed }
            } else if let floor = state.floors[mark], stamp < floor {
                return .replayed
            }
            if state.marks[mark] == nil && state.marks.count + state.floors.count >= Self.maximumMarks {
                Self.forgetOldestHalf(&state)
            }
            state.marks[mark] = stamp
            state.floors.removeValue(forKey: mark)
            state.version += 1
            return .fresh
        }
    }

    /// Whether a dropped message is to be counted: not when it is retained and was judged
    /// before (by this start or a saved one); remembered either way.
    func countsAsDropped(topic: String, payload: [UInt8], retained: Bool) -> Bool {
        let digest = Self.digest(topic: topic, payload: payload)
        return state.withLock { state in
            if state.judged.contains(digest) { return !retained }
            state.judged.insert(digest)
            state.judgedOrder.append(digest)
            if state.judgedOrder.count > Self.maximumJudged {
                let gone = state.judgedOrder.prefix(Self.maximumJudged / 2)
                state.judged.subtract(gone)
                state.judgedOrder.removeFirst(gone.count)
            }
            state.version += 1
            return true
        }
    }

    /// What to save, and its version.
    var saved: (state: HouseholdReplayState, version: Int) {
        state.withLock { state in
            var marks: [String: HouseholdReplayState.Stamp] = [:]
            for (mark, stamp) in state.floors.merging(state.marks, uniquingKeysWith: { max($0, $1) }) {
                marks[mark] = .init(boot: stamp.boot, sequence: stamp.sequence, time: stamp.time.secondsSince1970)
            }
            return (HouseholdReplayState(marks: marks, judged: state.judgedOrder), state.version)
        }
    }

    var version: Int { state.withLock { $0.version } }

    private static func forgetOldestHalf(_ state: inout State) {
        var all = state.floors.map { (key: $0.key, time: $0.value.time, floor: true) }
            + state.marks.map { (key: $0.key, time: $0.value.time, floor: false) }
        all.sort { $0.time < $1.time }
        for entry in all.prefix(maximumMarks / 2) {
            if entry.floor { state.floors.removeValue(forKey: entry.key) } else { state.marks.removeValue(forKey: entry.key) }
        }
    }

    /// 16 bytes of SHA-256 over the topic and the payload, in hex.
    static func digest(topic: String, payload: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(data: Array(topic.utf8) + [0])
        hash.update(data: payload)
        return hash.finalize().prefix(16).lowercaseHex
    }
}

/// The replay guard's saved marks and judged messages (the history's household tables).
package struct HouseholdReplayState: Equatable, Sendable {
    struct Stamp: Equatable, Sendable {
        var boot: UInt64
        var sequence: UInt64
        var time: Double
    }

    /// "sender topic" → the newest stamp accepted.
    var marks: [String: Stamp] = [:]
    /// Digests of dropped messages, oldest first.
    var judged: [String] = []

    package init() {}

    init(marks: [String: Stamp], judged: [String] = []) {
        self.marks = marks
        self.judged = judged
    }
}
