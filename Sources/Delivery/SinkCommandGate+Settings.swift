// The gate the daemon gives its sinks: what `mqtt.commands` grants, and of the settings only the
// person's own (SettingAccess). Here rather than beside `refusalFromSink`, so that the
// configuration knows nothing of the sinks.
//
// `controls` is exactly what the Home Assistant entities publish (HomeAssistantDiscovery): the
// goal number (`{"goal": N}`), the reminders and daily-limit switches (`reminders.enabled` and
// `reminders.daily_limit`, true or false), the shake-to-empty switch, the tare button and the
// delete-last-drink button. A record id, any other setting, a manual intake or a notification's
// button needs `all`: the household key signs none of these (Home Assistant cannot), so on a
// broker any login may send them, and only the owner can decide that every login may.

import Settings
import Sinks

extension SettingCatalog {
    /// The settings Home Assistant's switches change, with the values they send.
    static let controlSwitches: Set<String> = [Setting.remindersEnabled.name, Setting.dailyLimit.name]

    /// The gate the daemon gives its sinks under `scope`.
    package static func sinkCommandGate(_ scope: MQTTCommandScope) -> SinkCommandGate {
        SinkCommandGate { command in
            switch scope {
            case .none:
                return SinkCommandRefusal(.notPermitted, "mqtt.commands is none: this bridge takes no command from the broker; "
                    + "`aquavate-bridge config set mqtt.commands controls` on the bridge allows Home Assistant's controls")
            case .controls:
                guard isControl(command) else {
                    return SinkCommandRefusal(.notPermitted, "mqtt.commands is controls: only Home Assistant's controls "
                        + "(goal, reminders and daily-limit switches, shake-to-empty, tare, delete last) are taken from the broker; "
                        + "`aquavate-bridge config set mqtt.commands all` on the bridge allows the rest")
                }
            case .all:
                break
            }
            guard case let .configSet(key, value) = command else { return nil }
            return refusalFromSink(key: key, value: value).map { SinkCommandRefusal(.setting, $0) }
        }
    }

    /// Whether a Home Assistant entity of this bridge sends `command`.
    static func isControl(_ command: SinkCommand) -> Bool {
        switch command {
        case let .configSet(key, value):
            return controlSwitches.contains(key) && (value == "true" || value == "false")
        case let .bottle(request), let .bottleOf(request, _):
            switch request {
            case .goal, .deleteLast, .tare, .shakeToEmpty: return true
            case .delete: return false
            }
        case .log, .action:
            return false
        }
    }
}
