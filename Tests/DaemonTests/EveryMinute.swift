// The minutes the daemon's ticker wakes the reminder desk at, between two wall-clock instants
// (WallInstant is no `Strideable`: its steps are `Duration`s, not numbers).

import Timekeeping

extension WallInstant {
    /// This instant and every whole minute after it, up to and including `end`.
    func everyMinute(through end: WallInstant) -> [WallInstant] {
        var minutes: [WallInstant] = []
        var minute = self
        while minute <= end {
            minutes.append(minute)
            minute += .seconds(60)
        }
        return minutes
    }

    /// This instant and every whole minute after it, before `end`.
    func everyMinute(upTo end: WallInstant) -> [WallInstant] {
        everyMinute(through: end).filter { $0 < end }
    }
}
