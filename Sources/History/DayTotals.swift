// Day totals (docs/reminders.md 0): intake per local calendar day, as known at a given instant.

import Foundation
import GRDB
import Timekeeping

/// The intake of one local calendar day.
package struct DayTotal: Sendable, Hashable, Codable {
    package var date: LocalDay
    /// Sum of `amount_ml` of the day's drinks (amount > 0, not deleted).
    package var totalML: Int
    /// Number of those drinks.
    package var drinks: Int

    package init(date: LocalDay, totalML: Int, drinks: Int) {
        self.date = date
        self.totalML = totalML
        self.drinks = drinks
    }
}

extension DrinkStore {
    /// Day totals of the local days (in `timeZone`) that contain any instant of `[from, to)`;
    /// whole days, never a part of one. Only days with drinks are listed, in date order.
    ///
    /// A drink counts when its amount is > 0 and it is not deleted. With `knownAt`, the history
    /// as the bridge knew it at that instant: drinks stored at or before it, and not deleted at
    /// or before it. All bottles are summed unless `bottle` is given.
    package func dayTotals(timeZone: TimeZone, from: WallInstant? = nil, to: WallInstant? = nil,
                          knownAt: WallInstant? = nil, bottle: String? = nil) throws -> [DayTotal] {
        let clock = LocalClock(timeZone: timeZone)
        let firstDay = try from.map { clock.wallClockUncached(at: WallInstant(secondsSince1970: Double(try ArgumentChecks.seconds($0, "from")))).day.daysSince1970 }
        // `to` is excluded: its day counts only when an earlier instant lies in it.
        let lastDay = try to.map { clock.wallClockUncached(at: WallInstant(secondsSince1970: Double(try ArgumentChecks.seconds($0.nextDown, "to")))).day.daysSince1970 }
        if let firstDay, let lastDay, lastDay < firstDay { return [] }
        return try totals(clock: clock, first: firstDay, last: lastDay, knownAt: knownAt, bottle: bottle)
    }

    /// Day totals of the local dates `days` (inclusive), e.g. the last N days for `history`.
    package func dayTotals(timeZone: TimeZone, days range: ClosedRange<LocalDay>,
                          knownAt: WallInstant? = nil, bottle: String? = nil) throws -> [DayTotal] {
        try totals(clock: LocalClock(timeZone: timeZone), first: range.lowerBound.daysSince1970,
                   last: range.upperBound.daysSince1970, knownAt: knownAt, bottle: bottle)
    }

    /// Day totals of the local dates `days` per bottle, in one pass over the drinks of the span
    /// (the dashboard's panels and `/api/v1/days`: one query instead of one per bottle, each of
    /// which would read every bottle's rows through the timestamp index).
    package func dayTotalsByBottle(timeZone: TimeZone, days range: ClosedRange<LocalDay>) throws -> [String: [DayTotal]] {
        let first = range.lowerBound.daysSince1970, last = range.upperBound.daysSince1970
        let margin: Int64 = 2 * 86_400
        var sums: [String: DaySums] = [:]
        var clock = LocalClock(timeZone: timeZone)
        try history.read("computing day totals") { db in
            let statement = try db.cachedStatement(sql: """
                SELECT bottle, timestamp, amount_ml FROM drink
                WHERE amount_ml > 0 AND deleted = 0 AND timestamp >= ? AND timestamp < ?
                """)
            let rows = try Row.fetchCursor(statement, arguments: [Int64(first) * 86_400 - margin, Int64(last + 1) * 86_400 + margin])
            while let row = try rows.next() {
                let day = clock.day(at: WallInstant(secondsSince1970: Double(row[1] as Int64))).daysSince1970
                guard day >= first, day <= last else { continue }
                sums[row[0] as String, default: DaySums()].add(row[2], on: day)
            }
        }
        return sums.mapValues { sums in
            var sums = sums
            return sums.totals()
        }
    }

    /// The total of the local day (in `timeZone`) that contains `instant`: 24 hours, or 23 / 25
    /// on a DST change. Zero drinks when there are none.
    package func dayTotal(containing instant: WallInstant, timeZone: TimeZone, knownAt: WallInstant? = nil,
                         bottle: String? = nil) throws -> DayTotal {
        let clock = LocalClock(timeZone: timeZone)
        let day = clock.wallClockUncached(at: WallInstant(secondsSince1970: Double(try ArgumentChecks.seconds(instant, "instant")))).day.daysSince1970
        let found = try totals(clock: clock, first: day, last: day, knownAt: knownAt, bottle: bottle)
        return found.first ?? DayTotal(date: LocalDay(daysSince1970: day), totalML: 0, drinks: 0)
    }

