// `GET /`: the dashboard as one HTML document with its style inline and its charts as SVG, phone
// first: each person's day at the top of their panel (progress, pace, the next reminder), then
// today's curve, the last few drinks (the rest folded), what waits for the bottle, the goal, and
// the week, month and year. It works without JavaScript (every control is a form that posts and
// is answered with a redirect back to the page, PageActions) and loads nothing from anywhere; its
// one small script only reloads it when a sync changes what it shows (DashboardStyle).

import AquavateProtocol
import Foundation
import History
import Reminders
import Reminding
import Timekeeping

enum DashboardPage {
    /// Drinks shown before the rest are folded away.
    static let drinksShown = 3

    /// - Parameter canLogOut: the page sits behind the login (`web.token`): it offers to log out.
    static func render(_ model: DashboardModel, outcome: PageOutcome? = nil, canLogOut: Bool = false) -> String {
        let words = model.language.words
        let formats = Formats(model)
        let now = model.now.date
        var html = head(title: words.title, language: model.language, version: model.version)
        html += "<header><h1>\(escape(words.title))</h1><p class=\"date\">\(escape(formats.longDate.string(from: now))) · "
            + "<span class=\"updated\">\(escape(words.updated)) <time>\(escape(formats.time.string(from: now)))</time></span></p></header>\n"
        if let outcome { html += notice(outcome, model: model, formats: formats) }
        html += FamilyStrip.render(model)
        for (index, panel) in model.panels.enumerated() {
            html += bottlePanel(panel, index: index, model: model, formats: formats)
        }
        if canLogOut {
            html += "<form class=\"logout\" method=\"post\" action=\"/logout\"><button type=\"submit\">\(escape(words.logOut))</button></form>\n"
        }
        html += "</main><script src=\"/page.js\" defer></script></body></html>\n"
        return html
    }

    /// The formatters of one rendering (made once: they are slow to make).
    struct Formats {
        let time, dateTime, longDate: DateFormatter
        /// Every formatter of the rendering, the charts' included.
        let dates: DateFormats
        init(_ model: DashboardModel) {
            dates = DateFormats(language: model.language, timeZone: model.timeZone)
            time = dates("HHmm")
            dateTime = dates("dMMMHHmm")
            longDate = dates("EEEEdMMMM")
        }
        func clock(_ seconds: Double) -> String { time.string(from: Date(timeIntervalSince1970: seconds)) }
    }

    /// What the last form did, on top of the page.
    private static func notice(_ outcome: PageOutcome, model: DashboardModel, formats: Formats) -> String {
        let words = model.language.words
        // A div, not a p: the undo's form cannot sit inside a paragraph.
        let open = outcome.isRefusal ? "<div class=\"notice outcome\" role=\"alert\">" : "<div class=\"notice done outcome\" role=\"status\">"
        switch outcome {
        case .deleted(let id):
            // While the bottle has not been sent the delete, it can be undone; not in a household,
            // whose members keep a delete for good once they have it (docs/household.md).
            for panel in model.panels {
                guard let command = panel.pending.first(where: { $0.id == id }),
                      case .deleteDrink(let record, let timestamp)? = command.action
                else { continue }
                let amount = panel.drinks.first { $0.recordID == record && $0.timestamp == timestamp }.map { "\($0.amountML) ml" } ?? "–"
                var html = open + escape(words.deleted(amount, formats.clock(Double(timestamp))))
                if command.status == .pending, model.undoable {
                    html += "<form method=\"post\" action=\"/actions/undo\"><input type=\"hidden\" name=\"bottle\" value=\"\(escape(command.bottle))\">"
                        + "<input type=\"hidden\" name=\"command\" value=\"\(id)\">"
                        + "<button type=\"submit\" class=\"undo\">\(escape(words.undo))</button></form>"
                }
                return html + "</div>\n"
            }
            return ""
        case .restored: return open + escape(words.restored) + "</div>\n"
        case .undoTooLate: return open + escape(words.undoTooLate) + "</div>\n"
        case .undoShared: return open + escape(words.undoShared) + "</div>\n"
        case .goalSet(let goal): return open + escape(words.goalSet(goal, BottleGoal.clamped(goal))) + "</div>\n"
        case .goalRefused(let goal): return open + escape(words.goalRefused(goal, DailyGoal.rangeML)) + "</div>\n"
        case .deleteRefused: return open + escape(words.deleteRefused) + "</div>\n"
        case .limit(let on): return open + escape(on ? words.limitOn : words.limitOff) + "</div>\n"
        case .refused: return open + escape(words.actionRefused) + "</div>\n"
        case .drinkAdded(let amount, let timestamp): return open + escape(words.drinkAdded("\(amount) ml", formats.clock(Double(timestamp)))) + "</div>\n"
        case .drinkRefused: return open + escape(words.drinkRefused) + "</div>\n"
        case .manualDeleted: return open + escape(words.manualDeleted) + "</div>\n"
        }
    }

