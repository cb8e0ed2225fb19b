// What the bridge trusts of this machine's clock, and what follows from it: whether
// a session writes SET_TIME, the `Clock:` line of `status`, and the doctor's `clock` finding.
//
// SET_TIME is written only when the clock is synchronised (NTP) and not behind the newest
// stored drink: the bottle keeps whatever time it is given, for good (docs/protocol.md B9). When the
// kernel cannot be asked (`unknown`), the floors still apply but the sync state cannot: a bottle
// whose clock was never set records no drinks at all (docs/protocol.md 5.2), so an unanswerable
// question does not withhold SET_TIME for ever.

import History
import Timekeeping

package struct ClockTrust: Sendable, Equatable {
    package var sync: ClockSync
    /// The newest stored drink of the bottle about to be synced (or of any bottle).
    package var newestDrink: NewestDrinkTimes?

    /// How far a time this machine stored earlier may be ahead of it now (a step of the clock by
    /// NTP, within this slack, is not a wrong clock).
    package static let ownClockSlack: Duration = .seconds(60)

    package init(sync: ClockSync, newestDrink: NewestDrinkTimes? = nil) {
        self.sync = sync
        self.newestDrink = newestDrink
    }

    /// Reads the sync state and the newest stored drink of `bottle` (all bottles when nil).
    package static func evaluate(source: any ClockSyncSource, drinks: DrinkStore, bottle: String? = nil) -> ClockTrust {
        ClockTrust(sync: source.read(), newestDrink: try? drinks.newestDrinkTimes(bottle: bottle))
    }

    /// What a session does about SET_TIME.
    package var setTimePolicy: SetTimePolicy {
        if sync == .notSynchronised {
            return .skip("this machine's clock is not synchronised (NTP); the bottle keeps its own time until it is "
                         + "(timedatectl set-ntp true, then wait for 'System clock synchronized: yes')")
        }
        var floors: [TimeFloor] = []
        if let newestDrink {
            floors.append(TimeFloor(time: newestDrink.storedAt, what: "the time the newest drink was stored", slack: Self.ownClockSlack))
            floors.append(TimeFloor(time: newestDrink.recordTime, what: "the newest stored drink", slack: SetTimePolicy.defaultBottleSlack))
        }
        return SetTimePolicy(floors: floors)
    }

    /// The `Clock:` line of `status` at `now`.
    package func statusLine(at now: WallInstant) -> String {
        switch sync {
        case .synchronised:
            // A synchronised clock behind the stored drinks: say what SET_TIME waits for.
            if let broken = setTimePolicy.floors.first(where: { now < $0.time - $0.slack }) {
                return "Clock: synchronised, but \(Int((broken.time - now).inSeconds.rounded())) s behind \(broken.what) — SET_TIME withheld"
            }
            return "Clock: synchronised"
        case .notSynchronised:
            return "Clock: NOT synchronised — SET_TIME withheld"
        case .unknown(let why):
            return "Clock: synchronisation unknown (\(why)) — SET_TIME sent when not behind the stored drinks"
        }
    }
}
