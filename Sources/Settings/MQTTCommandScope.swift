// Which commands from the broker's command topic the bridge obeys (`mqtt.commands`). On a home
// broker any login may publish on `aquavate/<id>/command`, and the household key does not sign
// commands (Home Assistant cannot), so what a command may do is a capability the owner grants:
//
//   none      nothing: the bridge takes no command from the broker
//   controls  exactly what the Home Assistant entities send: the bottle's goal number, the
//             reminders and daily-limit switches, shake-to-empty, tare, and "delete last drink"
//   all       also any of the person's settings, any record id, manual intakes and
//             notification buttons (the bridge's whole command language)

package enum MQTTCommandScope: String, CaseIterable, Sendable {
    case none
    case controls
    case all
}
