// What comes back from sinks: a person asking the bridge for something (an MQTT command, a Home
// Assistant switch, a tapped notification button). The daemon applies it; sinks only parse.

public enum SinkCommand: Sendable, Equatable {
    /// `config set KEY VALUE` (docs/design.md 3.1); the value is text, validated by the daemon.
    case configSet(key: String, value: String)
    /// A manual intake, `log TYPE` (docs/reminders.md 3), e.g. `vitamin-d`.
    case log(type: String)
    /// A notification's button was tapped (docs/reminders.md 1, "Actions").
    case action(notificationID: String, actionID: String)
}
