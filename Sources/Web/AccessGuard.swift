// Who may use the page (docs/design.md 3.6): on loopback anyone on the machine; on any other
// address only a holder of `web.token`, sent as `Authorization: Bearer TOKEN` or proven once on
// the login page, which sets a session cookie. The token itself never goes back to the browser:
// the cookie holds a random session secret made when the server starts.
//
// Whatever the address, a request that changes something (POST) must come from the page itself:
// a browser says where a request comes from (`Origin`, `Sec-Fetch-Site`), and a cross-site one is
// refused, so no other site can delete a drink through a visitor's browser. And without a token
// the `Host` must be a loopback name, so a rebinding DNS name cannot make a remote page "same
// origin" with the bridge.

import Foundation
import Hummingbird

struct AccessGuard: Sendable {
    static let sessionCookie = "aquavate_session"
    /// Bodies beyond this are refused (413): the largest legitimate one is a short form or command.
    static let maxBodyBytes = 16 * 1024

    /// `web.token`, nil on loopback without one.
    let token: String?
    /// The value of the session cookie: 32 random bytes, hex.
    let session: String

    init(token: String?) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        var generator = SystemRandomNumberGenerator()
        session = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// Paths reachable without the token: the login page and its form.
    static let openPaths: Set<String> = ["/login"]

    /// Throws the refusal of `request`, or returns when it may go on.
    func check(_ request: Request) throws {
        let path = request.uri.path
        if token == nil {
            try checkLoopbackHost(request)
        } else if !Self.openPaths.contains(path), !isAuthorised(request) {
            throw unauthorised(request)
        }
        if request.method != .get && request.method != .head {
            try checkSameOrigin(request)
        }
    }

    /// Bearer token or session cookie, each compared in constant time.
    func isAuthorised(_ request: Request) -> Bool {
        guard let token else { return true }
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            return Self.constantTimeEqual(String(header.dropFirst("Bearer ".count)), token)
        }
        if let cookie = request.cookies[Self.sessionCookie]?.value {
            return Self.constantTimeEqual(cookie, session)
        }
        return false
    }

    /// Does `candidate` equal the token? For the login form.
    func acceptsToken(_ candidate: String) -> Bool {
        guard let token else { return true }
        return Self.constantTimeEqual(candidate, token)
    }

    /// A browser asking for a page is sent to the login page; anything else gets 401 JSON.
    private func unauthorised(_ request: Request) -> any Error {
        if request.method == .get, request.uri.path == "/" || request.uri.path.hasPrefix("/bottle") {
            return Redirect(to: "/login")
        }
        var error = WebError(status: .unauthorized, message: "this bridge needs its web token: send Authorization: Bearer TOKEN, or log in at /login")
        error.headers[.wwwAuthenticate] = "Bearer realm=\"aquavate-bridge\""
        return error
    }

    private func checkLoopbackHost(_ request: Request) throws {
        guard let host = request.head.authority else { return }
        let name = Self.hostName(host)
        guard name == "localhost" || name.hasPrefix("127.") || name == "::1" || name == "[::1]" else {
            throw WebError(status: .forbidden, message: "host \(name) is not this machine's loopback name; set web.token to serve other names")
        }
    }

    private func checkSameOrigin(_ request: Request) throws {
        if let site = request.headers[HeaderName.secFetchSite], site != "same-origin", site != "none" {
            throw WebError(status: .forbidden, message: "a request from another site (\(site)) may not change anything here")
        }
        if let origin = request.headers[HeaderName.origin] {
            let host = request.head.authority ?? ""
            guard origin == "http://\(host)" || origin == "https://\(host)" else {
                throw WebError(status: .forbidden, message: "a request from \(origin) may not change anything here")
            }
        }
    }

    /// `127.0.0.1:8080` → `127.0.0.1`, `[::1]:8080` → `::1`.
    static func hostName(_ authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.split(separator: ":", maxSplits: 1).first ?? "")
    }

    /// Equal strings, in a time that depends on the length of `expected` only, never on where the
    /// first difference lies.
    static func constantTimeEqual(_ candidate: String, _ expected: String) -> Bool {
        let a = Array(candidate.utf8), b = Array(expected.utf8)
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        difference |= a.count == b.count ? 0 : 1
        for index in 0..<b.count {
            difference |= b[index] ^ (index < a.count ? a[index] : 0)
        }
        return difference == 0
    }
}

/// A 303 See Other, thrown by a check that sends the browser elsewhere.
struct Redirect: Error, Sendable {
    var location: String
    init(to location: String) { self.location = location }

    var response: Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}

/// Header names beyond Hummingbird's own: HTTPTypes' `HTTPField.Name`, reached through
/// `HTTPFields` (which Hummingbird exports) rather than a dependency of our own on HTTPTypes.
typealias HeaderName = HTTPFields.Element.Name

extension HTTPFields.Element.Name {
    static let secFetchSite = HeaderName("Sec-Fetch-Site")!
    static let xContentTypeOptions = HeaderName("X-Content-Type-Options")!
    static let referrerPolicy = HeaderName("Referrer-Policy")!
}
