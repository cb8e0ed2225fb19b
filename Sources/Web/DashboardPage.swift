// `GET /`: the dashboard as one HTML document with its style inline and its charts as SVG. It
// works without JavaScript (every control is a form that posts back to the page) and loads
// nothing else, from the bridge or the internet: a Pi without internet shows it whole.

import AquavateProtocol
import Foundation
import History
import Reminders
import Timekeeping

enum DashboardPage {
    /// - Parameter canLogOut: the page sits behind the login (`web.token`): it offers to log out.
    static func render(_ model: DashboardModel, notice: String? = nil, canLogOut: Bool = false) -> String {
        let words = model.language.words
        let time = model.language.formatter("HHmm", model.timeZone)
        let dateTime = model.language.formatter("dMMMHHmm", model.timeZone)
        let longDate = model.language.formatter("EEEEdMMMM", model.timeZone)
        var html = head(title: words.title, language: model.language)
        html += "<header><h1>\(escape(words.title))</h1><p class=\"date\">\(escape(longDate.string(from: Date(timeIntervalSince1970: model.now))))</p></header>\n"
        if let notice { html += "<p class=\"notice\" role=\"alert\">\(escape(notice))</p>\n" }
        for panel in model.panels {
            html += bottlePanel(panel, model: model, time: time, dateTime: dateTime)
        }
        html += householdPanel(model)
        if canLogOut {
            html += "<form method=\"post\" action=\"/logout\"><button type=\"submit\">\(escape(words.logOut))</button></form>\n"
        }
        html += "</main></body></html>\n"
        return html
    }

