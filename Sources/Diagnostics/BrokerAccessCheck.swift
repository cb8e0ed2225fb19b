// May a client without a login write the household's or the command topics on the broker of
// `mqtt.url`? The household key keeps such messages from being believed, but a command topic obeys
// Home Assistant's controls from anyone who may publish there (docs/household.md, "What the key
// protects"), and only the broker's passwords and ACL say who may.

import Household
import MQTT

enum BrokerAccessCheck {
    static let subject = "broker"
    static let fix = "allow_anonymous false, a password per client and the ACL of docs/household.md (docs/examples/mosquitto-household.acl)"

    static func finding(_ probed: AnonymousAccessProbe.Finding) -> DoctorFinding {
        switch probed {
        case .refused:
            return DoctorFinding(.ok, subject, "a client without a login is refused by the broker")
        case .connects:
            return DoctorFinding(.ok, subject, "a client without a login connects to the broker, but was not seen writing the household's or a command topic")
        case let .writes(kinds):
            let what = kinds.map { $0 == "command" ? "the bottles' command topics (Home Assistant's controls: reminders off, delete the last drink …)" : "the household's topics" }
            return DoctorFinding(.warn, subject, "any client without a login may write \(what.joined(separator: " and ")) on this broker", fix: fix)
        }
    }
}
