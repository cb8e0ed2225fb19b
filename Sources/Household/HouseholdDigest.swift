// Anti-entropy for the household's drinks: what a member holds of one origin's drinks, per day, in
// a few bytes. Each member publishes, signed, the digest of the drinks it synced itself (it is
// their one authority) over the last `windowDays` days: per day (UTC day number) the count and
// 8 bytes of SHA-256 over the sorted bottle, record id, time and deletion mark of each drink. A
// member compares it with the same digest over the drinks of that origin it holds, and asks for
// exactly the days that differ (`want`); the origin publishes those days' drinks again, which
// every member stores idempotently. So a drink lost on the way (a broker queue over its limit, a
// session someone else emptied, a broker restarted without persistence) is found and fetched,
// with traffic proportional to the days that differ, never the history.

import Crypto
import Foundation
import History
import MQTT

enum HouseholdDigest {
    /// The days a digest covers: a member away for a week still compares every day it missed.
    static let windowDays = 14
    static let secondsPerDay: Int64 = 86_400

    /// Day number (days since 1970, UTC) → `count:hash`.
    static func days(_ rows: [DrinkHistory.DigestRow]) -> [Int64: String] {
        var byDay: [Int64: [DrinkHistory.DigestRow]] = [:]
        for row in rows { byDay[Self.day(of: row.timestamp), default: []].append(row) }
        return byDay.mapValues { rows in
            let lines = rows.map { "\($0.bottle) \($0.recordID) \($0.timestamp) \($0.deleted ? 1 : 0)" }.sorted()
            let hash = SHA256.hash(data: Array(lines.joined(separator: "\n").utf8))
            return "\(rows.count):" + hash.prefix(8).map { String(format: "%02x", $0) }.joined()
        }
    }

    static func day(of timestamp: Int64) -> Int64 {
        timestamp >= 0 ? timestamp / secondsPerDay : (timestamp - secondsPerDay + 1) / secondsPerDay
    }

    /// The first second of the window that ends today (by `now`, seconds since 1970).
    static func windowStart(now: Double) -> Int64 {
        (day(of: Int64(now)) - Int64(windowDays - 1)) * secondsPerDay
    }

    /// The days of the origin's digest that differ from what this member holds of it.
    static func differing(theirs: [Int64: String], ours: [Int64: String]) -> [Int64] {
        theirs.filter { ours[$0.key] != $0.value }.map(\.key).sorted()
    }
}

/// `digest/<bridge>`: the digest of the drinks the bridge synced, per day.
struct HouseholdDigestMessage: WireMessage, Decodable, Equatable {
    var days: [String: String]

    init(_ days: [Int64: String]) {
        self.days = Dictionary(uniqueKeysWithValues: days.map { (String($0.key), $0.value) })
    }

    init(days: [String: String]) {
        self.days = days
    }

    /// The days, or nil when the body is not a digest.
    static func read(_ body: [UInt8]) -> [Int64: String]? {
        guard let message = WireJSON.read(Self.self, from: body), message.days.count <= HouseholdDigest.windowDays + 2 else { return nil }
        var days: [Int64: String] = [:]
        for (key, value) in message.days {
            guard let day = Int64(key), value.count <= 40 else { return nil }
            days[day] = value
        }
        return days
    }
}

/// `want/<bridge>`: the days of `of`'s drinks the bridge asks for again.
struct HouseholdWantMessage: WireMessage, Decodable, Equatable {
    var of: String
    var days: [Int64]

    static func read(_ body: [UInt8]) -> Self? {
        guard let message = WireJSON.read(Self.self, from: body), MQTTTopics.isValidID(message.of),
              message.days.count <= HouseholdDigest.windowDays + 2 else { return nil }
        return message
    }
}
