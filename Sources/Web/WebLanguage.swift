// The page in the person's language: the languages of the message pools (`messages.locale`,
// English and Spanish), with dates and times in their local form and the person's time zone.

import Foundation
import Reminders

enum WebLanguage: String, Sendable, CaseIterable {
    case en, es

    /// The page's language for the message pools' (`messages.locale`): case for case, so a
    /// language added to one and not the other is a compile error, not a silent English page.
    init(_ locale: MessageLocale) {
        switch locale {
        case .en: self = .en
        case .es: self = .es
        }
    }

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

    /// A whole number as the language writes it: "1,523" in English.
    func number(_ value: Int) -> String {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = .decimal
        return formatter.string(from: NSNumber(value: value)) ?? String(value)
    }

    /// Urgency in words (docs/reminders.md 2.2), about a person: the sentence after it says how
    /// far behind, so none of them says "behind" itself.
    func urgency(_ urgency: Urgency) -> String {
        switch (self, urgency) {
        case (.en, .onTrack): return "on track"
        case (.en, .attention): return "needs a drink"
        case (.en, .overdue): return "overdue"
        case (.es, .onTrack): return "al día"
        case (.es, .attention): return "algo atrasado"
        case (.es, .overdue): return "muy atrasado"
        }
    }
}

struct WebWords: Sendable {
    var title, today, ofGoal, expectedByNow, urgency, level, battery, lastSync, never, drinksToday, noDrinks,
        delete, lastDays, remindersToday, streak, pending, noPending, setGoal, goal, save, dailyLimit,
        limitOn, limitOff, switchOff, switchOn, household, time, amount, pace, intake, login, token,
        logIn, logOut, wrongToken, back, ritualStreak, refused, stuck, stuckSince, waiting, quarantined, quarantinedHelp: String
    var updated, nextReminder, remindersOff, noReminderGoalMet, noReminderDue, reminderDueNow, undo, restored, undoTooLate, undoShared,
        deleteRefused, actionRefused, goalMet, belowGoal, soFar, goalLine, lastYear, perDay, notFound, notFoundText,
        somethingWrong, bottleWord, sending, tare, liveUpdates, noScript, goalWaiting: String
    var family, noDataYet, reminderDueNowShort, stillFilling, olderCharts, bottleName, noData, monthSoFar: String
    /// The form that adds a drink the bottle did not measure, and the mark of such a drink.
    var addDrink, addDrinkButton, volume, byHand, drinkRefused, manualDeleted: String
    /// "Added 250 ml at 14:05."
    var drinkAdded: @Sendable (_ amount: String, _ time: String) -> String
    /// "1 day", "2 days".
    var dayCount: @Sendable (Int) -> String
    /// "3 more drinks today".
    var moreDrinks: @Sendable (Int) -> String
    /// "Delete 250 ml at 14:05".
    var deleteDrink: @Sendable (_ amount: String, _ time: String) -> String
    /// "Deleted 250 ml at 14:05: the bottle forgets it at its next sync."
    var deleted: @Sendable (_ amount: String, _ time: String) -> String
    /// "around 17:20 if Leo does not drink": about the person, whom the reader may not be.
    var nextReminderAt: @Sendable (_ time: String, _ person: String) -> String
    /// "reminder around 17:20" (the family strip).
    var reminderAround: @Sendable (String) -> String
    /// "Leo is 668 ml behind".
    var behind: @Sendable (_ person: String, _ ml: Int) -> String
    /// A person whose bottle has brought no drink yet: what to do.
    var syncTheBottle: @Sendable (_ person: String) -> String
    /// "5 of 7 days met · average 1,523 ml".
    var weekSummary: @Sendable (_ met: Int, _ days: Int, _ average: String) -> String
    /// "Bottle goal 2300 ml": a goal command waiting for the bottle (what its display will show).
    var goalCommand: @Sendable (Int) -> String
    /// "Daily goal 5000 ml; the bottle shows 4000 ml, the most it holds." (daily goal, bottle's goal)
    var goalSet: @Sendable (_ daily: Int, _ bottle: Int) -> String
    /// "25000 ml is not a daily goal: give 1 to 20000 ml."
    var goalRefused: @Sendable (Int, ClosedRange<Int>) -> String
    /// "the bottle shows 2500 ml": its display's goal, beside a daily goal that differs.
    var bottleShows: @Sendable (Int) -> String
    var shakeToEmpty: @Sendable (Bool) -> String