    private static func bottlePanel(_ panel: BottlePanel, model: DashboardModel, time: DateFormatter, dateTime: DateFormatter) -> String {
        let words = model.language.words
        let bottleField = panel.id.map { "<input type=\"hidden\" name=\"bottle\" value=\"\(escape($0))\">" } ?? ""
        var html = "<section class=\"bottle\" data-bottle=\"\(escape(panel.id ?? ""))\">\n<h2>\(escape(panel.title))</h2>\n"
        if let refusal = panel.refusal, refusal.isStuck {
            // A stuck bottle (docs/design.md 3.4): every later drink waits behind one chunk.
            html += "<p class=\"notice stuck\" role=\"alert\"><strong>\(escape(words.stuck))</strong> \(escape(words.stuckSince)) "
                + "\(escape(dateTime.string(from: Date(timeIntervalSince1970: refusal.since)))): \(escape(refusal.reason)). "
                + (panel.unsynced.map { "\($0) \(escape(words.waiting)). " } ?? "") + "\(escapeAdvice(SyncRefusal.advice))</p>\n"
        }
        if panel.quarantined > 0 {
            html += "<p class=\"notice quarantined\">\(escape(words.quarantined)): <span class=\"quarantined-count\">\(panel.quarantined)</span>, "
                + "\(escapeAdvice(words.quarantinedHelp))</p>\n"
        }
        html += "<div class=\"today\"><div class=\"gauge\">"
        html += Charts.gauge(valueML: panel.pace.dayTotalML, goalML: panel.goalML, caption: "\(words.ofGoal) \(panel.goalML) ml")
        html += "</div><dl>"
        html += "<dt>\(escape(words.today))</dt><dd class=\"today-ml\" data-ml=\"\(panel.pace.dayTotalML)\">\(panel.pace.dayTotalML) ml \(escape(words.ofGoal)) <span class=\"goal-ml\">\(panel.goalML)</span> ml</dd>"
        let urgencyClass = "urgency-\(panel.pace.urgency.rawValue.replacingOccurrences(of: "_", with: "-"))"
        html += "<dt>\(escape(words.urgency))</dt><dd class=\"urgency \(urgencyClass)\">\(escape(model.language.urgency(panel.pace.urgency)))"
        if panel.pace.displayedDeficitML > 0 { html += " · \(panel.pace.displayedDeficitML) ml \(escape(words.deficit))" }
        html += "<br><small>\(panel.pace.expectedML) ml \(escape(words.expectedByNow))</small></dd>"
        html += "<dt>\(escape(words.level))</dt><dd class=\"level\">\(panel.levelML.map { "\($0) ml" } ?? "–")</dd>"
        html += "<dt>\(escape(words.battery))</dt><dd class=\"battery\">\(panel.battery.map { "\($0)%" } ?? "–")</dd>"
        html += "<dt>\(escape(words.lastSync))</dt><dd class=\"last-sync\">\(panel.lastSync.map { escape(dateTime.string(from: Date(timeIntervalSince1970: $0))) } ?? escape(words.never))</dd>"
        html += "<dt>\(escape(words.streak))</dt><dd class=\"streak\">\(panel.goalStreak) \(escape(words.days))</dd>"
        html += "</dl></div>\n"
        // Today's curve against the pace line.
        let dayStart = model.today.interval(in: model.timeZone).start
        let intake = panel.drinks.filter { !$0.deleted }.map { (minute: Int((Double($0.timestamp) - dayStart) / 60), amountML: Int($0.amountML)) }
        let hydration = panel.hydration
        html += "<div class=\"chart curve\">" + Charts.dayCurve(drinks: intake, goalML: panel.goalML, settings: hydration,
                                                                 nowMinute: model.minuteOfDay, words: words) + "</div>\n"
        // Today's drinks, each with its delete form.
        html += "<h3>\(escape(words.drinksToday))</h3>\n"
        if panel.drinks.isEmpty {
            html += "<p class=\"empty\">\(escape(words.noDrinks))</p>\n"
        } else {
            html += "<table class=\"drinks\"><thead><tr><th>\(escape(words.time))</th><th>\(escape(words.amount))</th><th></th></tr></thead><tbody>\n"
            for drink in panel.drinks.reversed() {
                let when = escape(time.string(from: Date(timeIntervalSince1970: Double(drink.timestamp))))
                html += "<tr class=\"drink\(drink.deleted ? " deleted" : "")\" data-record=\"\(drink.recordID)\"><td>\(when)</td><td>\(drink.amountML) ml</td><td>"
                if !drink.deleted, panel.id != nil {
                    html += "<form method=\"post\" action=\"/actions/delete\">\(bottleField)<input type=\"hidden\" name=\"record_id\" value=\"\(drink.recordID)\"><button type=\"submit\" class=\"delete\">\(escape(words.delete))</button></form>"
                }
                html += "</td></tr>\n"
            }
            html += "</tbody></table>\n"
        }
        // Waiting commands.
        html += "<h3>\(escape(words.pending))</h3>\n"
        if panel.pending.isEmpty {
            html += "<p class=\"empty pending-none\">\(escape(words.noPending))</p>\n"
        } else {
            html += "<ul class=\"pending\">"
            for command in panel.pending {
                let summary = BottleAction(kind: command.command, argument: command.argument)?.summary ?? command.command
                html += "<li data-command=\"\(command.id)\">\(escape(summary)) (#\(command.id))</li>"
            }
            html += "</ul>\n"
        }
        // The goal.
        if panel.id != nil {
            html += "<form class=\"goal\" method=\"post\" action=\"/actions/goal\">\(bottleField)<label>\(escape(words.goal)) <input type=\"number\" name=\"goal_ml\" min=\"\(BottleGoal.rangeML.lowerBound)\" max=\"\(BottleGoal.rangeML.upperBound)\" step=\"1\" value=\"\(panel.goalML)\" required></label> <button type=\"submit\">\(escape(words.save))</button></form>\n"
        }
        // The days.
        let short = model.language.formatter("dMMM", model.timeZone)
        let label: (LocalDay) -> String = { day in short.string(from: Date(timeIntervalSince1970: day.interval(in: model.timeZone).start + 43_200)) }
        for span in [7, 30, 365] {
            let days = Array(panel.days.suffix(span))
            html += "<div class=\"chart bars\" data-days=\"\(span)\">" + Charts.bars(days: days, goalML: panel.goalML,
                title: String(format: words.lastDays, span), dateText: label) + "</div>\n"
        }
        return html + "</section>\n"
    }

