// What comes back from sinks: a person asking the bridge for something (an MQTT command, a Home
// Assistant switch, a tapped notification button). The daemon applies it; sinks only parse.

package enum SinkCommand: Sendable, Equatable {
    /// `config set KEY VALUE` (docs/design.md 3.1); the value is text, validated by the daemon.
    case configSet(key: String, value: String)
    /// A manual intake, `log TYPE` (docs/reminders.md 3), e.g. `vitamin-d`; `bottle` (serial or
    /// address) names whose person took it (docs/design.md 6), from the payload or the bottle's
    /// own command topic; nil: the most recently adopted bottle's.
    case log(type: String, bottle: String? = nil)
    /// A notification's button was tapped (docs/reminders.md 1, "Actions").
    case action(notificationID: String, actionID: String)
    /// A bottle command (docs/design.md 3.5), queued by the bridge through the same checks as the CLI.
    case bottle(SinkBottleCommand)
    /// The same for one bottle of several (docs/design.md 6): it came on that bottle's command
    /// topic; `bottle` is its serial or address.
    case bottleOf(SinkBottleCommand, bottle: String)
}

/// What Home Assistant's goal number, tare button and shake-to-empty switch, and the delete
/// command, ask of the bottle.
package enum SinkBottleCommand: Sendable, Equatable {
    case goal(Int)
    case delete(recordID: Int)
    /// The newest drink that still counts (Home Assistant's "Delete last drink" button): which
    /// one is decided by the bridge when the command arrives.
    case deleteLast
    case tare
    case shakeToEmpty(Bool)

    /// The command's name in results: as on the CLI.
    package var name: String {
        switch self {
        case .goal: return "goal"
        case .delete, .deleteLast: return "delete"
        case .tare: return "tare"
        case .shakeToEmpty: return "shake-to-empty"
        }
    }
}
