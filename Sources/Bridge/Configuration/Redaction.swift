// How a secret looks wherever the bridge shows or logs a setting (issue 11): `config list/get`
// (unless --show-secrets), log lines and anything published. The password of a URL's
// `user:password@` goes too, so `mqtt.url` can be shown with its user and host.

import Foundation

public enum Redaction {
    public static let placeholder = "<redacted>"

    /// `mqtt://bridge:s3cret@host:1883` → `mqtt://bridge:<redacted>@host:1883`; anything without
    /// a password is returned as it is.
    public static func url(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://")?.upperBound else { return text }
        let authorityEnd = text[schemeEnd...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? text.endIndex
        let authority = text[schemeEnd..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + placeholder + String(text[at...])
    }
}