    static let english = WebWords(
        title: "Aquavate", today: "Today", ofGoal: "of", expectedByNow: "expected by now", urgency: "Pace",
        level: "Bottle level", battery: "Battery", lastSync: "Last sync", never: "never", drinksToday: "Today's drinks",
        noDrinks: "No drinks yet today.", delete: "Delete", lastDays: "Last %d days", remindersToday: "Reminders today",
        streak: "Goal streak", pending: "Waiting for the bottle", noPending: "Nothing waiting for the bottle.",
        setGoal: "Daily goal", goal: "Daily goal (ml)", save: "Set goal", dailyLimit: "Daily reminder limit",
        limitOn: "At most 12 reminders a day.", limitOff: "No daily limit on reminders.", switchOff: "Switch off",
        switchOn: "Switch on", household: "Reminders", time: "Time", amount: "Amount",
        pace: "pace", intake: "drunk", login: "Log in", token: "Web token", logIn: "Log in", logOut: "Log out",
        wrongToken: "That is not this bridge's web token.", back: "Back to the dashboard", ritualStreak: "Ritual streak",
        refused: "Not done", stuck: "This bottle is stuck", stuckSince: "since",
        waiting: "drinks wait on the bottle", quarantined: "Records that cannot be drinks",
        quarantinedHelp: "kept aside and not counted; `aquavate-bridge history --quarantined` lists them, `bottle restore` or `bottle discard` resolves each",
        updated: "Updated", nextReminder: "Next reminder", remindersOff: "reminders are off",
        noReminderGoalMet: "none: the goal is met", noReminderDue: "none due today", reminderDueNow: "due now",
        undo: "Undo", restored: "The drink is back.", undoTooLate: "Too late to undo: the bottle has already deleted that drink.",
        undoShared: "This bridge shares its drinks with a household, which already has the delete: it cannot be undone here.",
        deleteRefused: "That drink could not be deleted: it is already deleted or no longer in the history.",
        actionRefused: "That could not be done: the page was out of date. Try again.",
        goalMet: "goal met", belowGoal: "below the goal", soFar: "today, so far", goalLine: "goal",
        lastYear: "Last 12 months, ml a day on average", perDay: "ml a day", notFound: "Not found",
        notFoundText: "There is no page at this address.", somethingWrong: "That did not work",
        bottleWord: "Bottle", sending: "being sent", tare: "Tare (empty bottle)",
        liveUpdates: "The page updates itself when a sync brings drinks.", noScript: "Reload the page to see new drinks.",
        goalWaiting: "the bottle takes it at its next sync",
        family: "Family", noDataYet: "no drinks yet", reminderDueNowShort: "reminder due now",
        stillFilling: "today or this month, so far", olderCharts: "30 days and 12 months", bottleName: "Name", noData: "no data", monthSoFar: "this month, so far",
        addDrink: "A drink the bottle did not measure", addDrinkButton: "Add drink", volume: "Amount (ml)", byHand: "added by hand",
        drinkRefused: "That drink was not added: give 1 to 5000 ml, at a time that has passed.",
        manualDeleted: "The drink added by hand is deleted.",
        drinkAdded: { "Added \($0) at \($1)." },
        dayCount: { $0 == 1 ? "1 day" : "\($0) days" },
        moreDrinks: { $0 == 1 ? "1 more drink today" : "\($0) more drinks today" },
        deleteDrink: { "Delete \($0) at \($1)" },
        deleted: { "Deleted \($0) at \($1): the bottle forgets it at its next sync." },
        nextReminderAt: { "around \($0) if \($1) does not drink" },
        reminderAround: { "reminder around \($0)" },
        behind: { "\($0) is \($1) ml behind" },
        syncTheBottle: { "No drinks for \($0) yet. They show here after the bottle's next sync: take it near the bridge and pick it up." },
        weekSummary: { "\($0) of \($1) days met · average \($2) ml" },
        goalCommand: { "Bottle goal \($0) ml" },
        goalSet: { daily, bottle in
            daily == bottle ? "Daily goal \(daily) ml; the bottle shows it from its next sync."
                : "Daily goal \(daily) ml; the bottle shows \(bottle) ml, the \(daily > bottle ? "most" : "least") it holds."
        },
        goalRefused: { "\($0) ml is not a daily goal: give \($1.lowerBound) to \($1.upperBound) ml." },
        bottleShows: { "the bottle shows \($0) ml" },
        shakeToEmpty: { $0 ? "Shake to empty: on" : "Shake to empty: off" })

