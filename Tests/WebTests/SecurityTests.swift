// Who may use the page (docs/design.md 3.6): loopback by default, the token anywhere else, no
// cross-site change, no secret shown, bounded bodies.

import BusTestSupport
import Foundation
import History
import Logging
@testable import Settings
import TestFixtures
import Testing
@testable import Web

@Suite struct SecurityTests {
    static let token = "s3cret-token-for-tests"

    @Test func anAddressOtherThanLoopbackNeedsAToken() throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        #expect(throws: WebStartRefused.self) {
            try WebServer(context: fixture.context, address: try ListenAddress(parsing: "0.0.0.0:8080"), logger: logger)
        }
        do {
            _ = try WebServer(context: fixture.context, address: try ListenAddress(parsing: "0.0.0.0:8080"), logger: logger)
            Issue.record("0.0.0.0 without a token was accepted")
        } catch let error as WebStartRefused {
            #expect(error.description.contains("needs web.token"))
            #expect(!error.description.contains("\n"))
        }
        _ = try WebServer(context: fixture.context, address: ListenAddress(port: 8080), logger: logger)
        // A token alone is not enough: the token and the cookie would cross the network in clear.
        let guarded = try WebFixture(settings: ["web.token=\(Self.token)"])
        defer { guarded.remove() }
        #expect(throws: WebStartRefused.self) {
            try WebServer(context: guarded.context, address: try ListenAddress(parsing: "0.0.0.0:8080"), logger: logger)
        }
        let proxied = try WebFixture(settings: ["web.token=\(Self.token)", "web.behind_proxy=true"])
        defer { proxied.remove() }
        _ = try WebServer(context: proxied.context, address: try ListenAddress(parsing: "0.0.0.0:8080"), logger: logger)
    }

    @Test func tokensAreComparedWhole() {
        #expect(AccessGuard.constantTimeEqual("abc", "abc"))
        #expect(!AccessGuard.constantTimeEqual("abd", "abc"))
        #expect(!AccessGuard.constantTimeEqual("ab", "abc"))
        #expect(!AccessGuard.constantTimeEqual("abcd", "abc"))
        #expect(!AccessGuard.constantTimeEqual("", "abc"))
        // Lengths differing by 256 must not wrap to "equal".
        #expect(!AccessGuard.constantTimeEqual(String(repeating: "a", count: 259), "abc"))
    }

    @Test func withATokenEveryRequestCarriesIt() async throws {
        let fixture = try WebFixture(settings: ["web.token=\(Self.token)"])
        defer { fixture.remove() }
        try await fixture.withServer { port in
            for path in ["/api/v1/status", "/api/v1/days", "/metrics", "/api/openapi.yaml"] {
                let bare = try await RawHTTP.send(port: port, "GET", path)
                #expect(bare.status == 401, "\(path)")
                #expect(bare.error?.contains("web token") == true)
                #expect(bare.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
                let wrong = try await RawHTTP.send(port: port, "GET", path, headers: [("Authorization", "Bearer nope")])
                #expect(wrong.status == 401, "\(path)")
                let right = try await RawHTTP.send(port: port, "GET", path, headers: [("Authorization", "Bearer \(Self.token)")])
                #expect(right.status == 200, "\(path)")
                #expect(!right.body.contains(Self.token))
            }
            // A browser without the cookie is sent to the login page.
            let page = try await RawHTTP.send(port: port, "GET", "/")
            #expect(page.status == 303)
            #expect(page.headers["location"] == "/login")
            let login = try await RawHTTP.send(port: port, "GET", "/login")
            #expect(login.status == 200)
            #expect(login.body.contains("type=\"password\""))
            // A wrong token: back to the login page (303, LoginWrongTokenTests); the right one: the session cookie.
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let refused = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=guess")
            #expect(refused.status == 303)
            #expect(refused.headers["set-cookie"] == nil)
            let accepted = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=\(Self.token)")
            #expect(accepted.status == 303)
            let cookie = try #require(accepted.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            #expect(!cookie.contains(Self.token))
            let session = String(cookie.split(separator: ";")[0])
            let dashboard = try await RawHTTP.send(port: port, "GET", "/", headers: [("Cookie", session)])
            #expect(dashboard.status == 200)
            #expect(!dashboard.body.contains(Self.token))
            let forged = try await RawHTTP.send(port: port, "GET", "/", headers: [("Cookie", "aquavate_session=\(Self.token)")])
            #expect(forged.status == 303)
        }
    }

    @Test func noOtherSiteCanDeleteADrink() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let record = try fixture.anaSecondDrinkToday
        try await fixture.withServer { port in
            let body = "bottle=\(WebFixture.ana)&record_id=\(record)"
            let form = ("Content-Type", "application/x-www-form-urlencoded")
            let fromElsewhere = try await RawHTTP.send(port: port, "POST", "/actions/delete",
                                                       headers: [form, ("Origin", "http://evil.example")], body: body)
            #expect(fromElsewhere.status == 403)
            let crossSite = try await RawHTTP.send(port: port, "POST", "/actions/delete",
                                                   headers: [form, ("Sec-Fetch-Site", "cross-site")], body: body)
            #expect(crossSite.status == 403)
            let apiFromElsewhere = try await RawHTTP.send(port: port, "POST", "/api/v1/commands",
                headers: [("Content-Type", "application/json"), ("Origin", "http://evil.example")],
                body: #"{"command":"delete","record_id":\#(record),"bottle":"\#(WebFixture.ana)"}"#)
            #expect(apiFromElsewhere.status == 403)
            // A rebinding name that points at this machine is not this machine's name.
            let rebound = try await RawHTTP.send(port: port, "GET", "/api/v1/status", host: "evil.example:\(port)")
            #expect(rebound.status == 403)
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == false)
            // From the page itself it goes through.
            let sameOrigin = try await RawHTTP.send(port: port, "POST", "/actions/delete",
                headers: [form, ("Origin", "http://127.0.0.1:\(port)"), ("Sec-Fetch-Site", "same-origin")], body: body)
            #expect(sameOrigin.status == 303)
            #expect(try fixture.history.drinks.currentDrink(bottle: WebFixture.ana, recordID: record)?.deleted == true)
        }
    }

    @Test func everyAnswerForbidsLoadingAndFraming() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        try await fixture.withServer { port in
            for path in ["/", "/api/v1/status", "/nowhere"] {
                let reply = try await RawHTTP.send(port: port, "GET", path)
                #expect(reply.headers["content-security-policy"]?.contains("default-src 'none'") == true)
                #expect(reply.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
                #expect(reply.headers["x-content-type-options"] == "nosniff")
            }
            // Without a token there is nothing to log in to.
            let login = try await RawHTTP.send(port: port, "GET", "/login")
            #expect(login.status == 303 && login.headers["location"] == "/")
        }
    }
}
