// Which commands from outside a sink may hand on: whoever may publish on the MQTT command topic
// — on a Home Assistant broker, every login — is not the person at the bridge.
// The daemon builds its gate from the setting catalog: the person's own settings may change,
// never a URL, a path, a secret or the bottle and adapter. The sink asks the gate before the
// command goes anywhere, so a refusal can be answered where the command came from.

public struct SinkCommandGate: Sendable {
    /// Nil when the command may go on; else why not, in one line that never repeats a secret.
    public let refusal: @Sendable (SinkCommand) -> String?

    public init(refusal: @escaping @Sendable (SinkCommand) -> String?) {
        self.refusal = refusal
    }

    /// Logging, actions and button presses pass; no setting may change. What a sink gets when it
    /// is not told better, so that forgetting the gate can only refuse too much.
    public static let noSettings = SinkCommandGate { command in
        guard case let .configSet(key, _) = command else { return nil }
        return "\(key) cannot be changed from outside the bridge"
    }
}
