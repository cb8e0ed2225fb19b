// Who may use the page (docs/design.md 3.6): on loopback anyone on the machine; on any other
// address only a holder of `web.token`, sent as `Authorization: Bearer TOKEN` or proven once on
// the login page, which opens a session (Sessions): the cookie carries the session's random id,
// never the token. Wrong tokens are slowed per client address and each is logged (LoginThrottle).
//
// Whatever the address, a request must name this bridge in its `Host` (HostCheck: no DNS
// rebinding), and a request that changes something (POST) must come from the page itself: a
// browser says where a request comes from (`Origin`, `Sec-Fetch-Site`), and a cross-site one is
// refused, so no other site can delete a drink through a visitor's browser.

import Foundation
import Hummingbird
import Logging
import Settings
import Timekeeping

struct AccessGuard: Sendable {
    static let sessionCookie = "aquavate_session"
    /// Bodies beyond this are refused (413): the largest legitimate one is a short form or command.
    static let maxBodyBytes = 16 * 1024

    /// `web.token`, nil on loopback without one.
    let token: String?
    let hosts: HostCheck
    let sessions: Sessions
    let throttle: LoginThrottle
    /// A TLS proxy serves the page (`web.behind_proxy`): the cookie is then `Secure`.
    let secureCookie: Bool
    let logger: Logger

    init(token: String?, publicName: String? = nil, behindProxy: Bool = false,
         clock: any MonotonicClock = SystemClock(), logger: Logger = Logger(label: "web") { _ in SwiftLogNoOpLogHandler() }) {
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        hosts = HostCheck(tokenSet: self.token != nil, publicName: publicName.flatMap { HostName($0)?.text })
        sessions = Sessions(clock: clock)
        throttle = LoginThrottle(clock: clock)
        secureCookie = behindProxy
        self.logger = logger
    }

    /// Paths reachable without the token: the login page and its form, and logging out.
    static let openPaths: Set<String> = ["/login", "/logout"]

    /// Throws the refusal of `request` from `client` (its address), or returns when it may go on.
    func check(_ request: Request, client: String) throws {
        if let host = request.head.authority, !hosts.accepts(host) {
            let shown = String(host.prefix(80))
            throw WebError(status: .forbidden, message: token == nil
                ? "host \(shown) is not this machine's loopback name (127.0.0.1, localhost, [::1]); set web.token to serve other names"
                : "host \(shown) is not a name of this bridge: use its address, or set web.public_name")
        }
        let path = request.uri.path
        if token != nil, !Self.openPaths.contains(path) {
            try authorise(request, client: client)
        }
        if request.method != .get && request.method != .head {
            try checkSameOrigin(request)
        }
    }

    /// Bearer token (throttled, compared in constant time) or a live session.
    private func authorise(_ request: Request, client: String) throws {
        guard let token else { return }
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            if let wait = throttle.wait(for: client) { throw Self.tooManyTries(wait) }
            if Self.constantTimeEqual(String(header.dropFirst("Bearer ".count)), token) {
                throttle.succeeded(client)
                return
            }
            refused(client, how: "Authorization header")
            throw unauthorised(request)
        }
        if let cookie = request.cookies[Self.sessionCookie]?.value, sessions.isLive(cookie) { return }
        throw unauthorised(request)
    }

    enum LoginOutcome: Sendable, Equatable {
        /// The session opened: its id for the cookie.
        case accepted(session: String)
        case refused
        /// Too many wrong tries from this address: not checked.
        case wait(Duration)
    }

    /// The login form's `candidate` from `client`.
    func logIn(_ candidate: String, client: String) -> LoginOutcome {
        guard let token else { return .refused }
        if let wait = throttle.wait(for: client) { return .wait(wait) }
        guard Self.constantTimeEqual(candidate, token) else {
            refused(client, how: "login form")
            return .refused
        }
        throttle.succeeded(client)
        return .accepted(session: sessions.open())
    }

    /// Ends the session `request`'s cookie names, if any.
    func logOut(_ request: Request) {
        if let cookie = request.cookies[Self.sessionCookie]?.value { sessions.close(cookie) }
    }

    /// The `Set-Cookie` value that hands the browser `session`, or (nil) takes it back.
    func cookie(_ session: String?) -> String {
        let lifetime = session == nil ? 0 : Sessions.lifetime.components.seconds
        return "\(Self.sessionCookie)=\(session ?? ""); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(lifetime)" + (secureCookie ? "; Secure" : "")
    }

    /// Counts and logs a wrong token: one line, the client's address and the back-off, never
    /// what was typed.
    private func refused(_ client: String, how: String) {
        let (failures, wait) = throttle.failed(client)
        let next = wait == .zero ? "" : "; its next try is refused for \(wait.components.seconds) s"
        logger.warning("web: wrong token from \(client) (\(how), \(failures) in a row\(next))")
    }

    static func tooManyTries(_ wait: Duration) -> WebError {
        let seconds = max(1, wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0))
        var error = WebError(status: .tooManyRequests, message: "too many wrong tokens from this address: try again in \(seconds) s")
        error.headers[.retryAfter] = String(seconds)
        return error
    }

    /// A browser asking for a page is sent to the login page; anything else gets 401 JSON.
    private func unauthorised(_ request: Request) -> any Error {
        if request.method == .get || request.method == .head, request.uri.path == "/" || request.uri.path.hasPrefix("/bottle") {
            return Redirect(to: "/login")
        }
        var error = WebError(status: .unauthorized, message: "this bridge needs its web token: send Authorization: Bearer TOKEN, or log in at /login")
        error.headers[.wwwAuthenticate] = "Bearer realm=\"aquavate-bridge\""
        return error
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
    /// RFC 8288: the next page of `/api/v1/drinks`.
    static let link = HeaderName("Link")!
}
