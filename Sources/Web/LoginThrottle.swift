// Guessing the token at the login form (or as a Bearer header) is slowed per client address:
// the first few wrong tries are free (a typo), then each one doubles the wait before the address
// may try again, up to 5 minutes; a right one clears it. During the wait the form is not even
// checked (429 with Retry-After), so no guess gets through faster than the back-off allows. The
// old server took ~1,600 guesses a second (issue 29).
//
// An IPv6 client is counted by its /64, which one host usually holds whole. Behind a reverse
// proxy every client has the proxy's address: they then share one back-off, which still bounds
// the guessing (docs/web.md says so). The table is bounded: past `capacity` addresses the ones
// whose wait is longest over are forgotten first.

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
        return records.withLock { records in
            guard let record = records[Self.key(client)], record.notBefore > now else { return nil }
            return record.notBefore - now
        }
    }

    /// Counts a wrong try; returns the number of wrong tries in a row and the wait now imposed.
    func failed(_ client: String) -> (failures: Int, wait: Duration) {
        let now = clock.instant
        let key = Self.key(client)
        return records.withLock { records in
            if records.count >= Self.capacity, records[key] == nil {
                records = records.filter { $0.value.notBefore > now }
                if records.count >= Self.capacity, let first = records.min(by: { $0.value.notBefore < $1.value.notBefore })?.key {
                    records[first] = nil
                }
            }
            var record = records[key] ?? Record(failures: 0, notBefore: now)
            record.failures += 1
            let wait = Self.wait(afterFailures: record.failures)
            record.notBefore = now + wait
            records[key] = record
            return (record.failures, wait)
        }
    }

    /// A right token: the address starts afresh.
    func succeeded(_ client: String) {
        _ = records.withLock { $0.removeValue(forKey: Self.key(client)) }
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
