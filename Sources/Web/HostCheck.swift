// Which `Host` a request may name (docs/design.md 3.6). A page on a rebinding DNS name (one that
// first resolves to the attacker, then to 127.0.0.1) is "same origin" with the bridge for the
// browser, so it could read the API and post commands; only the Host header tells it apart. So
// the names accepted are exactly those no attacker can own: numeric loopback (127.0.0.0/8 as four
// decimal numbers, never a name that merely starts with `127.` such as `127.0.0.1.nip.io`),
// `localhost` and `[::1]`, each with an optional port. With `web.token` set, the page is reached
// from other machines too: any numeric address (a number cannot be rebound: the browser's origin
// is the number itself) and the one configured `web.public_name`.

import Glibc
import Settings

struct HostCheck: Sendable {
    /// `web.token` is set: numeric addresses and the public name are accepted too.
    let tokenSet: Bool
    /// `web.public_name`, lower case.
    let publicName: String?

    /// Does the Host header `authority` name this bridge?
    func accepts(_ authority: String) -> Bool {
        guard let (host, bracketed) = Self.split(authority) else { return false }
        if bracketed {
            return host == "::1" || (tokenSet && Self.isIPv6(host))
        }
        let lowered = host.lowercased()
        if lowered == "localhost" { return true }
        if let octets = Self.dottedQuad(host) {
            return octets[0] == 127 || tokenSet
        }
        guard tokenSet, let publicName else { return false }
        return HostName(lowered)?.text == publicName
    }

    /// `name[:port]` or `[v6][:port]` → the name and whether it was bracketed; nil when the port
    /// is not 1 to 5 digits or the brackets do not close.
    static func split(_ authority: String) -> (String, Bool)? {
        var rest = Substring(authority)
        var host: Substring
        let bracketed = rest.hasPrefix("[")
        if bracketed {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
        } else if let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            rest = rest[colon...]
        } else {
            host = rest
            rest = ""
        }
        if !rest.isEmpty {
            let port = rest.dropFirst()
            guard rest.first == ":", (1...5).contains(port.count), port.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        }
        return host.isEmpty ? nil : (String(host), bracketed)
    }

    /// Four decimal numbers 0–255 joined by dots, nothing else.
    static func dottedQuad(_ host: String) -> [Int]? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard (1...3).contains(part.count), part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int(part), value <= 255 else { return nil }
            octets.append(value)
        }
        return octets
    }

    static func isIPv6(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, host, &address) == 1
    }
}
