// The page in the person's language: the languages of the message pools (`messages.locale`,
// English and Spanish), with dates and times in their local form and the person's time zone.

import Foundation
import Reminders

enum WebLanguage: String, Sendable, CaseIterable {
    case en, es

    var locale: Locale { Locale(identifier: self == .en ? "en_GB" : "es_ES") }

    /// The page's words. One table per language, so a missing word is a compile error.
    var words: WebWords { self == .en ? .english : .spanish }

    /// `14:05`, `Monday 24 November`, `24 Nov` in the language and `timeZone`.
    func formatter(_ template: String, _ timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }

    /// Urgency in words (docs/reminders.md 2.2).
    func urgency(_ urgency: Urgency) -> String {
        switch (self, urgency) {
        case (.en, .onTrack): return "on track"
        case (.en, .attention): return "falling behind"
        case (.en, .overdue): return "overdue"
        case (.es, .onTrack): return "al día"
        case (.es, .attention): return "algo atrasado"
        case (.es, .overdue): return "muy atrasado"
        }
    }
}

struct WebWords: Sendable {
    var title, today, ofGoal, expectedByNow, urgency, level, battery, lastSync, never, drinksToday, noDrinks,
        delete, lastDays, remindersToday, streak, days, pending, noPending, setGoal, goal, save, dailyLimit,
        limitOn, limitOff, switchOff, switchOn, household, deficit, time, amount, pace, intake, login, token,
        logIn, wrongToken, back, ritualStreak, refused, stuck, stuckSince, waiting, quarantined, quarantinedHelp: String

    static let english = WebWords(
        title: "Aquavate", today: "Today", ofGoal: "of", expectedByNow: "expected by now", urgency: "Pace",
        level: "Bottle level", battery: "Battery", lastSync: "Last sync", never: "never", drinksToday: "Today's drinks",
        noDrinks: "No drinks yet today.", delete: "Delete", lastDays: "Last %d days", remindersToday: "Reminders today",
        streak: "Goal streak", days: "days", pending: "Waiting for the bottle", noPending: "Nothing waiting for the bottle.",
        setGoal: "Daily goal", goal: "Goal (ml)", save: "Set goal", dailyLimit: "Daily reminder limit",
        limitOn: "At most 12 reminders a day.", limitOff: "No daily limit on reminders.", switchOff: "Switch off",
        switchOn: "Switch on", household: "Reminders", deficit: "behind", time: "Time", amount: "Amount",
        pace: "pace", intake: "intake", login: "Log in", token: "Web token", logIn: "Log in",
        wrongToken: "That is not this bridge's web token.", back: "Back to the dashboard", ritualStreak: "Ritual streak",
        refused: "Not done", stuck: "This bottle is stuck", stuckSince: "since",
        waiting: "drinks wait on the bottle", quarantined: "Records that cannot be drinks",
        quarantinedHelp: "kept aside and not counted; `aquavate-bridge history --quarantined` lists them, `bottle restore` or `bottle discard` resolves each")

    static let spanish = WebWords(
        title: "Aquavate", today: "Hoy", ofGoal: "de", expectedByNow: "lo esperado a esta hora", urgency: "Ritmo",
        level: "Nivel de la botella", battery: "Batería", lastSync: "Última sincronización", never: "nunca",
        drinksToday: "Tragos de hoy", noDrinks: "Aún no has bebido hoy.", delete: "Borrar", lastDays: "Últimos %d días",
        remindersToday: "Recordatorios hoy", streak: "Racha de objetivo", days: "días", pending: "Pendiente para la botella",
        noPending: "Nada pendiente para la botella.", setGoal: "Objetivo diario", goal: "Objetivo (ml)", save: "Fijar objetivo",
        dailyLimit: "Límite diario de recordatorios", limitOn: "Como mucho 12 recordatorios al día.",
        limitOff: "Sin límite diario de recordatorios.", switchOff: "Desactivar", switchOn: "Activar", household: "Recordatorios",
        deficit: "por debajo", time: "Hora", amount: "Cantidad", pace: "ritmo", intake: "bebido", login: "Entrar",
        token: "Clave web", logIn: "Entrar", wrongToken: "Esa no es la clave web de este puente.", back: "Volver al panel",
        ritualStreak: "Racha de rituales", refused: "No se hizo", stuck: "Esta botella está atascada", stuckSince: "desde",
        waiting: "tragos esperan en la botella", quarantined: "Registros que no pueden ser tragos",
        quarantinedHelp: "apartados y sin contar; `aquavate-bridge history --quarantined` los lista, `bottle restore` o `bottle discard` resuelve cada uno")
}
