// `history --chart FILE.svg`: the dashboard's day bars as a file, for people who do not run the
// server. The same drawing (`Charts.bars`), the same days (the history's day totals in the
// configured zone) and the same words (messages.locale).

import Foundation
import History
import Reminding
import Settings
import Timekeeping

package enum ChartFile {
    /// The bars of the last `days` local days ending with the day of `now`, every bottle summed,
    /// with the goal line (the one bottle's goal where there is one bottle).
    package static func svg(history: DrinkHistory, configuration: Configuration, days: Int, now: WallInstant) throws -> String {
        let timeZone = configuration.timeZone
        let today = LocalDay(containing: now, timeZone: timeZone)
        let first = today - (days - 1)
        let bottles = try history.bottles.all()
        // One bottle: its goal as every surface resolves it (its own setting included).
        let goal = BottleView.settings(of: bottles.count == 1 ? bottles[0] : nil, configuration: configuration, history: history).goalML
        let totals = DashboardModel.dense(try history.drinks.dayTotals(timeZone: timeZone, days: first...today), from: first, to: today)
        let language = WebLanguage(configuration[Setting.messagesLocale])
        let columns = ChartColumns(language: language, timeZone: timeZone, goalML: goal, today: today, firstData: ChartColumns.firstData(totals))
        let bars = days <= 7 ? columns.days(totals, labelEvery: 1, template: "EEE")
            : days <= 90 ? columns.days(totals, labelEvery: 7, template: "dMMM") : columns.months(totals)
        let title = String(format: language.words.lastDays, days)
        var svg = Charts.bars(bars, goalML: goal, label: title, allValues: days <= 7, title: title)
        // A file has no page around it: its own colours (the page's light ones).
        if let end = svg.firstIndex(of: ">") { svg.insert(contentsOf: standaloneStyle, at: svg.index(after: end)) }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg + "\n"
    }

    static let standaloneStyle = "<style>svg{background:#fff}text{fill:#1f2328}.axis{stroke:#57606a}.goal{stroke:#8250df;stroke-dasharray:4 4}"
        + ".met{fill:#1a7f37}.below{fill:#0969da}.now rect{fill-opacity:.75;stroke:#1f2328;stroke-width:1.5;stroke-dasharray:3 2}.nodata line{stroke:#57606a;stroke-width:2;stroke-dasharray:2 2}</style>"
}
