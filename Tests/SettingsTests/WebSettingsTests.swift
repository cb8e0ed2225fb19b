// The web page's settings: `web.listen` parses a port alone (loopback), an IPv4 or bracketed IPv6
// address with a port, and knows which of them are loopback (the page asks for a token on any
// other); what is not an address with a port is refused. `web.token` is a secret, never shown.

@testable import Settings
import Testing

@Suite("Settings: the web page's")
struct WebSettingsTests {
    static let token = "s3cret-token-for-tests"

    @Test func listenAddressesParse() throws {
        #expect(try ListenAddress(parsing: "8080") == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress(parsing: "0.0.0.0:80").isLoopback == false)
        #expect(try ListenAddress(parsing: "[::1]:9000") == ListenAddress(host: "::1", port: 9000))
        #expect(try ListenAddress(parsing: "[::1]:9000").isLoopback)
        #expect(try ListenAddress(parsing: "localhost:1").isLoopback)
        #expect(try ListenAddress(parsing: "127.0.0.2:1").isLoopback)
        #expect(try ListenAddress(parsing: "192.168.1.5:8080").isLoopback == false)
        for bad in ["", "http://x", "host.example:80", "1.2.3.4:99999", "[::1]", "1.2.3.4:"] {
            #expect(throws: SettingError.self, "\(bad)") { try ListenAddress(parsing: bad) }
        }
    }

    @Test func theSettingsAreKnownAndTheTokenIsASecret() throws {
        let listen = try #require(SettingCatalog.key(named: "web.listen"))
        #expect(try listen.normalize("8080") == "127.0.0.1:8080")
        #expect(throws: SettingError.self) { try listen.normalize("nowhere") }
        let token = try #require(SettingCatalog.key(named: "web.token"))
        #expect(token.isSecret)
        #expect(token.shown(Self.token) == Redaction.placeholder)
    }
}

/// `web.token` guards the page beyond loopback: fewer than 16 bytes of entropy is refused, from
/// the length and the kinds of character a token uses (AccessToken).
@Suite struct AccessTokenTests {
    @Test func weakTokensAreRefusedStrongOnesPass() throws {
        for weak in ["abc", "password1234", "Summer2026!", String(repeating: "ab", count: 40)] {
            #expect(!AccessToken.isStrong(weak), "\(weak): \(AccessToken.bits(weak)) bits")
            #expect(throws: SettingError.self) { try Setting.webToken.entry.normalize(weak) }
        }
        for strong in ["9f3c1a7e5b2d4c6e8a0b1d3f5e7c9a2b", "q3Zt8Kp1Lm0XvB7nR2sW5yHc", "correct-horse-battery-staple", WebSettingsTests.token] {
            #expect(AccessToken.isStrong(strong), "\(strong): \(AccessToken.bits(strong)) bits")
            #expect(try Setting.webToken.entry.normalize(strong) == strong)
        }
        let error = try #require(throws: SettingError.self) { try Setting.webToken.entry.normalize("abc") }
        #expect("\(error)".contains("16 bytes of entropy") && !"\(error)".contains("abc"), "\(error)")
    }
}
