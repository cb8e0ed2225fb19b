// The bars of the page's charts from the day totals: a week with each weekday named, a month
// labelled weekly, and the year as twelve months (the average day of each), since 365 bars on a
// phone are a barcode nobody can read or point at. Today, and this month, are still filling.

import Foundation
import History
import Timekeeping

struct ChartColumns {
    let language: WebLanguage
    let timeZone: TimeZone
    let goalML: Int
    let today: LocalDay

    /// One column per day; every day labelled with `template` when `labelEvery` is 1, else every
    /// `labelEvery`-th counted back from today.
    func days(_ days: [DayTotal], labelEvery: Int, template: String) -> [BarColumn] {
        let short = language.formatter(template, timeZone)
        let long = language.formatter("EEEEdMMMM", timeZone)
        return days.enumerated().map { index, day in
            let noon = (day.date.interval(in: timeZone).start + .seconds(43_200)).date
            let fromEnd = days.count - 1 - index
            let now = day.date == today
            return BarColumn(key: day.date.description, label: fromEnd % labelEvery == 0 ? short.string(from: noon) : nil,
                             name: name(long.string(from: noon), ml: day.totalML, inProgress: now), ml: day.totalML, inProgress: now)
        }
    }

    /// The last twelve calendar months of `days` (the oldest, partial month of a 365-day span is
    /// left out), each the average of its days in the span.
    func months(_ days: [DayTotal]) -> [BarColumn] {
        var order: [Int] = []
        var sums: [Int: (total: Int, count: Int, day: LocalDay)] = [:]
        for day in days {
            let key = day.date.year * 12 + day.date.month
            if sums[key] == nil { order.append(key) }
            let sum = sums[key] ?? (0, 0, day.date)
            sums[key] = (sum.total + day.totalML, sum.count + 1, sum.day)
        }
        let letter = language.formatter("MMMMM", timeZone)
        let long = language.formatter("MMMMy", timeZone)
        return order.suffix(12).map { key in
            let sum = sums[key]!
            let noon = (sum.day.interval(in: timeZone).start + .seconds(43_200)).date
            let average = sum.total / max(sum.count, 1)
            let now = key == today.year * 12 + today.month
            let month = String(format: "%04d-%02d", sum.day.year, sum.day.month)
            return BarColumn(key: month, label: letter.string(from: noon),
                             name: name("\(long.string(from: noon)), \(language.words.perDay)", ml: average, inProgress: now),
                             ml: average, inProgress: now)
        }
    }

    private func name(_ when: String, ml: Int, inProgress: Bool) -> String {
        let words = language.words
        var text = "\(when): \(ml) ml"
        if inProgress { text += ", \(words.soFar)" }
        if ml >= goalML { text += ", \(words.goalMet)" }
        return text
    }
}
