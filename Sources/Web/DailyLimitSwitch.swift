// A person's "Switch off / Switch on" of the daily limit (docs/design.md 3.6): it changes the
// limit of the bottle whose panel holds the switch, and of no other. It writes that bottle's own
// `bottle.<ID>.reminders.daily_limit` (the key it has, when it has one; else a new one under its
// id): writing the global key for a bottle that has none would switch every other bottle that has
// none too, the limit of a person the parent was not looking at.

import History
import Reminding
import Settings

enum DailyLimitSwitch {
    static func set(_ on: Bool, bottle name: String, context: WebContext) throws {
        guard let bottle = try context.history.bottles.bottle(named: name) else {
            throw WebError.unprocessable("no bottle \(name) is known to this bridge")
        }
        let view = BottleView.settings(of: bottle, configuration: try context.configuration(), history: context.history)
        let inEffect = view.dailyLimitKey
        let key = inEffect == Setting.dailyLimit.name
            ? SettingCatalog.bottleKeyName(bottle: bottle.id, base: Setting.dailyLimit.name) : inEffect
        try SettingChange(named: key, String(on)).store(in: context.history.settings)
    }
}
