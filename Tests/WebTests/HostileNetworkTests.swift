// The web server against a hostile network, as attacks on the real binary (`serve`, `run --http`):
// DNS-rebinding names in `Host`, idle and slow-loris connections beyond the descriptor limit,
// guessing the token, one session for every browser, and clear HTTP beyond loopback (docs/web.md,
// "Against a hostile network and hostile local users"). Each test failed on the server before the
// fix (the commit that added this file says how each failed).

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

@Suite(.serialized) struct HostileNetworkTests {
    static let bridge = WebCommandTests.bridge
    static let simulator = WebCommandTests.simulator
    static let token = "hostile-network-test-token-4f1c"

    /// `serve` over the fixture's household with `settings`, and the port it listens on.
    private func serve(_ fixture: WebFixture, _ settings: [String] = [], listen: String = "127.0.0.1:0",
                       limitDescriptors: Int? = nil) async throws -> (ChildProcess, Int, URL) {
        let config = fixture.folder.appendingPathComponent("config.toml").path
        try "timezone = \"Europe/Madrid\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let db = fixture.folder.appendingPathComponent("history.sqlite").path
        let log = fixture.folder.appendingPathComponent("serve-\(UUID().uuidString.prefix(6)).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        var arguments = ["serve", "--db", db, "--config", config, "--http", listen]
        for setting in settings { arguments += ["--set", setting] }
        var executable = Self.bridge
        if let limitDescriptors {
            arguments = ["--nofile=\(limitDescriptors):\(limitDescriptors)", "--", Self.bridge] + arguments
            executable = "/usr/bin/prlimit"
        }
        let output = try FileHandle(forWritingTo: log)
        let server = try ChildProcess.spawn(executable, arguments, output: output, error: try FileHandle(forWritingTo: log))
        let shownHost = listen.hasPrefix("0.0.0.0") ? "0.0.0.0" : "127.0.0.1"
        let port = try await WebCommandTests.port(after: "serving http://\(shownHost):") { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        return (server, port, log)
    }

    @Test("a rebinding name is refused whatever it starts with; numeric loopback, localhost and [::1] are served")
    func rebindingNames() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let (server, port, _) = try await serve(fixture)
        defer { server.killNow() }
        let record = try fixture.anaSecondDrinkToday
        for host in ["127.rebind.attacker.example", "127.0.0.1.nip.io:\(port)", "127.0.0.1.attacker.example", "localhost.attacker.example",
                     "attacker.example:\(port)", "127.1", "0x7f.0.0.1", "127.0.0.1:80x", "[::1].attacker.example", "[::2]:\(port)", "127.0.0.256"] {
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status", host: host)
            #expect(status.status == 403, "Host: \(host) → \(status.status)")
            #expect(status.error?.contains("not this machine's loopback name") == true, "\(host): \(status.body)")
            // The attack of the audit: the page of the rebound name queues a deletion, same-origin.
            let origin = "http://\(host)"
            let command = try await RawHTTP.send(port: port, "POST", "/api/v1/commands",
                headers: [("Content-Type", "application/json"), ("Origin", origin), ("Sec-Fetch-Site", "same-origin")],
                body: #"{"command":"delete","record_id":\#(record),"bottle":"\#(WebFixture.ana)"}"#, host: host)
            #expect(command.status == 403, "Host: \(host) → \(command.status) \(command.body)")
        }
        let pending = try await RawHTTP.send(port: port, "GET", "/api/v1/status?bottle=\(WebFixture.ana)")
        #expect(!pending.body.contains("\"delete\""), "a deletion was queued: \(pending.body)")
        for host in ["127.0.0.1:\(port)", "127.0.0.1", "127.1.2.3:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "[::1]"] {
            let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status", host: host)
            #expect(status.status == 200, "Host: \(host) → \(status.status) \(status.body)")
        }
    }

    @Test("with a token, the public name and numeric addresses are served; other names are not, even with the token")
    func publicName() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let (server, port, _) = try await serve(fixture, ["web.token=\(Self.token)", "web.public_name=Bridge.Example.org"])
        defer { server.killNow() }
        let bearer = [("Authorization", "Bearer \(Self.token)")]
        for host in ["bridge.example.org", "BRIDGE.example.org:443", "192.168.1.20:\(port)", "[fd00::20]:\(port)", "127.0.0.1:\(port)"] {
            let reply = try await RawHTTP.send(port: port, "GET", "/api/v1/status", headers: bearer, host: host)
            #expect(reply.status == 200, "Host: \(host) → \(reply.status) \(reply.body)")
        }
        for host in ["bridge.example.org.attacker.example", "attacker.example", "127.rebind.attacker.example"] {
            let reply = try await RawHTTP.send(port: port, "GET", "/api/v1/status", headers: bearer, host: host)
            #expect(reply.status == 403, "Host: \(host) → \(reply.status)")
            #expect(reply.error?.contains("web.public_name") == true, "\(reply.body)")
        }
    }

    @Test("idle, slow-head and slow-body connections beyond the descriptor limit: the server closes them and still answers")
    func slowLorisAgainstServe() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        // 256 descriptors for the server, 300 hostile connections: more than it could ever hold.
        let (server, port, log) = try await serve(fixture, limitDescriptors: 256)
        defer { server.killNow() }
        let held = HeldConnections()
        defer { held.closeAll() }
        try held.open(200, .idle, port: port)
        try held.open(60, .slowHead, port: port)
        try held.open(40, .slowBody, port: port)
        held.begin()
        try await Self.answersAndShedsThemAll(held, port: port) { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(server.isRunning)
    }

    @Test("the same attack on `run --http`: the daemon still syncs the bottle and the page still answers")
    func slowLorisAgainstRun() async throws {
        try await withPrivateBus { bus in
            let fixture = try WebFixture()
            defer { fixture.remove() }
            let db = fixture.folder.path + "/live.sqlite"
            let daemon = try bus.spawn("/usr/bin/prlimit", ["--nofile=256:256", "--", Self.bridge, "run", "--db", db,
                                                             "--http", "127.0.0.1:0", "--cooldown", "600"], logName: "bridge")
            let port = try await WebCommandTests.port(after: "web: serving http://127.0.0.1:") { bus.log("bridge") }
            let held = HeldConnections()
            defer { held.closeAll() }
            try held.open(200, .idle, port: port)
            try held.open(60, .slowHead, port: port)
            try held.open(40, .slowBody, port: port)
            held.begin()
            // The bottle appears while the attack goes on.
            let state = fixture.folder.path + "/sim.json"
            _ = try bus.spawn(Self.simulator, ["--bus", bus.address, "--records", "30", "--disconnect-delay", "0.1", "--state-file", state],
                              logName: "sim")
            let history = try DrinkHistory(path: db)
            try await waitUntil(.seconds(90), "the daemon to sync the bottle under attack (\(bus.log("bridge").suffix(1500)))") {
                held.drip()
                return try history.drinks.drinkCount() == 30
            }
            try await Self.answersAndShedsThemAll(held, port: port) { bus.log("bridge") }
            #expect(daemon.isRunning, "\(bus.log("bridge").suffix(1500))")
            #expect(!bus.log("bridge").contains("errno 24"), "\(bus.log("bridge").suffix(1500))")
        }
    }

    /// A fresh request is answered while `held` stays open, and the server closes every one of them.
    private static func answersAndShedsThemAll(_ held: HeldConnections, port: Int, log: @escaping @Sendable () -> String) async throws {
        let dripping = Task {
            var rounds = 0
            while !Task.isCancelled, rounds < 600 {
                held.drip()
                rounds += 1
                // The attacker's pace (a byte per connection every half second, as slowloris
                // drips), not a wait for anything: what the test waits for is below, with a deadline.
                try? await Task.sleep(for: .milliseconds(500))
            }
        }
        defer { dripping.cancel() }
        let answer = try await RawHTTP.send(port: port, "GET", "/api/v1/status", timeout: 60)
        #expect(answer.status == 200, "\(answer.status) \(answer.body.prefix(200))")
        try await waitUntil(.seconds(60), "the server to close the 300 hostile connections (\(held.closedByServer()) closed; \(log().suffix(800)))") {
            held.closedByServer() == held.sockets.count
        }
    }

    @Test("guessing the token: slowed per address and for all of loopback, each wrong try logged without what was typed, the right token refused during the wait")
    func guessing() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let (server, port, log) = try await serve(fixture, ["web.token=\(Self.token)"])
        defer { server.killNow() }
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        var statuses: [Int] = []
        for attempt in 0..<20 {
            let reply = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=guess-\(attempt)-zq")
            statuses.append(reply.status)
            if reply.status == 429 {
                #expect(Int(reply.headers["retry-after"] ?? "") ?? 0 >= 1, "\(reply.headers)")
                #expect(reply.error?.contains("too many wrong tokens") == true)
            }
        }
        // A checked wrong token is sent back to the login page (303); one not even checked is 429.
        let checked = statuses.filter { $0 == 303 }.count
        #expect(statuses.prefix(4).allSatisfy { $0 == 303 }, "\(statuses)")
        #expect(statuses.allSatisfy { $0 == 303 || $0 == 429 }, "\(statuses)")
        #expect(checked <= 10, "20 quick guesses, \(checked) checked: \(statuses)")
        // The right token, now: refused unchecked, like a guess.
        let right = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=\(Self.token)")
        #expect(right.status == 429 && right.headers["set-cookie"] == nil, "\(right.status)")
        // A Bearer header is no way around it.
        let bearer = try await RawHTTP.send(port: port, "GET", "/api/v1/status", headers: [("Authorization", "Bearer \(Self.token)")])
        #expect(bearer.status == 429)
        // Another loopback address is held back too: all of loopback is one count, so rotating
        // the source within 127.0.0.0/8 gains no guesses (LoginSessionTests: another /24 is not).
        let elsewhere = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=\(Self.token)", source: "127.0.0.2")
        #expect(elsewhere.status == 429, "\(elsewhere.status) \(elsewhere.body)")
        // One journal line per wrong try that was checked, naming the address, never the guess.
        let readLog: @Sendable () -> String = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        try await waitUntil(.seconds(10), "the log to hold \(checked) refusals (\(readLog()))") {
            readLog().components(separatedBy: "\n").filter { $0.contains("wrong token from 127.0.0.1") }.count == checked
        }
        let text = readLog()
        #expect(!text.contains("guess-"), "\(text)")
        #expect(!text.contains(Self.token), "\(text)")
    }