    /// Sums drinks per local day number in `first...last` (unbounded where nil).
    ///
    /// The query reads only the timestamp range (with the index) widened by two days on each
    /// side, which covers any local day of any zone (offsets within ±26 h); each row is then
    /// bucketed by its local day number, so the days returned are exact in every zone.
    private func totals(clock: LocalClock, first: Int?, last: Int?, knownAt: WallInstant?,
                        bottle: String?) throws -> [DayTotal] {
        let (sql, arguments) = try Self.totalsQuery(first: first, last: last, knownAt: knownAt, bottle: bottle)
        var sums = DaySums()
        var clock = clock
        try history.read("computing day totals") { db in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try rows.next() {
                let day = clock.day(at: WallInstant(secondsSince1970: Double(row[0] as Int64))).daysSince1970
                if let first, day < first { continue }
                if let last, day > last { continue }
                sums.add(row[1], on: day)
            }
        }
        return sums.totals()
    }

    /// The statement `totals` reads, and its arguments.
    static func totalsQuery(first: Int?, last: Int?, knownAt: WallInstant?, bottle: String?) throws -> (sql: String, arguments: StatementArguments) {
        let margin: Int64 = 2 * 86_400
        var conditions = ["amount_ml > 0"]
        var arguments = StatementArguments()
        if let first {
            conditions.append("timestamp >= ?")
            arguments += [Int64(first) * 86_400 - margin]
        }
        if let last {
            conditions.append("timestamp < ?")
            arguments += [Int64(last + 1) * 86_400 + margin]
        }
        if let knownAt {
            let knownAt = try ArgumentChecks.instant(knownAt, "knownAt")
            conditions.append("stored_at <= ? AND (deleted_at IS NULL OR deleted_at > ?)")
            arguments += [knownAt, knownAt]
        } else {
            conditions.append("deleted = 0")
        }
        if let bottle {
            // With days given, through the timestamp index: with a bare `bottle = ?` SQLite took
            // the bottle's key index instead and read every drink the bottle ever had for one
            // day's total (3.1 ms over a bottle's 14,600 drinks of 5 years against 0.08 ms; the
            // page asks it for each bottle's reminder status, as the reminders do when a drink
            // comes). The unary `+` keeps the term out of SQLite's choice of index.
            conditions.append(first != nil || last != nil ? "+bottle = ?" : "bottle = ?")
            arguments += [bottle]
        }
        return ("SELECT timestamp, amount_ml FROM drink WHERE " + conditions.joined(separator: " AND "), arguments)
    }
}

/// Sums of amounts per local day number.
///
/// Rows arrive in storage order, which is nearly chronological, so consecutive rows of one day
/// are summed in local variables and the dictionary is touched once per run of a day.
private struct DaySums {
    private var sums: [Int: (total: Int, drinks: Int)] = [:]
    private var day = 0
    private var total = 0
    private var drinks = 0

    mutating func add(_ amount: Int, on day: Int) {
        if day != self.day {
            flush()
            self.day = day
        }
        total += amount
        drinks += 1
    }

    mutating func totals() -> [DayTotal] {
        flush()
        return sums.sorted { $0.key < $1.key }.map { day, sum in
            DayTotal(date: LocalDay(daysSince1970: day), totalML: sum.total, drinks: sum.drinks)
        }
    }

    private mutating func flush() {
        guard drinks > 0 else { return }
        sums[day, default: (0, 0)].total += total
        sums[day, default: (0, 0)].drinks += drinks
        total = 0
        drinks = 0
    }
}

extension DrinkStore {
    /// The sum of `amount_ml` of intake drinks (amount > 0) whose record timestamp lies in
    /// [`from`, `to`), as known at `knownAt`: stored at or before it and not deleted by then
    /// (docs/reminders.md 0). For windows other than one local day: a week, a suppression window.
    /// All bottles are summed unless `bottle` is given.
    package func intakeTotal(from: WallInstant, to: WallInstant, knownAt: WallInstant? = nil, bottle: String? = nil) throws -> Int {
        let known = knownAt ?? WallInstant(secondsSince1970: .greatestFiniteMagnitude)
        return try history.read("summing drinks") { db in
            let statement = try db.cachedStatement(sql: """
                SELECT COALESCE(SUM(amount_ml), 0) FROM drink
                WHERE timestamp >= ? AND timestamp < ? AND amount_ml > 0
                  AND stored_at <= ? AND (deleted = 0 OR deleted_at > ?)
                  AND (? IS NULL OR bottle = ?)
                """)
            // Timestamps are whole seconds: `≥ from` is `≥ ⌈from⌉`, `< to` is `< ⌈to⌉`.
            return try Int.fetchOne(statement, arguments: [from.secondsSince1970.rounded(.up), to.secondsSince1970.rounded(.up), known, known, bottle, bottle]) ?? 0
        }
    }
}
