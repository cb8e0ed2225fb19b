// `mqtt.url`: `mqtt://[user[:password]@]host[:port]` (port 1883) or `mqtts://…` (TLS, port 8883,
// server certificate checked against the system's CA store or a given CA file). User and
// password may be percent-encoded.

import Foundation

package struct MQTTBrokerURL: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    package var port: Int
    package var username: String?
    package var password: String?
    package var usesTLS: Bool

    static let expected = "mqtt://[user[:password]@]host[:port] or mqtts://… (port 1883 / 8883 by default)"

    package init(host: String, port: Int? = nil, username: String? = nil, password: String? = nil, usesTLS: Bool = false) {
        self.host = host
        self.port = port ?? (usesTLS ? 8883 : 1883)
        self.username = username
        self.password = password
        self.usesTLS = usesTLS
    }

    package init(parsing text: String, setting: String = "mqtt.url") throws(SinkConfigurationError) {
        let fail = SinkConfigurationError.invalidURL(setting: setting, value: Self.redacted(text), expected: Self.expected)
        guard let components = URLComponents(string: text.trimmingWhitespace),
              let scheme = components.scheme?.lowercased(), scheme == "mqtt" || scheme == "mqtts",
              var host = components.host, !host.isEmpty,
              components.path.isEmpty || components.path == "/",
              components.query == nil, components.fragment == nil else { throw fail }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let port = components.port, !(1...65535).contains(port) { throw fail }
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        self.init(host: host, port: components.port, username: username,
                  password: components.password, usesTLS: scheme == "mqtts")
    }

    /// The URL without the password, for log lines.
    package var description: String {
        let user = username.map { "\($0)@" } ?? ""
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(usesTLS ? "mqtts" : "mqtt")://\(user)\(shownHost):\(port)"
    }

    /// The text with any password replaced, so a refused URL can be logged.
    package static func redacted(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text.range(of: "://")?.upperBound,
              schemeEnd < at, let colon = text[schemeEnd..<at].firstIndex(of: ":") else { return text }
        return text[..<text.index(after: colon)] + "***" + text[at...]
    }
}
