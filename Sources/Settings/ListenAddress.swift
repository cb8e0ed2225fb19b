// Where the web page listens (docs/design.md 3.6): `[ADDR:]PORT`, the setting `web.listen` and the
// option `--http`. The address defaults to loopback; anything else must be guarded by `web.token`,
// so the parse also says whether the address is loopback.

import Foundation

package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A numeric IPv4 or IPv6 address, or `localhost`.
    package var host: String
    /// 0 asks the system for a free port (tests).
    package var port: Int

    package static let defaultHost = "127.0.0.1"

    package init(host: String = ListenAddress.defaultHost, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `8080`, `127.0.0.1:8080`, `0.0.0.0:8080`, `[::1]:8080`, `localhost:8080`.
    package init(parsing text: String) throws(SettingError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let refused = SettingError.invalidValue(key: Setting.webListen.name, value: text, expected: SettingKind.listenAddress.validChoices)
        var host = ListenAddress.defaultHost
        var portText = Substring(trimmed)
        if trimmed.hasPrefix("[") {
            guard let close = trimmed.firstIndex(of: "]"), trimmed[trimmed.index(after: close)...].hasPrefix(":") else { throw refused }
            host = String(trimmed[trimmed.index(after: trimmed.startIndex)..<close])
            portText = trimmed[trimmed.index(close, offsetBy: 2)...]
        } else if let colon = trimmed.lastIndex(of: ":") {
            host = String(trimmed[..<colon])
            portText = trimmed[trimmed.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65535).contains(port), ListenAddress.isNumericOrLocalhost(host) else { throw refused }
        self.host = host
        self.port = port
    }

    /// Loopback: 127.0.0.0/8, ::1, localhost. Only these may go without `web.token`.
    package var isLoopback: Bool {
        if host == "localhost" || host == "::1" { return true }
        var address = in_addr()
        return inet_pton(AF_INET, host, &address) == 1 && host.hasPrefix("127.")
    }

    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    private static func isNumericOrLocalhost(_ host: String) -> Bool {
        if host == "localhost" { return true }
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