    private static func bottlePanel(_ panel: BottlePanel, index: Int, model: DashboardModel, formats: Formats) -> String {
        let words = model.language.words
        let language = model.language
        let bottleField = panel.id.map { "<input type=\"hidden\" name=\"bottle\" value=\"\(escape($0))\">" } ?? ""
        // The person, in their colour; the bottle's own name is for the bottle's part below.
        let person = panel.person
        var html = "<section class=\"bottle c\(panel.colour)\" data-bottle=\"\(escape(panel.id ?? ""))\" aria-labelledby=\"p\(index)\">\n"
            + "<h2 id=\"p\(index)\">\(escape(person))</h2>"
        let lastSync = panel.lastSync.map { escape(formats.dateTime.string(from: $0.date)) } ?? escape(words.never)
        html += "<p class=\"sub\">\(escape(words.lastSync)) <span class=\"last-sync\">\(lastSync)</span></p>\n"
        if let refusal = panel.refusal, refusal.isStuck {
            // A stuck bottle (docs/design.md 3.4): every later drink waits behind one chunk.
            html += "<p class=\"notice stuck\" role=\"alert\"><strong>\(escape(words.stuck))</strong> \(escape(words.stuckSince)) "
                + "\(escape(formats.dateTime.string(from: refusal.since.date))): \(escape(refusal.reason)). "
                + (panel.unsynced.map { "\($0) \(escape(words.waiting)). " } ?? "") + "\(escapeAdvice(SyncRefusal.advice))</p>\n"
        }
        if panel.quarantined > 0 {
            html += "<p class=\"notice quarantined\">\(escape(words.quarantined)): <span class=\"quarantined-count\">\(panel.quarantined)</span>, "
                + "\(escapeAdvice(words.quarantinedHelp))</p>\n"
        }
        let isNew = panel.isNew
        if isNew {
            // A new person: what to do, not a deficit for drinks the bridge has not seen yet.
            html += "<p class=\"empty-state\">\(escape(words.syncTheBottle(person)))</p>\n"
        } else {
            // A goal set but not yet taken by the bottle is today's goal at once, marked as
            // waiting (BottleView.waitingGoalML); the pace below keeps the goal in force until then.
            let shownGoal = panel.view.shownGoalML
            let waiting = panel.view.waitingGoalML == nil ? "" : " <small class=\"goal-waiting\">· \(escape(words.goalWaiting))</small>"
            // The bottle's display shows its own goal; when it is not the daily goal the page
            // measures against, the person is told both (docs/design.md 3.7).
            let bottleGoal = panel.view.waitingGoalML == nil ? panel.view.bottle?.goalML.flatMap { $0 == shownGoal ? nil : $0 } : nil
            let shows = bottleGoal.map { " <small class=\"bottle-goal\">· \(escape(words.bottleShows($0)))</small>" } ?? ""
            html += "<div class=\"today\"><div class=\"gauge\">" + Charts.gauge(valueML: panel.pace.dayTotalML, goalML: shownGoal, caption: "\(words.ofGoal) \(shownGoal) ml") + "</div><dl>"
            html += "<dt>\(escape(words.today))</dt><dd class=\"today-ml\" data-ml=\"\(panel.pace.dayTotalML)\">\(panel.pace.dayTotalML) ml \(escape(words.ofGoal)) <span class=\"goal-ml\">\(shownGoal)</span> ml\(waiting)\(shows)</dd>"
            // The urgency as a word in its colour, then how far behind in a sentence about the
            // person (a parent reads it): "overdue · Leo is 668 ml behind".
            html += "<dt>\(escape(words.urgency))</dt><dd class=\"urgency\"><strong class=\"\(urgencyClass(panel.pace.urgency))\">\(escape(language.urgency(panel.pace.urgency)))</strong>"
            if panel.pace.displayedDeficitML > 0 { html += " · \(escape(words.behind(person, panel.pace.displayedDeficitML)))" }
            html += "<br><small>\(panel.pace.expectedML) ml \(escape(words.expectedByNow))</small></dd>"
            html += "<dt>\(escape(words.nextReminder))</dt><dd class=\"next-reminder\">\(escape(nextReminder(panel.nextReminder, person: person, words: words)))</dd>"
            html += "<dt>\(escape(words.streak))</dt><dd class=\"streak\">\(escape(words.dayCount(panel.goalStreak)))</dd>"
            html += "</dl></div>\n"
            // Today's curve against the pace line, said in words for a screen reader.
            let dayStart = model.today.interval(in: model.timeZone).start
            let intake = panel.drinks.filter { !$0.deleted }.map { (minute: Int((Double($0.timestamp) - dayStart.secondsSince1970) / 60), amountML: Int($0.amountML)) }
            let hydration = panel.hydration
            let label = "\(words.today): \(panel.pace.dayTotalML) ml, \(panel.pace.expectedML) ml \(words.expectedByNow), \(words.goalLine) \(panel.goalML) ml"
            html += "<div class=\"chart curve\">" + Charts.dayCurve(drinks: intake, goalML: panel.goalML, settings: hydration,
                                                                     nowMinute: model.minuteOfDay, label: label)
            html += "<ul class=\"legend\" aria-hidden=\"true\"><li><i class=\"sw intake\"></i>\(escape(words.intake))</li><li><i class=\"sw pace\"></i>\(escape(words.pace))</li>"
                + "<li><i class=\"sw goal\"></i>\(escape(words.goalLine))</li></ul></div>\n"
        }
        html += drinks(panel, model: model, formats: formats, bottleField: bottleField)
        if panel.id != nil { html += addDrink(words: words, bottleField: bottleField) }
        html += pending(panel, words: words, formats: formats)
        html += reminders(panel, words: words, bottleField: bottleField)
        // The person's daily goal (`DailyGoal`, as `setup --goal` and the API take it); one waiting
        // for the bottle, when the bottle's goal is the daily goal, is what the field shows.
        if panel.id != nil {
            html += "<form class=\"goal\" method=\"post\" action=\"/actions/goal\">\(bottleField)<label>\(escape(words.goal)) "
                + "<input type=\"number\" name=\"daily_goal_ml\" min=\"\(DailyGoal.rangeML.lowerBound)\" max=\"\(DailyGoal.rangeML.upperBound)\" step=\"1\" value=\"\(panel.view.shownGoalML)\" required></label> "
                + "<button type=\"submit\">\(escape(words.save))</button></form>\n"
        }
        if !isNew { html += charts(panel, model: model, dates: formats.dates) }
        html += device(panel, words: words)
        return html + "</section>\n"
    }

