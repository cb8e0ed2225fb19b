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
