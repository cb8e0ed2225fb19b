// The page's "Switch off / Switch on" of the daily limit (docs/design.md 3.6): it changes the
// setting in effect for the bottle the page shows — its own `bottle.<ID>.reminders.daily_limit`
// when it has one, else the global key — so that the page then shows what it switched, and a
// bottle's own switch never flips every other bottle's.

import History
import Reminding
import Settings

enum DailyLimitSwitch {
    static func set(_ on: Bool, bottle name: String?, context: WebContext) throws {
        let bottle: BottleRecord?
        if let name {
            guard let known = try context.history.bottle(named: name) else {
                throw WebError.unprocessable("no bottle \(name) is known to this bridge")
            }
            bottle = known
        } else {
            bottle = nil
        }
        let view = BottleView.settings(of: bottle, configuration: try context.configuration(), history: context.history)
        try context.history.setSetting(view.dailyLimitKey, Setting.dailyLimit.entry.normalize(String(on)))
    }
}
