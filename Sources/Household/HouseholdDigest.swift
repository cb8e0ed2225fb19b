// Anti-entropy for the household's drinks: what a member holds of one origin's drinks, per day, in
// a few bytes. Each member publishes, signed, the digest of the drinks it synced itself (it is
// their one authority) over the last `windowDays` days: per day (UTC day number) the count and
// 8 bytes of SHA-256 over the sorted bottle, record id, time and deletion mark of each drink. A
// member compares it with the same digest over the drinks of that origin it holds, and asks for
// exactly the days that differ (`want`); the origin publishes those days' drinks again, which
// every member stores idempotently. So a drink lost on the way (a broker queue over its limit, a
// session someone else emptied, a broker restarted without persistence) is found and fetched,
// with traffic proportional to the days that differ, never the history.
//
// Before the window, the digest compares coarser periods of 14 days (period number = UTC day
// number / 14), the last `horizonPeriods` of them (about a year): a member whose period differs
// asks for the period (`want` with `periods`), the origin answers with the per-day digest of that
// period alone, and the member then asks for exactly the days that differ, as in the window. So a
// loss older than the window costs a digest of 14 days more, not the period's drinks.
//
// A day that differs is repaired drink by drink: the `want` carries, per day, the mark of each
// drink of that origin the asker holds (6 bytes of SHA-256 over the same line the day's hash
// covers: bottle, record id, time, deletion mark), and the origin publishes only its drinks of
// that day whose mark is not among them: the lost ones, and the ones whose deletion the asker
// missed. So one lost drink costs one drink, not its day. An origin one release older ignores
// the marks and publishes the whole day, as before.

import AquavateProtocol
import Crypto
import Foundation
import History
import MQTT

enum HouseholdDigest {
    /// The days a digest covers one by one: a member away for a week still compares every day it missed.
    static let windowDays = 14
    static let secondsPerDay: Int64 = 86_400
    /// Before the window: periods of this many days, the last `horizonPeriods` of them.
    static let periodDays: Int64 = 14
    static let horizonPeriods: Int64 = 26

    /// Day number (days since 1970, UTC) → `count:hash`.
    static func days(_ rows: [DrinkStore.DigestRow]) -> [Int64: String] {
        Dictionary(grouping: rows) { Self.day(of: $0.timestamp) }.mapValues(summary)
    }

    /// Period number (day number / `periodDays`) → `count:hash`, over the rows before `windowStart`.
    static func periods(_ rows: [DrinkStore.DigestRow], before windowStart: Int64) -> [Int64: String] {
        Dictionary(grouping: rows.filter { $0.timestamp < windowStart }) { period(ofDay: day(of: $0.timestamp)) }.mapValues(summary)
    }

    /// The count and 8 bytes of SHA-256 over the sorted bottle, record id, time and deletion mark of each row.
    static func summary(_ rows: [DrinkStore.DigestRow]) -> String {
        let lines = rows.map { "\($0.bottle) \($0.recordID) \($0.timestamp) \($0.deleted ? 1 : 0)" }.sorted()
        let hash = SHA256.hash(data: Array(lines.joined(separator: "\n").utf8))
        return "\(rows.count):" + hash.prefix(8).lowercaseHex
    }

    /// A drink's mark in a `want` (`held`): 6 bytes of SHA-256 over its line of the day's hash, in hex.
    static func mark(bottle: String, recordID: Int64, timestamp: Int64, deleted: Bool) -> String {
        let hash = SHA256.hash(data: Array("\(bottle) \(recordID) \(timestamp) \(deleted ? 1 : 0)".utf8))
        return hash.prefix(markBytes).lowercaseHex
    }

    static func mark(_ row: DrinkStore.DigestRow) -> String {
        mark(bottle: row.bottle, recordID: row.recordID, timestamp: row.timestamp, deleted: row.deleted)
    }

    /// 6 bytes: two of a day's drinks share a mark once in about 10^12 days repaired, and then the
    /// one the asker lacks is not sent (the day keeps differing; the next repair asks again).
    static let markBytes = 6

    static func day(of timestamp: Int64) -> Int64 {
        timestamp >= 0 ? timestamp / secondsPerDay : (timestamp - secondsPerDay + 1) / secondsPerDay
    }

    static func period(ofDay day: Int64) -> Int64 {
        day >= 0 ? day / periodDays : (day - periodDays + 1) / periodDays
    }

    /// The days of a period.
    static func days(ofPeriod period: Int64) -> ClosedRange<Int64> {
        (period * periodDays)...(period * periodDays + periodDays - 1)
    }

    /// The first second of the window that ends today (by `now`, seconds since 1970).
    static func windowStart(now: Double) -> Int64 {
        (day(of: Int64(now)) - Int64(windowDays - 1)) * secondsPerDay
    }

    /// The first second of the oldest period compared: what is older is never compared.
    static func horizonStart(now: Double) -> Int64 {
        (period(ofDay: day(of: windowStart(now: now))) - horizonPeriods) * periodDays * secondsPerDay
    }

    /// The days (or periods) of the origin's digest that differ from what this member holds of it.
    static func differing(theirs: [Int64: String], ours: [Int64: String]) -> [Int64] {
        theirs.filter { ours[$0.key] != $0.value }.map(\.key).sorted()
    }
}