    static let spanish = WebWords(
        title: "Aquavate", today: "Hoy", ofGoal: "de", expectedByNow: "lo esperado a esta hora", urgency: "Ritmo",
        level: "Nivel de la botella", battery: "Batería", lastSync: "Última sincronización", never: "nunca",
        drinksToday: "Tragos de hoy", noDrinks: "Aún no hay tragos hoy.", delete: "Borrar", lastDays: "Últimos %d días",
        remindersToday: "Recordatorios hoy", streak: "Racha de objetivo", pending: "Pendiente para la botella",
        noPending: "Nada pendiente para la botella.", setGoal: "Objetivo diario", goal: "Objetivo diario (ml)", save: "Fijar objetivo",
        dailyLimit: "Límite diario de recordatorios", limitOn: "Como mucho 12 recordatorios al día.",
        limitOff: "Sin límite diario de recordatorios.", switchOff: "Desactivar", switchOn: "Activar", household: "Recordatorios",
        time: "Hora", amount: "Cantidad", pace: "ritmo", intake: "bebido", login: "Entrar",
        token: "Clave web", logIn: "Entrar", logOut: "Salir", wrongToken: "Esa no es la clave web de este puente.", back: "Volver al panel",
        ritualStreak: "Racha de rituales", refused: "No se hizo", stuck: "Esta botella está atascada", stuckSince: "desde",
        waiting: "tragos esperan en la botella", quarantined: "Registros que no pueden ser tragos",
        quarantinedHelp: "apartados y sin contar; `aquavate-bridge history --quarantined` los lista, `bottle restore` o `bottle discard` resuelve cada uno",
        updated: "Actualizado", nextReminder: "Próximo recordatorio", remindersOff: "recordatorios desactivados",
        noReminderGoalMet: "ninguno: objetivo cumplido", noReminderDue: "ninguno más hoy", reminderDueNow: "ya toca",
        undo: "Deshacer", restored: "El trago ha vuelto.", undoTooLate: "Demasiado tarde para deshacer: la botella ya borró ese trago.",
        undoShared: "Este puente comparte sus tragos con un hogar, que ya tiene el borrado: no se puede deshacer aquí.",
        deleteRefused: "No se pudo borrar ese trago: ya está borrado o ya no está en el historial.",
        actionRefused: "No se pudo hacer: la página estaba desactualizada. Inténtalo de nuevo.",
        goalMet: "objetivo cumplido", belowGoal: "por debajo del objetivo", soFar: "hoy, hasta ahora", goalLine: "objetivo",
        lastYear: "Últimos 12 meses, ml al día de media", perDay: "ml al día", notFound: "No encontrado",
        notFoundText: "No hay ninguna página en esta dirección.", somethingWrong: "No funcionó",
        bottleWord: "Botella", sending: "enviándose", tare: "Tara (botella vacía)",
        liveUpdates: "La página se actualiza sola cuando una sincronización trae tragos.", noScript: "Recarga la página para ver tragos nuevos.",
        goalWaiting: "la botella lo toma en su próxima sincronización",
        family: "Familia", noDataYet: "aún sin tragos", reminderDueNowShort: "recordatorio ya",
        stillFilling: "hoy o este mes, hasta ahora", olderCharts: "30 días y 12 meses", bottleName: "Nombre", noData: "sin datos", monthSoFar: "este mes, hasta ahora",
        addDrink: "Un trago que la botella no midió", addDrinkButton: "Añadir trago", volume: "Cantidad (ml)", byHand: "añadido a mano",
        drinkRefused: "No se añadió ese trago: da de 1 a 5000 ml, a una hora que ya pasó.",
        manualDeleted: "El trago añadido a mano está borrado.",
        drinkAdded: { "Añadido \($0) a las \($1)." },
        dayCount: { $0 == 1 ? "1 día" : "\($0) días" },
        moreDrinks: { $0 == 1 ? "1 trago más hoy" : "\($0) tragos más hoy" },
        deleteDrink: { "Borrar \($0) de las \($1)" },
        deleted: { "Borrado \($0) de las \($1): la botella lo olvida en su próxima sincronización." },
        nextReminderAt: { "hacia las \($0) si \($1) no bebe" },
        reminderAround: { "recordatorio hacia las \($0)" },
        behind: { "\($0) va \($1) ml por detrás" },
        syncTheBottle: { "Aún no hay tragos de \($0). Aparecen aquí tras la próxima sincronización de la botella: acércala al puente y levántala." },
        weekSummary: { "\($0) de \($1) días cumplidos · media \($2) ml" },
        goalCommand: { "Objetivo de la botella \($0) ml" },
        goalSet: { daily, bottle in
            daily == bottle ? "Objetivo diario \(daily) ml; la botella lo muestra desde su próxima sincronización."
                : "Objetivo diario \(daily) ml; la botella muestra \(bottle) ml, lo \(daily > bottle ? "máximo" : "mínimo") que admite."
        },
        goalRefused: { "\($0) ml no es un objetivo diario válido: da de \($1.lowerBound) a \($1.upperBound) ml." },
        bottleShows: { "la botella muestra \($0) ml" },
        shakeToEmpty: { $0 ? "Agitar para vaciar: sí" : "Agitar para vaciar: no" })
}
