// The local days a replay's drinks fall on, kept as one entry per day so that memory does not
// grow with the length of the capture (the 1,000,000-record replay benchmark checks this).

import Foundation
import History
import Timekeeping

struct TouchedDays {
    /// Local day numbers (days since 1970-01-01 of local wall time) → one instant inside that day.
    private var days: [Int: WallInstant] = [:]
    /// The UTC offset that held for the last hour looked at: records come in time order, so
    /// this saves a time-zone lookup per record.
    private var cachedHour: Int64 = .min
    private var cachedOffset = 0

    private(set) var earliest: WallInstant?
    private(set) var latest: WallInstant?

    mutating func insert(_ timestamp: UInt32, timeZone: TimeZone) {
        let instant = WallInstant(secondsSince1970: Double(timestamp))
        let hour = Int64(timestamp) / 3600
        if hour != cachedHour {
            cachedHour = hour
            cachedOffset = timeZone.secondsFromGMT(for: instant.date)
        }
        let day = Int((Int64(timestamp) + Int64(cachedOffset)) / 86_400)
        if days[day] == nil { days[day] = instant }
        earliest = min(earliest ?? instant, instant)
        latest = max(latest ?? instant, instant)
    }

    /// The touched days as calendar dates, oldest first.
    func dates(timeZone: TimeZone) -> [LocalDay] {
        Set(days.values.map { LocalDay(containing: $0, timeZone: timeZone) }).sorted()
    }
}