/// `digest/<bridge>`: the digest of the drinks the bridge synced, per day, and per period before
/// the window (`periods`, left out when there is none: a member one release older ignores it).
struct HouseholdDigestMessage: WireMessage, Decodable, Equatable {
    var days: [String: String]
    var periods: [String: String]?

    init(_ days: [Int64: String], periods: [Int64: String] = [:]) {
        self.days = Dictionary(uniqueKeysWithValues: days.map { (String($0.key), $0.value) })
        self.periods = periods.isEmpty ? nil : Dictionary(uniqueKeysWithValues: periods.map { (String($0.key), $0.value) })
    }

    init(days: [String: String], periods: [String: String]? = nil) {
        self.days = days
        self.periods = periods
    }

    /// The days, or nil when the body is not a digest.
    static func read(_ body: [UInt8]) -> [Int64: String]? {
        readAll(body)?.days
    }

    /// The days and the periods, or nil when the body is not a digest.
    static func readAll(_ body: [UInt8]) -> (days: [Int64: String], periods: [Int64: String])? {
        guard let message = WireJSON.read(Self.self, from: body), message.days.count <= HouseholdDigest.windowDays + 2,
              (message.periods?.count ?? 0) <= Int(HouseholdDigest.horizonPeriods) + 2,
              let days = numbered(message.days), let periods = numbered(message.periods ?? [:]) else { return nil }
        return (days, periods)
    }

    private static func numbered(_ entries: [String: String]) -> [Int64: String]? {
        var numbered: [Int64: String] = [:]
        for (key, value) in entries {
            guard let number = Int64(key), value.count <= 40 else { return nil }
            numbered[number] = value
        }
        return numbered
    }
}

/// `want/<bridge>`: the days of `of`'s drinks the bridge asks for again, and the periods whose
/// per-day digest it asks for (`periods`, left out when there is none). `held`, per day of
/// `days`, the marks of the drinks of `of` it holds that day (HouseholdDigest.mark): the origin
/// sends only the others. A day without `held` is asked for whole; `held` is left out when no
/// day has one, and a member one release older, which does not know it, sends the days whole.
struct HouseholdWantMessage: WireMessage, Decodable, Equatable {
    var of: String
    var days: [Int64]
    var periods: [Int64]?
    var held: [String: [String]]?

    /// The most marks of one day a want carries; a day with more is asked for whole.
    static let maximumMarksPerDay = 100
    /// The largest body a want is given, under the household's largest message with its seal.
    static let maximumBody = 1_600

    init(of: String, days: [Int64], periods: [Int64] = [], held: [Int64: [String]] = [:]) {
        self.of = of
        self.days = days
        self.periods = periods.isEmpty ? nil : periods
        self.held = held.isEmpty ? nil : Dictionary(uniqueKeysWithValues: held.map { (String($0.key), $0.value) })
    }

    /// The marks held per day, by day number (none for a want without them).
    var heldByDay: [Int64: Set<String>] {
        var byDay: [Int64: Set<String>] = [:]
        for (day, marks) in held ?? [:] { if let number = Int64(day) { byDay[number] = Set(marks) } }
        return byDay
    }

    static func read(_ body: [UInt8]) -> Self? {
        guard let message = WireJSON.read(Self.self, from: body), MQTTTopics.isValidID(message.of),
              message.days.count <= HouseholdDigest.windowDays + 2,
              (message.periods?.count ?? 0) <= Int(HouseholdDigest.horizonPeriods) + 2 else { return nil }
        let markLength = HouseholdDigest.markBytes * 2
        for (day, marks) in message.held ?? [:] {
            guard let number = Int64(day), message.days.contains(number), marks.count <= maximumMarksPerDay,
                  marks.allSatisfy({ $0.count == markLength && $0.allSatisfy(\.isHexDigit) }) else { return nil }
        }
        return message
    }

    /// The wants that ask `of` for `days` (with the marks held of each, when any) and `periods`:
    /// as many as keep each body under `maximumBody`, days in order. A day whose marks alone
    /// would not fit, or are more than `maximumMarksPerDay`, is asked for whole.
    static func batches(of origin: String, days: [Int64], periods: [Int64], held: [Int64: [String]]) -> [Self] {
        var batches: [Self] = []
        var current = Self(of: origin, days: [], periods: periods)
        var currentHeld: [Int64: [String]] = [:]
        for day in days.sorted() {
            let marks = held[day].flatMap { $0.isEmpty || $0.count > maximumMarksPerDay ? nil : $0.sorted() }
            var tried = currentHeld
            tried[day] = marks
            let candidate = Self(of: origin, days: current.days + [day], periods: current.periods ?? [], held: tried)
            if candidate.text.utf8.count <= maximumBody {
                current = candidate
                currentHeld = tried
                continue
            }
            if !current.days.isEmpty || current.periods != nil { batches.append(current) }
            let alone = Self(of: origin, days: [day], held: marks.map { [day: $0] } ?? [:])
            current = alone.text.utf8.count <= maximumBody ? alone : Self(of: origin, days: [day])
            currentHeld = current.held == nil ? [:] : [day: marks ?? []]
        }
        if !current.days.isEmpty || current.periods != nil { batches.append(current) }
        return batches
    }
}
