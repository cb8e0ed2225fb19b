// HTTP push trusts no server with its bearer token: a redirect is a failure that names where it
// pointed (the token is never sent anywhere else), and a token never travels over plain http://
// except to loopback (docs/robustness.md, "Trust").

import Foundation
@testable import MQTT
@testable import Sinks
import Testing

@Suite struct HTTPPushTrustTests {
    @Test(arguments: [302, 307, 301, 308])
    func aRedirectIsAFailureAndTheTokenGoesNowhereElse(status: Int) async throws {
        let elsewhere = try TestHTTPServer()
        defer { elsewhere.stop() }
        let server = try TestHTTPServer(statuses: [status], location: "\(elsewhere.url)/steal")
        defer { server.stop() }
        let sink = HTTPPushSink(configuration: try HTTPPushConfiguration(url: "\(server.url)/topic", token: "tk_secret"))
        let error = await #expect(throws: SinkDeliveryError.self) { try await sink.deliver(notification("n")) }
        guard case let .rejected(reason)? = error else {
            Issue.record("expected rejected, got \(String(describing: error))")
            await sink.stop()
            return
        }
        #expect(reason.contains("redirected to \(elsewhere.url)/steal"))
        #expect(reason.contains("\(status)") && !reason.contains("\n"))
        #expect(server.requests.all.count == 1)
        #expect(server.requests.all.first?.headers["authorization"] == "Bearer tk_secret")
        #expect(elsewhere.requests.all.isEmpty)
        await sink.stop()
    }

    @Test func aTokenIsRefusedOverPlainHTTPExceptToLoopback() throws {
        for url in ["http://ntfy.example/topic", "http://192.168.1.20:8080/topic", "http://[fe80::1]/topic"] {
            let error = #expect(throws: SinkConfigurationError.self) {
                try HTTPPushConfiguration(url: url, token: "tk_secret")
            }
            #expect(error?.description.contains("https://") == true, "\(url)")
            #expect(error?.description.contains("tk_secret") == false)
            #expect(error?.description.contains("\n") == false)
        }
        // Credentials in the URL are a token too.
        #expect(throws: SinkConfigurationError.self) { try HTTPPushConfiguration(url: "http://tk_secret@ntfy.example/topic") }
        #expect(throws: SinkConfigurationError.self) { try HTTPPushConfiguration(url: "http://user:pw@ntfy.example/topic") }
        for url in ["http://127.0.0.1:8080/topic", "http://127.1.2.3/topic", "http://[::1]:80/topic", "http://localhost/topic",
                    "https://ntfy.example/topic"] {
            #expect(throws: Never.self, "\(url)") { try HTTPPushConfiguration(url: url, token: "tk_secret") }
        }
        // Without a token plain http:// anywhere is still fine (a public ntfy topic on a LAN).
        #expect(throws: Never.self) { try HTTPPushConfiguration(url: "http://ntfy.lan/topic") }
    }
}
