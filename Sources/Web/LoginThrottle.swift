// Guessing the token at the login form (or as a Bearer header) is slowed per client address:
// the first few wrong tries are free (a typo), then each one doubles the wait before the address
// may try again, up to 5 minutes; a right one clears it. During the wait the form is not even
// checked (429 with Retry-After), so no guess gets through faster than the back-off allows. The
// old server took ~1,600 guesses a second.
//
// An IPv6 client is counted by its /64, which one host usually holds whole. An IPv4 client is
// counted by its address and by its /24 as well, and every loopback client (127.0.0.0/8, ::1) by
// one count for them all: a guesser rotating its source address within a subnet it holds (1,000
// guesses in 0.5 s from 127.0.0.0/8 when only the address counted) waits as one client. A try
// waits for the longest of its counts; a right token clears them all. Behind a reverse proxy
// every client has the proxy's address: they then share one back-off, which still bounds the
// guessing (docs/web.md says so). The table is bounded: past `capacity` entries the ones whose
// wait is longest over are forgotten first.

import Glibc
import Locking
import Timekeeping

final class LoginThrottle: Sendable {
    /// Wrong tries allowed before the first wait.
    static let freeFailures = 3
    static let longestWait: Duration = .seconds(300)
    static let capacity = 4096

    struct Record: Sendable {
        var failures: Int
        var notBefore: MonotonicInstant
    }

    private let clock: any MonotonicClock
    private let records = Locked<[String: Record]>([:])

    init(clock: any MonotonicClock) {
        self.clock = clock
    }

    /// The wait left before `client` may try again, nil when it may try now.
    func wait(for client: String) -> Duration? {
        let now = clock.instant
        let keys = Self.keys(client)
        return records.withLock { records in
            let latest = keys.compactMap { records[$0]?.notBefore }.max()
            guard let latest, latest > now else { return nil }
            return latest - now
        }
    }

    /// Counts a wrong try under each of the client's counts; returns the most wrong tries in a
    /// row among them and the wait now imposed (the longest).
    func failed(_ client: String) -> (failures: Int, wait: Duration) {
        let now = clock.instant
        let keys = Self.keys(client)
        return records.withLock { records in
            var most = (failures: 0, wait: Duration.zero)
            for key in keys {
                if records.count >= Self.capacity, records[key] == nil {
                    records = records.filter { $0.value.notBefore > now }
                    if records.count >= Self.capacity, let first = records.min(by: { $0.value.notBefore < $1.value.notBefore })?.key {
                        records[first] = nil
                    }
                }
                var record = records[key] ?? Record(failures: 0, notBefore: now)
                record.failures += 1
                let wait = Self.wait(afterFailures: record.failures)
                record.notBefore = max(record.notBefore, now + wait)
                records[key] = record
                most = (max(most.failures, record.failures), max(most.wait, record.notBefore - now))
            }
            return most
        }
    }

    /// A right token: the client starts afresh, and so do its subnet and loopback counts (a guesser
    /// never gives a right one).
    func succeeded(_ client: String) {
        let keys = Self.keys(client)
        records.withLock { records in
            for key in keys { records.removeValue(forKey: key) }
        }
    }

    /// Every count an attempt from `client` goes to: its address (IPv6: its /64), and an IPv4
    /// client's /24, or `loopback` for any loopback client.
    static func keys(_ client: String) -> [String] {
        let own = key(client)
        if own == "::1" || key("::1") == own { return [own, "loopback"] }
        var address = in_addr()
        guard inet_pton(AF_INET, own, &address) == 1 else { return [own] }
        let octets = withUnsafeBytes(of: &address) { Array($0) }
        if octets[0] == 127 { return [own, "loopback"] }
        return [own, "\(octets[0]).\(octets[1]).\(octets[2]).0/24"]
    }

    /// No wait for the first `freeFailures`, then 1 s, 2 s, 4 s … up to `longestWait`.
    static func wait(afterFailures failures: Int) -> Duration {
        guard failures > freeFailures else { return .zero }
        let doublings = min(failures - freeFailures - 1, 20)
        return min(.seconds(1 << doublings), longestWait)
    }

    /// The address an attempt is counted under: IPv4 whole (also when a dual-stack socket shows it
    /// as `::ffff:a.b.c.d`), IPv6 by its first 64 bits.
    static func key(_ client: String) -> String {
        if client.lowercased().hasPrefix("::ffff:"), client.contains(".") { return String(client.dropFirst("::ffff:".count)) }
        var address = in6_addr()
        guard client.contains(":"), inet_pton(AF_INET6, client, &address) == 1 else { return client }
        let bytes = withUnsafeBytes(of: &address) { Array($0.prefix(8)) }
        return bytes.map { String($0, radix: 16) }.joined(separator: ":") + "::/64"
    }
}
