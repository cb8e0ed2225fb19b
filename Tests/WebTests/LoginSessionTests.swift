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
        #expect(throttle.wait(for: "198.51.100.8") == nil, "a client of another /24 is not slowed")
        clock.advance(by: .seconds(1))
        #expect(throttle.wait(for: "192.0.2.7") == nil)
        #expect(throttle.failed("192.0.2.7").wait == .seconds(2))
        throttle.succeeded("192.0.2.7")
        #expect(throttle.wait(for: "192.0.2.7") == nil)
        #expect(throttle.failed("192.0.2.7").failures == 1)
    }

    @Test func aGuesserRotatingItsAddressWaitsAsOneClient() {
        let clock = ManualClock()
        let throttle = LoginThrottle(clock: clock)
        // Within 127.0.0.0/8: every loopback address, and ::1, is one count.
        for index in 0..<4 { _ = throttle.failed("127.0.\(index).\(index + 1)") }
        #expect(throttle.wait(for: "127.9.8.7") == .seconds(1))
        #expect(throttle.wait(for: "::1") == .seconds(1))
        #expect(throttle.wait(for: "::ffff:127.1.1.1") == .seconds(1))
        // Within one IPv4 /24: one count; another /24 is not slowed.
        for index in 0..<5 { _ = throttle.failed("192.0.2.\(index + 10)") }
        #expect(throttle.wait(for: "192.0.2.200") == .seconds(2))
        #expect(throttle.wait(for: "192.0.3.200") == nil)
        // A thousand guesses from rotating addresses: no faster than the back-off allows.
        var allowed = 0
        for index in 0..<1000 where throttle.wait(for: "127.0.\(index / 250).\(index % 250 + 1)") == nil {
            allowed += 1
            _ = throttle.failed("127.0.\(index / 250).\(index % 250 + 1)")
        }
        #expect(allowed == 0, "the loopback count was waiting: \(allowed) guesses went through")
        // A right token clears the client's counts.
        throttle.succeeded("192.0.2.10")
        #expect(throttle.wait(for: "192.0.2.11") == nil)
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