    @Test("each login is its own session; logging out ends that one only; the cookie is never the token")
    func sessions() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let (server, port, _) = try await serve(fixture, ["web.token=\(Self.token)"])
        defer { server.killNow() }
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        func logIn() async throws -> String {
            let reply = try await RawHTTP.send(port: port, "POST", "/login", headers: form, body: "token=\(Self.token)")
            #expect(reply.status == 303)
            let cookie = try #require(reply.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Max-Age="), "\(cookie)")
            #expect(!cookie.contains(Self.token))
            return String(cookie.split(separator: ";")[0])
        }
        let phone = try await logIn()
        let laptop = try await logIn()
        #expect(phone != laptop, "two logins, one session: \(phone)")
        for session in [phone, laptop] {
            let page = try await RawHTTP.send(port: port, "GET", "/", headers: [("Cookie", session)])
            #expect(page.status == 200)
            #expect(page.body.contains("action=\"/logout\""))
        }
        let out = try await RawHTTP.send(port: port, "POST", "/logout",
                                         headers: form + [("Cookie", phone), ("Origin", "http://127.0.0.1:\(port)")], body: "")
        #expect(out.status == 303 && out.headers["location"] == "/login", "\(out.status) \(out.headers)")
        #expect(out.headers["set-cookie"]?.contains("Max-Age=0") == true)
        let after = try await RawHTTP.send(port: port, "GET", "/", headers: [("Cookie", phone)])
        #expect(after.status == 303 && after.headers["location"] == "/login", "the phone's session outlived its logout")
        let api = try await RawHTTP.send(port: port, "GET", "/api/v1/status", headers: [("Cookie", phone)])
        #expect(api.status == 401)
        let still = try await RawHTTP.send(port: port, "GET", "/", headers: [("Cookie", laptop)])
        #expect(still.status == 200, "the laptop's session ended with the phone's")
    }

    @Test("beyond loopback the page needs a TLS proxy in front (web.behind_proxy); the cookie is then Secure")
    func clearTextBeyondLoopback() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let config = fixture.folder.appendingPathComponent("config.toml").path
        try "timezone = \"Europe/Madrid\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let db = fixture.folder.appendingPathComponent("history.sqlite").path
        for command in [["serve"], ["run", "--once"]] {
            let refused = try await runTool(Self.bridge, command + ["--db", db, "--config", config, "--http", "0.0.0.0:0",
                                                                    "--set", "web.token=\(Self.token)"])
            #expect(refused.status == 1, "\(refused)")
            #expect(refused.error.split(separator: "\n").count == 1, "\(refused.error)")
            #expect(refused.error.contains("web.behind_proxy"), "\(refused.error)")
            #expect(!refused.error.contains(Self.token))
        }
        let (server, port, _) = try await serve(fixture, ["web.token=\(Self.token)", "web.behind_proxy=true"], listen: "0.0.0.0:0")
        defer { server.killNow() }
        let login = try await RawHTTP.send(port: port, "POST", "/login", headers: [("Content-Type", "application/x-www-form-urlencoded")],
                                           body: "token=\(Self.token)")
        #expect(login.status == 303)
        #expect(login.headers["set-cookie"]?.contains("; Secure") == true, "\(login.headers)")
        let named = try await runTool(Self.bridge, ["serve", "--db", db, "--config", config, "--http", "127.0.0.1:0",
                                                    "--set", "web.public_name=bridge.example.org"])
        #expect(named.status == 1 && named.error.contains("web.public_name is set but web.token is not"), "\(named)")
    }
}
