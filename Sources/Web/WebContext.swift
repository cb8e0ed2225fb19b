// What the web server serves from: the history, the configuration as it stands now (the file and
// `--set` fixed at start, the stored settings read again for every request, so `config set` and
// the page's own switches show at once), the clock, and the daemon's sync tally when it runs beside
// one.

import Foundation
import History
import Reports
import Settings
import Timekeeping

package struct WebContext: Sendable {
    package let history: DrinkHistory
    /// The configuration of the file and `--set`, without the stored settings.
    package let baseConfiguration: Configuration
    package let clock: any WallClock
    /// Syncs counted by the daemon this process runs (`run --http`); nil for `serve`.
    package let syncs: SyncTally?
    /// Told the bottle's key when a form or the API added or deleted a drink of it, so that the
    /// daemon this process runs counts it in that person's reminders and Home Assistant state at
    /// once (its reminders re-read the day only when told the history changed); nil for `serve`.
    package let drinksChanged: (@Sendable (String) -> Void)?

    package init(history: DrinkHistory, baseConfiguration: Configuration, clock: any WallClock, syncs: SyncTally? = nil,
                drinksChanged: (@Sendable (String) -> Void)? = nil) {
        self.history = history
        self.baseConfiguration = baseConfiguration
        self.clock = clock
        self.syncs = syncs
        self.drinksChanged = drinksChanged
    }

    /// The configuration now: the base with the settings stored in the history.
    package func configuration() throws -> Configuration {
        var configuration = baseConfiguration
        configuration.useStoredValues(try history.settings.all())
        return configuration
    }

    /// The person's language for the page: `messages.locale` (the message pools' languages).
    func language(_ configuration: Configuration) -> WebLanguage {
        WebLanguage(configuration[Setting.messagesLocale])
    }
}
