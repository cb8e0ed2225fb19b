// Who may change a setting and what is never shown: the catalog's allow-list of the person's
// settings (all a sink such as the MQTT broker may set: never a URL, a path, a secret, the bottle
// or the adapter, docs/home-assistant.md "What the broker may change"), and secrets redacted
// wherever a value is shown (a token whole, a URL's password, a refused value of a secret).

@testable import Settings
import Testing

@Suite("Settings: access and secrets")
struct SettingAccessTests {
    @Test("a sink may change only the person's settings: never a URL, a path, a secret, the bottle or the adapter")
    func allowList() {
        let person = SettingCatalog.keys.filter { $0.access == .person }.map(\.name)
        #expect(person.contains("reminders.daily_limit") && person.contains("daily_goal_ml") && person.contains("timezone"))
        #expect(person.contains("messages.enabled") && person.contains("messages.locale"))
        #expect(person.contains("deadline.period") && person.contains("rituals.morning"))
        for key in ["push.url", "push.token", "push.action_url", "mqtt.url", "mqtt.ca_file", "mqtt.topic_prefix",
                    "messages.pool", "bottle.address", "bluetooth.adapter", "desktop.enabled"] {
            #expect(!person.contains(key), "\(key) must not be changeable from a sink")
            #expect(SettingCatalog.refusalFromSink(key: key, value: "x")?.contains("cannot be changed from outside") == true)
        }
        // No URL or free-text path setting is on the list.
        #expect(!SettingCatalog.keys.contains { key in
            if case .url = key.kind { return key.access == .person }
            return false
        })
        #expect(SettingCatalog.refusalFromSink(key: "reminders.daily_limit", value: "false") == nil)
        #expect(SettingCatalog.refusalFromSink(key: "daily_goal_ml", value: "abc")?.contains("whole number") == true)
        #expect(SettingCatalog.refusalFromSink(key: "no.such", value: "1")?.contains("unknown setting") == true)
    }

    @Test("secrets are redacted: the token, a URL's password, an invalid value of a secret")
    func redaction() throws {
        let token = try #require(SettingCatalog.key(named: "push.token"))
        #expect(token.isSecret && token.shown("tk_abc") == "<redacted>")
        let mqtt = try #require(SettingCatalog.key(named: "mqtt.url"))
        #expect(mqtt.shown("mqtt://bridge:s3cret@broker.lan:1883") == "mqtt://bridge:<redacted>@broker.lan:1883")
        #expect(mqtt.shown("mqtt://broker.lan:1883") == "mqtt://broker.lan:1883")
        #expect(SettingKey("web.token", .text, default: nil, "x").isSecret)
        #expect(SettingKey("mqtt.password_file", .text, default: nil, "x").isSecret)
        do {
            _ = try mqtt.normalize("ftp://bridge:s3cret@broker.lan")
            Issue.record("ftp:// accepted")
        } catch {
            #expect(!error.description.contains("s3cret"))
        }
    }
}
