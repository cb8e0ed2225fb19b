// A wrong token at the login form answers as the page's other forms do (post/redirect/get): a 303
// back to the login page with the outcome as an enum in the query, which the page says in words;
// the guess is in no address and no cookie, and the API's Bearer clients still get 401.

import BusTestSupport
import Foundation
import TestFixtures
import Testing
@testable import Web

@Suite struct LoginWrongTokenTests {
    static let token = "right-token-for-login-tests"

    @Test("a wrong token is a 303 to /login?outcome=wrong-token, shown there as a message; the guess is in no URL")
    func wrongTokenRedirects() async throws {
        let fixture = try WebFixture(settings: ["web.token=\(Self.token)"], days: 2)
        defer { fixture.remove() }
        try await fixture.withServer { port in
            let form = [("Content-Type", "application/x-www-form-urlencoded")]
            let refused = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=guess-7q2")
            #expect(refused.status == 303, "\(refused.status) \(refused.body.prefix(200))")
            let location = try #require(refused.headers["location"])
            #expect(location == "/login?outcome=wrong-token")
            #expect(!location.contains("guess"))
            #expect(refused.headers["set-cookie"] == nil)
            #expect(!refused.body.contains("guess-7q2"))

            let shown = try await RawHTTP.send(port: port, "GET", location)
            #expect(shown.status == 200)
            #expect(shown.body.contains("role=\"alert\"") && shown.body.contains(escape(WebLanguage.en.words.wrongToken)), "\(shown.body)")
            #expect(!shown.body.contains("guess-7q2"))
            // No outcome, or one the page does not know: the bare form, no alert.
            for path in ["/login", "/login?outcome=nope", "/login?outcome=%3Cscript%3E"] {
                let bare = try await RawHTTP.send(port: port, "GET", path)
                #expect(bare.status == 200, "\(path)")
                #expect(!bare.body.contains("role=\"alert\""), "\(path)")
                #expect(bare.body.contains("type=\"password\""), "\(path)")
            }
            // The API's clients are not redirected: a wrong Bearer token is still 401.
            let bearer = try await RawHTTP.send(port: port, "GET", "/api/v1/status", headers: [("Authorization", "Bearer guess-7q2")])
            #expect(bearer.status == 401)
            // And the right token still logs in.
            let accepted = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=\(Self.token)")
            #expect(accepted.status == 303 && accepted.headers["location"] == "/")
            #expect(accepted.headers["set-cookie"]?.hasPrefix(AccessGuard.sessionCookie) == true)
        }
    }
}
