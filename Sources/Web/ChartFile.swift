// `history --chart FILE.svg`: the dashboard's day bars as a file, for people who do not run the
// server. The same drawing (`Charts.bars`), the same days (the history's day totals in the
// configured zone) and the same words (messages.locale).

import Foundation
import History
import Reminding
import Settings
import Timekeeping

public enum ChartFile {
    /// The bars of the last `days` local days ending with the day of `now`, every bottle summed,
    /// with the goal line (the one bottle's goal where there is one bottle).
    public static func svg(history: DrinkHistory, configuration: Configuration, days: Int, now: Double) throws -> String {
        let timeZone = configuration.timeZone
        let today = LocalDay(containing: now, timeZone: timeZone)
        let first = today - (days - 1)
        let bottles = try history.bottles()
        // One bottle: its goal as every surface resolves it (its own setting included).
        let goal = BottleView.settings(of: bottles.count == 1 ? bottles[0] : nil, configuration: configuration, history: history).goalML
        let totals = DashboardModel.dense(try history.dayTotals(timeZone: timeZone, days: first...today), from: first, to: today)
        let language = WebLanguage(rawValue: configuration[Setting.messagesLocale].rawValue) ?? .en
        let short = language.formatter("dMMM", timeZone)
        let svg = Charts.bars(days: totals, goalML: goal, title: String(format: language.words.lastDays, days)) { day in
            short.string(from: Date(timeIntervalSince1970: day.interval(in: timeZone).start + 43_200))
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg + "\n"
    }
}