    /// Reminders are the person's, not a bottle's: the status report's count, the ritual streak,
    /// and the daily limit's switch.
    private static func householdPanel(_ model: DashboardModel) -> String {
        let words = model.language.words
        let status = model.status
        var html = "<section class=\"household\"><h2>\(escape(words.household))</h2><dl>"
        let count = status.dailyLimit ? "\(status.remindersToday)/\(HydrationSettings.maxRemindersPerDay)" : "\(status.remindersToday)"
        html += "<dt>\(escape(words.remindersToday))</dt><dd class=\"reminders-today\">\(count)</dd>"
        if let streak = status.rules?.ritualStreak, streak > 0 {
            html += "<dt>\(escape(words.ritualStreak))</dt><dd class=\"ritual-streak\">\(streak) \(escape(words.days))</dd>"
        }
        html += "<dt>\(escape(words.dailyLimit))</dt><dd class=\"daily-limit\" data-on=\"\(status.dailyLimit)\">\(escape(status.dailyLimit ? words.limitOn : words.limitOff))</dd></dl>"
        html += "<form method=\"post\" action=\"/actions/daily-limit\">\(status.bottleID.map { "<input type=\"hidden\" name=\"bottle\" value=\"\(escape($0))\">" } ?? "")<input type=\"hidden\" name=\"enabled\" value=\"\(!status.dailyLimit)\"><button type=\"submit\" class=\"daily-limit-switch\">\(escape(status.dailyLimit ? words.switchOff : words.switchOn))</button></form>"
        return html + "</section>\n"
    }

    /// The document's head: the page is readable from 320 px up (one column on a phone, two from
    /// 900 px), and declares it loads nothing from anywhere.
    static func head(title: String, language: WebLanguage) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(language.rawValue)"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
        <title>\(escape(title))</title>
        <style>
        body{font-family:system-ui,sans-serif;margin:0;background:#f6f8fa;color:#1f2328}
        header{grid-column:1/-1;border-radius:8px;padding:12px 16px;background:#0969da;color:#fff}header h1{margin:0;font-size:1.4em}.date{margin:2px 0 0}
        main{display:grid;grid-template-columns:1fr;gap:12px;padding:12px;max-width:1400px;margin:auto}
        @media(min-width:900px){main{grid-template-columns:1fr 1fr}}
        section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:12px;min-width:0}
        h2{margin:0 0 8px;font-size:1.2em}h3{font-size:1em;margin:14px 0 6px}
        .today{display:flex;flex-wrap:wrap;gap:12px;align-items:center}.gauge{width:180px}
        dl{display:grid;grid-template-columns:auto 1fr;gap:4px 10px;margin:0}dt{color:#57606a}dd{margin:0}
        .chart svg{width:100%;height:auto;display:block}.chart{margin-top:8px}
        table{width:100%;border-collapse:collapse}td,th{padding:4px;text-align:left;border-bottom:1px solid #eaeef2}
        tr.deleted td{text-decoration:line-through;color:#8c959f}
        .urgency-on-track{color:#1a7f37}.urgency-attention{color:#9a6700}.urgency-overdue{color:#cf222e;font-weight:bold}
        button{font:inherit;padding:4px 10px;border-radius:6px;border:1px solid #8c959f;background:#f6f8fa}
        input[type=number]{width:6em;font:inherit}
        .notice{background:#fff8c5;border:1px solid #d4a72c;padding:8px 12px;margin:12px;border-radius:6px}
        .notice code{background:#fff;padding:0 3px;border-radius:3px;overflow-wrap:anywhere}
        </style></head><body><main>

        """
    }
}
