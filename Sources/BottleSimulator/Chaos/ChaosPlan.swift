// The seeded fault injector (`--fault chaos=SEED`): at each connection it may pick one
// way for the link to break, at one random instant, as BlueZ shows it — so that the bridge is
// tested against orders of events nobody wrote down, not only the ones its authors thought of.
//
// A plan names WHEN (during Connect, during service resolution, at the n-th GATT call while its
// reply is in flight, between chunk k and its ACK, or some milliseconds after the link came up),
// HOW (a supervision time-out with the GATT objects removed or kept, the device object vanishing
// with no Connected=false), what happens to the replies in flight (failed before the signals,
// failed after them, or answered OK after them), and whether the bottle sleeps and when it
// wakes (maybe never: the test must wake it). After a few faulted connections the bottle is left
// alone, so that every schedule can end in a complete sync.

/// When a planned fault strikes.
package enum ChaosMoment: Sendable, Equatable, CustomStringConvertible {
    /// While `Connect` is pending.
    case duringConnect
    /// After Connected=true, before ServicesResolved=true.
    case duringResolution
    /// When the n-th ReadValue / WriteValue / StartNotify of the connection arrives: its reply
    /// is held, so it is in flight when the link breaks.
    case atCall(Int)
    /// Right after chunk k is notified, before its ACK.
    case afterChunk(Int)
    /// This long after the link came up, whatever is in flight then.
    case afterLink(milliseconds: Int)

    package var description: String {
        switch self {
        case .duringConnect: "during Connect"
        case .duringResolution: "during service resolution"
        case .atCall(let n): "at GATT call \(n), its reply in flight"
        case .afterChunk(let k): "between chunk \(k) and its ACK"
        case .afterLink(let ms): "\(ms) ms after the link came up"
        }
    }
}

/// One connection's fault.
package struct ChaosFault: Sendable, Equatable, CustomStringConvertible {
    package var moment: ChaosMoment
    package var style: LinkBreakStyle
    package var replies: PendingReplies
    /// The bottle falls asleep (a supervision time-out from its side); else it walked out of
    /// range and is back at once.
    package var sleeps: Bool
    /// When a sleeping bottle wakes again; nil: not by itself (Simulator1.Wake).
    package var wakeAfter: Duration?
    /// Write replies of this connection come this late, so that replies are in flight.
    package var writeDelay: Duration

    package var description: String {
        let wake = sleeps ? (wakeAfter.map { ", wakes after \($0)" } ?? ", sleeps until woken") : ""
        return "\(style.rawValue) \(moment), replies \(replies.rawValue)\(wake), writes +\(writeDelay)"
    }
}

/// The seeded source of plans.
package struct ChaosPlanner: Sendable {
    package let seed: UInt64
    private var random: SeededGenerator
    /// Faulted connections still to come; then every connection is left alone.
    package private(set) var faultsLeft: Int

    package init(seed: UInt64) {
        self.seed = seed
        random = SeededGenerator(seed: seed)
        faultsLeft = Int.random(in: 1...4, using: &random)
    }

    /// The odd records (B9, TV11) the bottle of chaos `seed` holds among its drinks: none for half
    /// the seeds, else one or two kinds. Drawn from a generator of their own, so that a seed's
    /// connection plans are what they were before the odd records came.
    package static func oddRecords(seed: UInt64) -> [OddRecord] {
        var random = SeededGenerator(seed: seed ^ 0x0DD_5EED)
        guard Bool.random(using: &random) else { return [] }
        return (0..<Int.random(in: 1...2, using: &random)).compactMap { _ in OddRecord.allCases.randomElement(using: &random) }
    }

    /// The plan for the next connection: a fault, or nil (a clean connection).
    package mutating func nextConnection() -> ChaosFault? {
        guard faultsLeft > 0, Double.random(in: 0..<1, using: &random) < 0.75 else { return nil }
        faultsLeft -= 1
        let moment: ChaosMoment
        switch Int.random(in: 0..<10, using: &random) {
        case 0: moment = .duringConnect
        case 1: moment = .duringResolution
        case 2, 3, 4: moment = .atCall(Int.random(in: 1...30, using: &random))
        case 5, 6, 7: moment = .afterChunk(Int.random(in: 0...25, using: &random))
        default: moment = .afterLink(milliseconds: Int.random(in: 0...1500, using: &random))
        }
        let style = LinkBreakStyle.allCases.randomElement(using: &random) ?? .supervisionObjectsRemoved
        let replies = PendingReplies.allCases.randomElement(using: &random) ?? .failFirst
        let sleeps = style != .vanish && Bool.random(using: &random)
        let wakeAfter: Duration? = Double.random(in: 0..<1, using: &random) < 0.2
            ? nil : .milliseconds(Int.random(in: 200...2500, using: &random))
        let writeDelay = Duration.milliseconds(Int.random(in: 0...120, using: &random))
        return ChaosFault(moment: moment, style: style, replies: replies, sleeps: sleeps, wakeAfter: wakeAfter,
                          writeDelay: writeDelay)
    }
}
