// What every bottle's reminder settings take from outside the configuration: the schedules
// `aquavate-bridge schedule add` stored in the history, and the lines of the `messages.pool` file.
// Neither is a bottle's own setting (`bottle.<ID>.<key>` cannot name them), so a request that shows
// several bottles (the page, `/metrics`, `status`) reads them once, not once per bottle.

import Foundation
import History
import Settings

package struct SharedRuleInputs: Sendable {
    /// The stored schedule tables, ordered by id (`StoredSchedules`).
    package let storedSchedules: [[String: String]]
    /// One line per schedule an earlier version kept that could not be read (`StoredSchedules`).
    let unreadSchedules: [String]
    /// The pool file's messages, or why they could not be used; nil when no pool file is set.
    let userPool: Result<[String], PoolFileError>?

    /// Reads the stored schedules from `history` and the pool file `configuration` names.
    package init(configuration: Configuration, history: DrinkHistory) {
        let (tables, warnings) = StoredSchedules.tablesAndWarnings(in: history.schedules)
        self.init(configuration: configuration, storedSchedules: tables, unreadSchedules: warnings)
    }

    /// With the stored schedules already known (replay keeps its own); reads the pool file.
    package init(configuration: Configuration, storedSchedules: [[String: String]], unreadSchedules: [String] = []) {
        self.storedSchedules = storedSchedules
        self.unreadSchedules = unreadSchedules
        userPool = configuration[Setting.messagesPool].map { path in Result { () throws(PoolFileError) in try configuration.readPool(path) } }
    }
}
