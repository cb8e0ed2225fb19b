// The web server's defences that hold state over time, on a manual clock: a session's expiry and
// the session table's bound, the login back-off against token guessing and how client addresses
// are counted for it, and the Host rule against DNS rebinding (docs/web.md, "Logging in" and
// "Which names it answers to"; HostileNetworkTests runs the attacks on the real binary).

import Testing
import Timekeeping
@testable import Web

@Suite struct LoginSessionTests {
    @Test func aSessionEndsAtItsExpiryOrItsLogout() {
        let clock = ManualClock()
        let sessions = Sessions(clock: clock)
        let first = sessions.open()
        let second = sessions.open()
        #expect(first != second && first.count == 64)
        #expect(sessions.isLive(first) && sessions.isLive(second))
        #expect(!sessions.isLive(String(first.dropLast()) + "x"))
        sessions.close(first)
        #expect(!sessions.isLive(first) && sessions.isLive(second))
        clock.advance(by: Sessions.lifetime - .seconds(1))
        #expect(sessions.isLive(second))
        clock.advance(by: .seconds(2))
        #expect(!sessions.isLive(second))
    }

    @Test func loggingInInALoopKeepsTheTableBounded() {
        let sessions = Sessions(clock: ManualClock())
        let oldest = sessions.open()
        for _ in 0..<(Sessions.capacity * 3) { _ = sessions.open() }
        #expect(sessions.count == Sessions.capacity)
        #expect(!sessions.isLive(oldest))
    }

    @Test func theBackOffDoublesAfterTheFreeTriesAndEndsWithARightOne() {
        #expect((1...10).map { LoginThrottle.wait(afterFailures: $0).components.seconds } == [0, 0, 0, 1, 2, 4, 8, 16, 32, 64])
        #expect(LoginThrottle.wait(afterFailures: 40) == LoginThrottle.longestWait)
        let clock = ManualClock()
        let throttle = LoginThrottle(clock: clock)
        for _ in 0..<4 { _ = throttle.failed("192.0.2.7") }
        #expect(throttle.wait(for: "192.0.2.7") == .seconds(1))
        #expect(throttle.wait(for: "192.0.2.8") == nil)
        clock.advance(by: .seconds(1))
        #expect(throttle.wait(for: "192.0.2.7") == nil)
        #expect(throttle.failed("192.0.2.7").wait == .seconds(2))
        throttle.succeeded("192.0.2.7")
        #expect(throttle.wait(for: "192.0.2.7") == nil)
        #expect(throttle.failed("192.0.2.7").failures == 1)
    }

    @Test func anIPv6ClientIsCountedByItsSlash64() {
        #expect(LoginThrottle.key("2001:db8:1:2::1") == LoginThrottle.key("2001:db8:1:2:ffff::9"))
        #expect(LoginThrottle.key("2001:db8:1:2::1") != LoginThrottle.key("2001:db8:1:3::1"))
        #expect(LoginThrottle.key("192.0.2.7") == "192.0.2.7")
        // IPv4 clients of a dual-stack socket are not one /64.
        #expect(LoginThrottle.key("::ffff:192.0.2.7") == "192.0.2.7")
        #expect(LoginThrottle.key("::ffff:192.0.2.7") != LoginThrottle.key("::ffff:192.0.2.8"))
    }

    @Test func hostsOfThisBridge() {
        let bare = HostCheck(tokenSet: false, publicName: nil)
        for host in ["127.0.0.1", "127.0.0.1:8080", "127.255.0.9:1", "localhost", "LocalHost:80", "[::1]", "[::1]:8080"] {
            #expect(bare.accepts(host), "\(host)")
        }
        for host in ["127.rebind.attacker.example", "127.0.0.1.nip.io", "127.0.0.1.nip.io:8080", "127.1", "127.0.0.1:", "127.0.0.1:123456",
                     "127.0.0.1:80:80", "0177.0.0.1", "192.168.1.2", "[::2]", "[::1", "", "localhost.", "example.org", "[::1]x"] {
            #expect(!bare.accepts(host), "\(host)")
        }
        let guarded = HostCheck(tokenSet: true, publicName: "bridge.example.org")
        for host in ["bridge.example.org", "Bridge.Example.Org:443", "192.168.1.2:8080", "[fd00::2]:8080", "127.0.0.1"] {
            #expect(guarded.accepts(host), "\(host)")
        }
        for host in ["example.org", "bridge.example.org.attacker.example", "127.rebind.attacker.example", "x.bridge.example.org"] {
            #expect(!guarded.accepts(host), "\(host)")
        }
    }
}
