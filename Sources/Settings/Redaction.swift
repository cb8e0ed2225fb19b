// How a secret looks wherever the bridge shows or logs a setting: `config list/get`
// (unless --show-secrets), log lines and anything published. The password of a URL's
// `user:password@` goes too, so `mqtt.url` can be shown with its user and host.

import Foundation

package enum Redaction {
    package static let placeholder = "<redacted>"

    /// `mqtt://bridge:s3cret@host:1883` → `mqtt://bridge:<redacted>@host:1883`; anything without
    /// a password is returned as it is.
    package static func url(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://")?.upperBound else { return text }
        let authorityEnd = text[schemeEnd...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        let authority = text[schemeEnd..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + placeholder + String(text[at...])
    }

    /// `--set push.token=tk_abc` → `push.token=<redacted>`, for error lines about an override.
    package static func assignment(_ text: String) -> String {
        guard let equals = text.firstIndex(of: "="),
              let key = SettingCatalog.key(named: String(text[..<equals]).trimmingCharacters(in: .whitespaces)) else {
            return text
        }
        return String(text[...equals]) + key.shown(String(text[text.index(after: equals)...]))
    }
}