    /// A drink the bottle did not measure (a glass at school): its amount and, optionally, the
    /// time today it was drunk (empty: now). Stored as a manual drink, never sent to the bottle.
    private static func addDrink(words: WebWords, bottleField: String) -> String {
        "<details class=\"add-drink\"><summary>\(escape(words.addDrink))</summary>"
            + "<form method=\"post\" action=\"/actions/drink\">\(bottleField)<label>\(escape(words.volume)) "
            + "<input type=\"number\" name=\"volume_ml\" min=\"\(ManualDrinkLimits.volumeML.lowerBound)\" max=\"\(ManualDrinkLimits.volumeML.upperBound)\" step=\"1\" required></label> "
            + "<label>\(escape(words.time)) <input type=\"time\" name=\"time\"></label> "
            + "<button type=\"submit\">\(escape(words.addDrinkButton))</button></form></details>\n"
    }

    /// The bottle itself, last: what it calls itself (a name like "Aquavate-A3F2" reads as an id,
    /// so it is not under the person's name), its level and its battery.
    private static func device(_ panel: BottlePanel, words: WebWords) -> String {
        var html = "<h3>\(escape(words.bottleWord))</h3><dl class=\"device\">"
        if let name = panel.bottleName { html += "<dt>\(escape(words.bottleName))</dt><dd class=\"bottle-name\">\(escape(name))</dd>" }
        html += "<dt>\(escape(words.level))</dt><dd class=\"level\">\(panel.levelML.map { "\($0) ml" } ?? "–")</dd>"
        html += "<dt>\(escape(words.battery))</dt><dd class=\"battery\">\(panel.battery.map { "\($0)%" } ?? "–")</dd>"
        return html + "</dl>\n"
    }

