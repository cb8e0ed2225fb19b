// What `aquavate-bridge setup` decided: each answer checked the way `config set` checks it, and
// the lines that tell the person what to do next.

import Foundation
import Settings

struct SetupAnswers {
    var bottle: String?
    var timezone: String?
    var mqtt: String?
    var goal: String?
    /// `household.key`: given (to join), or made by setup for a bridge with a broker and no key.
    var householdKey: String?
    /// Setup made the key (a new household): it says how the other bridges join.
    var madeHouseholdKey = false

    /// A value setup refuses: one line naming it and the valid choices (exit status 2).
    struct BadValue: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The answers as settings, in the order setup asks them.
    var settings: [(key: String, value: String)] {
        [(Setting.bottleAddress.name, bottle), (Setting.timezone.name, timezone), (Setting.mqttURL.name, mqtt), (Setting.dailyGoalML.name, goal),
         (Setting.householdKey.name, householdKey)]
            .compactMap { key, value in value.map { (key, $0) } }
    }

    /// `value` checked and normalised by the setting `key`; `option` names the option it came
    /// from in the message (nil: a typed answer).
    static func check(_ key: String, _ value: String, option: String?) throws(BadValue) -> String {
        do {
            return try SettingCatalog.requireKey(key).normalize(value)
        } catch {
            throw BadValue(option.map { "\($0) \(value): \(error.description)" } ?? error.description)
        }
    }

    /// A Bluetooth address, six hex pairs separated by colons, in upper case.
    static func bottleAddress(_ text: String) throws(BadValue) -> String {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
            throw BadValue("--bottle \(text): not a Bluetooth address; expected six hex pairs such as F4:12:FA:00:A3:F4 "
                           + "(aquavate-bridge scan lists the bottles nearby)")
        }
        return text.uppercased()
    }

    /// What to do after writing `configPath`: the service's file asks for a restart, any other
    /// file for a run by hand.
    static func nextSteps(configPath: String) -> [String] {
        if configPath == "/etc/aquavate/bridge.toml" {
            return ["Next: sudo systemctl restart aquavate-bridge  (the service reads the file when it starts)",
                    "Then: sudo -u aquavate aquavate-bridge doctor --service  (what is still missing)",
                    "      journalctl -u aquavate-bridge -f  (watch it find and sync the bottle)"]
        }
        return ["Next: aquavate-bridge doctor --config \(configPath)  (what is still missing)",
                "Then: aquavate-bridge run --config \(configPath)  (or install the service: docs/raspberry-pi.md)"]
    }
}
