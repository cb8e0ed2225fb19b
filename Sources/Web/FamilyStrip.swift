// The family strip at the top of `/`: one row per person, the one who most needs a drink first,
// so that "is everyone on track?" is answered on the first screen of a phone without scrolling
// past anyone's charts. A row says the person's name, today against their goal ("450 / 1400 ml"),
// the urgency as a colour and a word (never the colour alone), their next reminder, and links to
// their panel below.

import Foundation
import Reminders

enum FamilyStrip {
    /// How much a panel's person needs a drink now: overdue before falling behind before on track,
    /// the larger deficit first within a level; a person whose bottle has brought no drink yet
    /// comes last (nothing is known of their day).
    static func byNeed(_ panels: [(index: Int, panel: BottlePanel)]) -> [(index: Int, panel: BottlePanel)] {
        panels.sorted { a, b in
            let (x, y) = (a.panel, b.panel)
            if x.isNew != y.isNew { return y.isNew }
            if x.pace.urgency != y.pace.urgency { return x.pace.urgency > y.pace.urgency }
            if x.pace.displayedDeficitML != y.pace.displayedDeficitML { return x.pace.displayedDeficitML > y.pace.displayedDeficitML }
            return (x.person, a.index) < (y.person, b.index)
        }
    }

    /// Nothing for one person: their panel is right below.
    static func render(_ model: DashboardModel) -> String {
        guard model.panels.count > 1 else { return "" }
        let words = model.language.words
        var html = "<nav class=\"family\" aria-label=\"\(escape(words.family))\"><ul>"
        for (index, panel) in byNeed(Array(model.panels.enumerated()).map { ($0.offset, $0.element) }) {
            let state: String
            let urgencyClass: String
            if panel.isNew {
                state = words.noDataYet
                urgencyClass = "urgency-none"
            } else {
                state = model.language.urgency(panel.pace.urgency)
                urgencyClass = DashboardPage.urgencyClass(panel.pace.urgency)
            }
            html += "<li class=\"person c\(panel.colour)\"><a href=\"#p\(index)\"><span class=\"line\"><span class=\"who\">\(escape(panel.person))</span>"
                + "<span class=\"amount\">\(panel.pace.dayTotalML) / \(panel.view.shownGoalML) ml</span></span>"
                + "<span class=\"line\"><span class=\"state \(urgencyClass)\">\(escape(state))</span>"
                + "<span class=\"next\">\(escape(DashboardPage.nextReminderShort(panel.nextReminder, words: words)))</span></span></a></li>"
        }
        return html + "</ul></nav>\n"
    }
}
