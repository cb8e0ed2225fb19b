// Which commands from outside a sink may hand on: whoever may publish on the MQTT command topic
// — on a Home Assistant broker, every login — is not the person at the bridge.
// The daemon builds its gate from `mqtt.commands` and the setting catalog: by default only what
// Home Assistant's entities send, and of the settings only the person's own, never a URL, a path,
// a secret or the bottle and adapter. The sink asks the gate before the command goes anywhere,
// so a refusal can be answered where the command came from.

package struct SinkCommandGate: Sendable {
    /// Nil when the command may go on; else why not: a reason for the wire and the count, and one
    /// line for people that never repeats a secret.
    package let refusal: @Sendable (SinkCommand) -> SinkCommandRefusal?

    package init(refusal: @escaping @Sendable (SinkCommand) -> SinkCommandRefusal?) {
        self.refusal = refusal
    }

    /// Logging, actions and button presses pass; no setting may change. What a sink gets when it
    /// is not told better, so that forgetting the gate can only refuse too much.
    package static let noSettings = SinkCommandGate { command in
        guard case let .configSet(key, _) = command else { return nil }
        return SinkCommandRefusal(.setting, "\(key) cannot be changed from outside the bridge")
    }
}

/// Why a command from outside was refused, and the line that says so.
package struct SinkCommandRefusal: Sendable, Equatable, Error, CustomStringConvertible {
    package let reason: SinkCommandRefusalReason
    package let message: String

    package init(_ reason: SinkCommandRefusalReason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    package var description: String { message }
}

/// Why a command was refused, as `reason` on `…/command/result` and the label of
/// `aquavate_mqtt_refused_commands_total{reason}`.
package enum SinkCommandRefusalReason: String, CaseIterable, Sendable, Codable {
    /// `mqtt.commands` does not grant this command (none, or controls and not a control).
    case notPermitted = "not_permitted"
    /// A setting the broker may not change (not the person's), or a value it does not take.
    case setting
    /// Over the rate limit.
    case rateLimit = "rate_limit"
    /// Longer than any command.
    case tooLong = "too_long"
    /// Not a command: not UTF-8, not JSON, an unknown name or a malformed argument.
    case malformed
}