    /// `urgency-on-track`, `urgency-attention`, `urgency-overdue`: the colour of the word.
    static func urgencyClass(_ urgency: Urgency) -> String {
        "urgency-\(urgency.rawValue.replacingOccurrences(of: "_", with: "-"))"
    }

    private static func nextReminder(_ next: NextReminder, person: String, words: WebWords) -> String {
        switch next {
        case .at(let minute): return words.nextReminderAt(clock(minute), person)
        case .goalMet: return words.noReminderGoalMet
        case .dueNow: return words.reminderDueNow
        case .remindersOff: return words.remindersOff
        case .noneToday, .notComputed: return words.noReminderDue
        }
    }

    /// The next reminder in a few words, for the family strip.
    static func nextReminderShort(_ next: NextReminder, words: WebWords) -> String {
        switch next {
        case .at(let minute): return words.reminderAround(clock(minute))
        case .goalMet: return words.goalMet
        case .dueNow: return words.reminderDueNowShort
        case .remindersOff: return words.remindersOff
        case .noneToday, .notComputed: return words.noReminderDue
        }
    }

    private static func clock(_ minute: Int) -> String { String(format: "%02d:%02d", minute / 60, minute % 60) }

    /// The last few drinks, newest first, each deleted only after a second tap (a confirmation
    /// that needs no script); the rest folded.
    private static func drinks(_ panel: BottlePanel, model: DashboardModel, formats: Formats, bottleField: String) -> String {
        let words = model.language.words
        var html = "<h3>\(escape(words.drinksToday))</h3>\n"
        guard !panel.drinks.isEmpty else { return html + "<p class=\"empty\">\(escape(words.noDrinks))</p>\n" }
        let newestFirst = Array(panel.drinks.reversed())
        func table(_ drinks: ArraySlice<StoredDrink>) -> String {
            var rows = "<table class=\"drinks\"><thead><tr><th scope=\"col\">\(escape(words.time))</th><th scope=\"col\">\(escape(words.amount))</th>"
                + "<th scope=\"col\"><span class=\"sr\">\(escape(words.delete))</span></th></tr></thead><tbody>\n"
            for drink in drinks {
                let when = escape(formats.clock(Double(drink.timestamp)))
                rows += "<tr class=\"drink\(drink.deleted ? " deleted" : "")\" data-record=\"\(drink.recordID)\"><td>\(when)</td><td>\(drink.amountML) ml\(drink.manual ? " <span class=\"manual\">(\(escape(words.byHand)))</span>" : "")</td><td>"
                if !drink.deleted, panel.id != nil {
                    let what = escape(words.deleteDrink("\(drink.amountML) ml", formats.clock(Double(drink.timestamp))))
                    rows += "<details class=\"del\"><summary>\(escape(words.delete))<span class=\"sr\"> \(drink.amountML) ml, \(when)</span></summary>"
                        + "<form method=\"post\" action=\"/actions/delete\">\(bottleField)<input type=\"hidden\" name=\"record_id\" value=\"\(drink.recordID)\">"
                        + "<button type=\"submit\" class=\"delete danger\">\(what)</button></form></details>"
                }
                rows += "</td></tr>\n"
            }
            return rows + "</tbody></table>\n"
        }
        html += table(newestFirst.prefix(drinksShown))
        if newestFirst.count > drinksShown {
            html += "<details class=\"more\"><summary>\(escape(words.moreDrinks(newestFirst.count - drinksShown)))</summary>"
                + table(newestFirst.dropFirst(drinksShown)) + "</details>\n"
        }
        return html
    }

    /// Commands waiting for the bottle's next connection, in words ("Delete 250 ml at 14:05").
    private static func pending(_ panel: BottlePanel, words: WebWords, formats: Formats) -> String {
        var html = "<h3>\(escape(words.pending))</h3>\n"
        guard !panel.pending.isEmpty else { return html + "<p class=\"empty pending-none\">\(escape(words.noPending))</p>\n" }
        html += "<ul class=\"pending\">"
        for command in panel.pending {
            var text: String
            switch command.action {
            case .setGoal(let goal)?: text = words.goalCommand(goal)
            case .deleteDrink(let record, let timestamp)?:
                // Today's drinks by their time; an older one by its date too.
                let today = panel.drinks.first { $0.recordID == record && $0.timestamp == timestamp }
                text = words.deleteDrink(today.map { "\($0.amountML) ml" } ?? "–",
                                         today == nil ? formats.dateTime.string(from: Date(timeIntervalSince1970: Double(timestamp)))
                                                      : formats.clock(Double(timestamp)))
            case .tare?: text = words.tare
            case .shakeToEmpty(let on)?: text = words.shakeToEmpty(on)
            case nil: text = command.command
            }
            if command.status == .sending { text += " (\(words.sending))" }
            html += "<li data-command=\"\(command.id)\">\(escape(text))</li>"
        }
        return html + "</ul>\n"
    }

    /// The week (every day named, every value shown) with its summary in words, then the month
    /// (labelled weekly) and the year (as months), which fold on a phone under one `<details>` so
    /// that the next person's panel is not three charts further down; from 900 px they show
    /// without the fold (the style sheet).
    private static func charts(_ panel: BottlePanel, model: DashboardModel, dates: DateFormats) -> String {
        let words = model.language.words
        let columns = ChartColumns(language: model.language, timeZone: model.timeZone, goalML: panel.goalML, today: model.today,
                                   firstData: ChartColumns.firstData(panel.days), dates: dates)
        let week = String(format: words.lastDays, 7), month = String(format: words.lastDays, 30)
        var html = "<div class=\"chart bars\" data-days=\"7\"><h3>\(escape(week))</h3>"
        if let summary = weekSummary(panel, language: model.language) { html += "<p class=\"week-summary\">\(escape(summary))</p>" }
        html += Charts.bars(columns.days(Array(panel.days.suffix(7)), labelEvery: 1, template: "EEE"), goalML: panel.goalML,
                            label: "\(week), \(words.perDay)", allValues: true) + "</div>\n"
        html += "<ul class=\"legend\" aria-hidden=\"true\"><li><i class=\"sw met\"></i>\(escape(words.goalMet))</li><li><i class=\"sw below\"></i>\(escape(words.belowGoal))</li>"
            + "<li><i class=\"sw now\"></i>\(escape(words.stillFilling))</li><li><i class=\"sw goal\"></i>\(escape(words.goalLine)) \(panel.goalML) ml</li></ul>\n"
        html += "<details class=\"older\"><summary>\(escape(words.olderCharts))</summary>"
        html += "<div class=\"chart bars\" data-days=\"30\"><h3>\(escape(month))</h3>"
            + Charts.bars(columns.days(Array(panel.days.suffix(30)), labelEvery: 7, template: "dMMM"), goalML: panel.goalML,
                          label: "\(month), \(words.perDay)", allValues: false) + "</div>\n"
        html += "<div class=\"chart bars\" data-days=\"365\"><h3>\(escape(words.lastYear))</h3>"
            + Charts.bars(columns.months(panel.days), goalML: panel.goalML, label: words.lastYear, allValues: false) + "</div></details>\n"
        return html
    }

    /// "5 of 7 days met · average 1,523 ml": the seven days before today (today is still
    /// filling) from the first day with a drink, against the goal in force now; nil when none.
    static func weekSummary(_ panel: BottlePanel, language: WebLanguage) -> String? {
        // The days with data only: a person synced for the first time on Tuesday has three days.
        guard let first = ChartColumns.firstData(panel.days) else { return nil }
        let week = panel.days.dropLast().suffix(7).filter { $0.date >= first }
        guard !week.isEmpty else { return nil }
        let met = week.filter { $0.totalML >= panel.goalML }.count
        let average = week.reduce(0) { $0 + $1.totalML } / max(week.count, 1)
        return language.words.weekSummary(met, week.count, language.number(average))
    }

    /// The person's reminders, from their own bottle's engine and settings: today's count, the
    /// ritual streak, and the switch of their daily limit, which posts with their bottle and changes
    /// that bottle's limit alone (DailyLimitSwitch).
    private static func reminders(_ panel: BottlePanel, words: WebWords, bottleField: String) -> String {
        var html = "<h3>\(escape(words.household))</h3><dl class=\"reminders\">"
        let count = panel.dailyLimit ? "\(panel.remindersToday)/\(HydrationSettings.maxRemindersPerDay)" : "\(panel.remindersToday)"
        html += "<dt>\(escape(words.remindersToday))</dt><dd class=\"reminders-today\">\(count)</dd>"
        if panel.ritualStreak > 0 {
            html += "<dt>\(escape(words.ritualStreak))</dt><dd class=\"ritual-streak\">\(escape(words.dayCount(panel.ritualStreak)))</dd>"
        }
        html += "<dt>\(escape(words.dailyLimit))</dt><dd class=\"daily-limit\" data-on=\"\(panel.dailyLimit)\">"
            + "\(escape(panel.dailyLimit ? words.limitOn : words.limitOff))</dd></dl>\n"
        // A history without bottles has no bottle to switch: `config set` does.
        if panel.id != nil {
            html += "<form method=\"post\" action=\"/actions/daily-limit\">\(bottleField)<input type=\"hidden\" name=\"enabled\" value=\"\(!panel.dailyLimit)\">"
                + "<button type=\"submit\" class=\"daily-limit-switch\">\(escape(panel.dailyLimit ? words.switchOff : words.switchOn))</button></form>\n"
        }
        return html
    }

    /// The document's head: readable from 320 px up (one column on a phone, two from 900 px),
    /// light or dark as the device is, and loading nothing from anywhere but the bridge's own
    /// manifest and icon (`appLinks`: not on the login page, which cannot fetch them yet).
    static func head(title: String, language: WebLanguage, version: String? = nil, appLinks: Bool = true) -> String {
        let links = appLinks
            ? "<link rel=\"icon\" href=\"/icon.svg\" type=\"image/svg+xml\"><link rel=\"apple-touch-icon\" href=\"/icon.svg\">"
                + "<link rel=\"manifest\" href=\"/manifest.webmanifest\" crossorigin=\"use-credentials\">"
            : "<link rel=\"icon\" href=\"data:,\">"
        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><meta name="theme-color" content="#0969da">\(links)
            <title>\(escape(title))</title>
            <style>\(DashboardStyle.css)</style></head><body\(version.map { " data-version=\"\(escape($0))\"" } ?? "")><main>

            """
    }
}
