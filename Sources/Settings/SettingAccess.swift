// Who may change a setting. The bridge's own command line and config file may change
// anything. A sink (the MQTT command topic, where every login of a Home Assistant broker may
// publish, and the bottle's id is broadcast) may change only the person's own settings: stored
// settings override the file, so a URL, a path or a secret set from there would redirect the
// push token, publish the lines of any readable file, or move the bridge to another broker.


package enum SettingAccess: Sendable, Equatable {
    /// The person's settings: reminders, goal, time zone, messages on/off, deadline, rituals.
    case person
    /// Everything that says where data goes or comes from: local changes only.
    case installation
}

extension SettingCatalog {
    /// Nil when a sink may set `key` to `value`; else why not, in one line that never repeats a
    /// secret value.
    package static func refusalFromSink(key: String, value: String) -> String? {
        let setting: SettingKey
        do {
            setting = try requireKey(key)
        } catch {
            return error.description
        }
        guard setting.access == .person else {
            return "\(key) cannot be changed from outside the bridge (only the person's settings can: "
                + "reminders, goal, time zone, messages, deadline, rituals); use `aquavate-bridge config set` on the bridge"
        }
        do {
            _ = try setting.normalize(value)
        } catch {
            return error.description
        }
        return nil
    }
}
