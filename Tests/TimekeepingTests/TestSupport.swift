// Small helpers for the time tests: dates and zones by name, UTC instants by Foundation's calendar.

import Foundation
import Timekeeping

/// UTC epoch seconds of a UTC wall-clock time, computed with Foundation's calendar.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(from: DateComponents(year: year, month: month, day: day,
                                                  hour: hour, minute: minute, second: second))!
    return Int(date.timeIntervalSince1970)
}

func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

func date(_ text: String) -> LocalDay { LocalDay(text)! }

let madrid = TimeZone(identifier: "Europe/Madrid")!

/// The instant a local wall clock in `zone` shows `date` (`YYYY-MM-DD`) and `time` (`HH:MM` or
/// `HH:MM:SS`).
func instant(_ date: String, _ time: String, in zone: TimeZone) -> WallInstant {
    let d = date.split(separator: "-").map { Int($0)! }
    let t = time.split(separator: ":").map { Int($0)! }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let components = DateComponents(year: d[0], month: d[1], day: d[2], hour: t[0], minute: t[1], second: t.count > 2 ? t[2] : 0)
    return WallInstant(calendar.date(from: components)!)
}
