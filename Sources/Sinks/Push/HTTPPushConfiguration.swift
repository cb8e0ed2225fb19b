// `[push]`: where HTTP push notifications go (an ntfy topic or anything that speaks its
// publishing API: docs/integrations.md 2, "ntfy push").
//
// Credentials may sit in the URL: `https://user:password@host/topic` → Basic,
// `https://:tk_token@host/topic` or `https://tk_token@host/topic` → Bearer; a `token` setting
// (Bearer) wins over both. They are removed from the URL that is actually requested, and never
// sent over plain http:// except to this machine: anyone on the path would read them.
//
// Action buttons: a phone generally cannot reach the bridge (it listens on no HTTP port), so a
// button can only work through something both can reach. With `actionURL` set, each of a
// notification's actions becomes an ntfy `http` button that POSTs the command JSON
// (`{"action":{"id":"<notification id>","action":"did-this"}}`, the same text the MQTT command
// topic takes) to that URL — e.g. a Home Assistant webhook whose automation publishes the body to
// `aquavate/<id>/command`. Without it the phone shows no buttons; the actions still work on the
// desktop and through MQTT.

import Foundation
#if canImport(Glibc)
import Glibc
import MQTT
#endif

package struct HTTPPushConfiguration: Sendable, Equatable {
    /// The topic URL, without credentials.
    package var url: URL
    /// The `Authorization` header value, if any (`Bearer …` or `Basic …`).
    package var authorization: String?
    package var actionURL: URL?
    /// Per request, in whole seconds (rounded up).
    package var timeout: Duration

    static let expected = "http(s)://[user:password@]host[:port]/topic, e.g. https://ntfy.sh/my-secret-topic"

    /// - Parameters:
    ///   - url: `push.url`.
    ///   - token: an access token sent as `Authorization: Bearer …` (ntfy `tk_…`).
    ///   - actionURL: where action buttons POST their command (see above); nil = no buttons.
    package init(url: String, token: String? = nil, actionURL: String? = nil,
                timeout: Duration = .seconds(30)) throws(SinkConfigurationError) {
        guard var components = URLComponents(string: url.trimmingWhitespace),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty else {
            throw .invalidURL(setting: "push.url", value: MQTTBrokerURL.redacted(url), expected: Self.expected)
        }
        let user = components.user ?? ""
        let password = components.password
        components.user = nil
        components.password = nil
        guard let bare = components.url else {
            throw .invalidURL(setting: "push.url", value: MQTTBrokerURL.redacted(url), expected: Self.expected)
        }
        self.url = bare
        if let token, !token.isEmpty {
            authorization = "Bearer \(token)"
        } else if !user.isEmpty, let password {
            authorization = "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        } else if let token = password ?? (user.isEmpty ? nil : user), !token.isEmpty {
            authorization = "Bearer \(token)"
        }
        if authorization != nil, scheme == "http", !Self.isLoopback(host) {
            throw .credentialsOverPlainHTTP(setting: "push.url", host: host)
        }
        if let actionURL {
            guard let parsed = URLComponents(string: actionURL.trimmingWhitespace),
                  let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  parsed.host?.isEmpty == false, let callback = parsed.url else {
                throw .invalidURL(setting: "push.action_url", value: actionURL,
                                  expected: "an http(s) URL the phone can reach that forwards the body to the bridge's MQTT command topic")
            }
            self.actionURL = callback
        }
        guard timeout > .zero else {
            throw .invalidName(setting: "push timeout", value: String(timeout.inSeconds), expected: "a positive number of seconds")
        }
        // Whole seconds: FoundationNetworking on Linux truncates the interval to whole seconds
        // for libcurl, and 0.5 s became "time out at once" (measured).
        self.timeout = .seconds(timeout.inSeconds.rounded(.up))
    }

    /// 127.0.0.0/8, ::1 and localhost: traffic that never leaves the machine.
    static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        if name == "localhost" || name.hasSuffix(".localhost") { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { bytes in bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1 }
        }
        return false
    }
}
