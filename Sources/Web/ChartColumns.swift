// The bars of the page's charts from the day totals: a week with each weekday named, a month
// labelled weekly, and the year as twelve months (the average day of each, named in three
// letters), since 365 bars on a phone are a barcode nobody can read or point at. Today, and this
// month, are still filling. Days before the first day with a drink are no data, not 0 ml: a
// bottle synced for the first time last week did not miss its goal the eleven months before.

import Foundation
import History
import Timekeeping

struct ChartColumns {
    let language: WebLanguage
    let timeZone: TimeZone
    let goalML: Int
    let today: LocalDay
    /// The first day of the span with a drink; nil: none has one.
    var firstData: LocalDay?
    /// The rendering's formatters (shared by every chart of a page).
    let dates: DateFormats

    init(language: WebLanguage, timeZone: TimeZone, goalML: Int, today: LocalDay, firstData: LocalDay?, dates: DateFormats? = nil) {
        self.language = language
        self.timeZone = timeZone
        self.goalML = goalML
        self.today = today
        self.firstData = firstData
        self.dates = dates ?? DateFormats(language: language, timeZone: timeZone)
    }

    /// The first day of `days` with a drink (nil when none has).
    static func firstData(_ days: [DayTotal]) -> LocalDay? { days.first { $0.drinks > 0 || $0.totalML > 0 }?.date }

    private func known(_ day: LocalDay) -> Bool { firstData.map { day >= $0 } ?? false }

    /// One column per day; every day labelled with `template` when `labelEvery` is 1, else every
    /// `labelEvery`-th counted back from today.
    func days(_ days: [DayTotal], labelEvery: Int, template: String) -> [BarColumn] {
        let short = dates(template)
        let long = dates("EEEEdMMMM")
        return days.enumerated().map { index, day in
            let noon = (day.date.interval(in: timeZone).start + .seconds(43_200)).date
            let fromEnd = days.count - 1 - index
            let now = day.date == today
            let noData = !known(day.date)
            return BarColumn(key: day.date.description, label: fromEnd % labelEvery == 0 ? short.string(from: noon) : nil,
                             name: noData ? "\(long.string(from: noon)): \(language.words.noData)" : name(long.string(from: noon), ml: day.totalML, inProgress: now ? language.words.soFar : nil),
                             ml: day.totalML, inProgress: now, noData: noData)
        }
    }

    /// The last twelve calendar months of `days` (the oldest, partial month of a 365-day span is
    /// left out), each the average of its days in the span with data; a month before the first
    /// drink is no data.
    func months(_ days: [DayTotal]) -> [BarColumn] {
        var order: [Int] = []
        var sums: [Int: (total: Int, count: Int, day: LocalDay)] = [:]
        for day in days {
            let key = day.date.year * 12 + day.date.month
            if sums[key] == nil { order.append(key) }
            let sum = sums[key] ?? (0, 0, day.date)
            sums[key] = known(day.date) ? (sum.total + day.totalML, sum.count + 1, sum.day) : sum
        }
        let short = dates("MMM")
        let long = dates("MMMMy")
        return order.suffix(12).map { key in
            let sum = sums[key]!
            let noon = (sum.day.interval(in: timeZone).start + .seconds(43_200)).date
            let average = sum.total / max(sum.count, 1)
            let now = key == today.year * 12 + today.month
            let month = String(format: "%04d-%02d", sum.day.year, sum.day.month)
            // "Jan", "ene": three letters, without the abbreviation's full stop.
            let label = String(short.string(from: noon).filter { $0 != "." }.prefix(3))
            return BarColumn(key: month, label: label,
                             name: sum.count == 0 ? "\(long.string(from: noon)): \(language.words.noData)"
                                 : name("\(long.string(from: noon)), \(language.words.perDay)", ml: average, inProgress: now ? language.words.monthSoFar : nil),
                             ml: average, inProgress: now, noData: sum.count == 0)
        }
    }

    /// `inProgress`: what is still filling ("today, so far", "this month, so far").
    private func name(_ when: String, ml: Int, inProgress: String?) -> String {
        let words = language.words
        var text = "\(when): \(ml) ml"
        if let inProgress { text += ", \(inProgress)" }
        if ml >= goalML { text += ", \(words.goalMet)" }
        return text
    }
}
