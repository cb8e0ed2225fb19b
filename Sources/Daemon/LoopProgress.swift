// Whether the daemon's loops are getting anywhere: what the watchdog's ping is made of.
//
// A ping from a timer proves only that a timer fires: a loop spinning at full CPU leaves every
// timer running. So each loop (a participant: the daemon, the reminder ticker) tells
// this ledger about itself through its `Heartbeat`:
//   * `mark`: a real transition happened (a cycle started, a sighting, connected, a chunk stored,
//     a session ended, a reminder tick done); the next mark, or a declared wait, is due within
//     the participant's patience;
//   * `waiting(until:)`: it is about to block, and will be back by then.
// Every half watchdog interval the pinger asks `check()`, which answers "ping" only when every
// participant marked since the previous check or is still inside the wait it declared (plus a
// grace for scheduling delays).
//
// A declared wait cannot hide a spin. A loop that comes back from a wait early without marking
// anything (the shape of a loop asking an ended queue again and again) and declares another wait
// does not move its deadline later; after a few such wake-ups for nothing no wait moves it at all
// until the loop marks real progress. A spinning loop therefore runs out of its deadline, the
// pings stop, and systemd kills and restarts the service (WatchdogSec= in the unit).

import Locking
import Timekeeping

package final class LoopProgress: Sendable {
    /// How far past its deadline a participant still counts as on time (a busy scheduler, a slow
    /// SD card): small against the watchdog interval, so it is no loophole.
    package let grace: Duration
    /// Wake-ups for nothing (back from a wait before its deadline, without a mark) a participant
    /// may have before its waits stop moving its deadline. A real loop has one now and then (an
    /// event it skips); a spinning one has thousands.
    package static let wakeUpsForNothingAllowed = 3
    /// A wait that ends this close before its deadline has run its course: timers are not exact.
    static let onTime: Duration = .milliseconds(100)

    private let clock: any MonotonicClock
    private let onStatus: (@Sendable (String) -> Void)?
    private let ledger = Locked<[Participant]>([])

    /// - Parameter onStatus: called with the status-reporting participant's `status` whenever it
    ///   changes (the daemon sends it to systemd as `STATUS=`).
    package init(clock: any MonotonicClock = SystemClock(), grace: Duration = .seconds(5),
                onStatus: (@Sendable (String) -> Void)? = nil) {
        self.clock = clock
        self.grace = grace
        self.onStatus = onStatus
    }

    /// Registers a loop. `patience`: how long it may work after a mark before it must mark again
    /// or declare a wait (its longest unbounded step). Its first deadline is `patience` from now.
    package func participant(_ name: String, patience: Duration, reportsStatus: Bool = false) -> Heartbeat {
        let now = clock.instant
        let index = ledger.withLock { list in
            list.append(Participant(name: name, patience: patience, reportsStatus: reportsStatus, deadline: now + patience))
            return list.count - 1
        }
        return Heartbeat(progress: self, index: index)
    }

    func mark(_ index: Int, _ what: String) {
        let now = clock.instant
        ledger.withLock { list in
            list[index].marks &+= 1
            list[index].lastMark = (what, now)
            list[index].deadline = now + list[index].patience
            list[index].progressSinceWait = true
            list[index].wakeUpsForNothing = 0
        }
    }

    func waiting(_ index: Int, until deadline: MonotonicInstant, _ what: String?) {
        let now = clock.instant
        ledger.withLock { list in
            list[index].declare(deadline, at: now)
            if let what { list[index].doing = what }
        }
    }

    func status(_ index: Int, _ text: String) {
        let changed: Bool = ledger.withLock { list in
            defer { list[index].doing = text }
            return list[index].reportsStatus && list[index].doing != text
        }
        // Outside the lock: the callback talks to systemd.
        if changed { onStatus?(text) }
    }

    /// The ledger's clock's present (deadlines given as durations start here).
    var now: MonotonicInstant { clock.instant }

    /// What a participant last said it was doing.
    func doing(_ index: Int) -> String {
        ledger.withLock { $0[index].doing }
    }

    /// The pinger's question, once per half watchdog interval: ping, or who stalled. Each call
    /// starts a new interval for "marked since the previous check".
    package func check() -> WatchdogVerdict {
        let now = clock.instant
        let grace = self.grace
        let stalls: [Stall] = ledger.withLock { list in
            var stalls: [Stall] = []
            for index in list.indices {
                let participant = list[index]
                let marked = participant.marks != participant.marksAtLastCheck
                list[index].marksAtLastCheck = participant.marks
                if marked || now <= participant.deadline + grace { continue }
                stalls.append(Stall(participant: participant.name, doing: participant.doing,
                                    lastMark: participant.lastMark?.what,
                                    sinceLastMark: participant.lastMark.map { now - $0.at },
                                    overdue: now - participant.deadline))
            }
            return stalls
        }
        return stalls.isEmpty ? .ping : .stalled(stalls)
    }
}

/// One loop as the ledger sees it.
private struct Participant {
    let name: String
    let patience: Duration
    let reportsStatus: Bool
    /// Back by then: its next mark, or the end of the wait it declared.
    var deadline: MonotonicInstant
    var doing = "starting"
    var marks: UInt64 = 0
    var marksAtLastCheck: UInt64 = 0
    var lastMark: (what: String, at: MonotonicInstant)?
    /// A mark came after the last declared wait: the next wait may end later than the last one.
    var progressSinceWait = true
    /// Returns from a wait before its deadline without a mark, since the last mark.
    var wakeUpsForNothing = 0

    /// A wait until `end`, declared at `now`. After a mark any wait is accepted. Without one, a
    /// wait that follows a wait that ran its course is accepted too (nothing happened, and the
    /// loop waits again: discovery hearing nothing for hours); one that follows an early return
    /// is accepted only a few times, after which the deadline can only come closer.
    mutating func declare(_ end: MonotonicInstant, at now: MonotonicInstant) {
        defer { progressSinceWait = false }
        if progressSinceWait {
            deadline = end
            return
        }
        if now < deadline - LoopProgress.onTime { wakeUpsForNothing += 1 }
        deadline = wakeUpsForNothing <= LoopProgress.wakeUpsForNothingAllowed ? end : min(deadline, end)
    }
}
