// Whether a session writes SET_TIME, decided outside the session, by what the host's clock is worth. The bottle takes
// any time it is given and keeps it, marked valid, for good (docs/protocol.md B9), stamping every
// drink with it: a Raspberry Pi without a real-time clock boots at its last saved time (or
// 1970) until NTP has synchronised it, and SET_TIME from such a clock corrupts the history at
// its source. So the daemon decides, before the session starts, from what it knows of its own
// clock; the session adds what the bottle says of its own time (Current State, read before).

/// A time this machine's clock must have reached, and what says so.
package struct TimeFloor: Sendable, Equatable {
    package var time: WallInstant
    /// What the time comes from, for the log: "the newest stored drink".
    package var what: String
    /// How far `time` may be ahead of a right clock: a time from the bottle's clock carries its
    /// drift since the last SET_TIME, so a little lead is not evidence against this machine.
    package var slack: Duration

    package init(time: WallInstant, what: String, slack: Duration) {
        self.time = time
        self.what = what
        self.slack = slack
    }
}

package struct SetTimePolicy: Sendable, Equatable {
    /// Why SET_TIME is withheld whatever the bottle says (this machine's clock is not
    /// synchronised), or nil.
    package var withheld: String?
    /// Times this machine's clock must have reached for SET_TIME to be written.
    package var floors: [TimeFloor]
    /// How far the bottle's own clock (Current State `timestamp`) may be ahead of this machine's:
    /// it drifts while the bottle sleeps (docs/protocol.md B9).
    package var bottleSlack: Duration

    /// The default slack for times from the bottle's clock: one hour.
    package static let defaultBottleSlack: Duration = .seconds(3600)

    package init(withheld: String? = nil, floors: [TimeFloor] = [], bottleSlack: Duration = SetTimePolicy.defaultBottleSlack) {
        self.withheld = withheld
        self.floors = floors
        self.bottleSlack = bottleSlack
    }

    /// Write SET_TIME on every connection (docs/protocol.md 7.2.4): tests, and callers that have
    /// checked nothing.
    package static let send = SetTimePolicy()

    /// Never write SET_TIME, for `reason`.
    package static func skip(_ reason: String) -> SetTimePolicy { SetTimePolicy(withheld: reason) }

    /// Nil when SET_TIME may be written with `now`; otherwise why not, in one line.
    /// - Parameters:
    ///   - now: the bridge's clock, the time SET_TIME would write.
    ///   - bottleTime: the bottle's clock as its Current State just said (nil or 0 when unknown:
    ///     right after a wake it is all zero, B6).
    package func reasonToWithhold(now: WallInstant, bottleTime: WallInstant?) -> String? {
        if let withheld { return withheld }
        var all = floors
        if let bottleTime, bottleTime > .epoch {
            all.append(TimeFloor(time: bottleTime, what: "the bottle's own clock", slack: bottleSlack))
        }
        guard let broken = all.first(where: { now < $0.time - $0.slack }) else { return nil }
        let behind = Int((broken.time - now).inSeconds.rounded())
        return "this machine's clock (\(Int64(now.secondsSince1970.rounded(.down)))) is \(behind) s behind \(broken.what) (\(Int64(broken.time.secondsSince1970.rounded(.down))))"
    }
}
