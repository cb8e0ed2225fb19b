// The quarantine: records a bottle sent that cannot be drinks (docs/design.md 3.4), kept aside
// with their raw bytes and the reasons so that the chunk carrying them is still stored and
// acknowledged. Nothing here is ever counted or reminded on. A person looks at each one and,
// where the only fault is the time (B9: a wrong SET_TIME, a dead RTC cell), restores it as a
// drink at a time they give, or discards it.

import AquavateProtocol
import Timekeeping
import Foundation
import GRDB

/// What became of a quarantined record. The raw values are stored and cross the wire.
package enum QuarantineResolution: String, Sendable, Hashable, Codable {
    /// Restored as a drink at a time a person gave.
    case restored
    /// Dropped by a person.
    case discarded
}

/// One quarantined record.
package struct QuarantinedRecord: Sendable, Hashable {
    /// The quarantine's own number, what `bottle restore` and `bottle discard` take.
    package var id: Int64
    package var bottle: String
    package var record: DrinkRecord
    /// Every way the record cannot be a drink.
    package var problems: [RecordProblem]
    /// One line for a person.
    package var reason: String
    /// Bridge clock when it first arrived.
    package var receivedAt: WallInstant
    package var resolution: QuarantineResolution?
    package var resolvedAt: WallInstant?

    /// The 14 bytes as the bottle sent them, lower-case hex.
    package var rawHex: String { record.encoded().lowercaseHex }

    /// Only a wrong time can be mended by a person: an amount or level no bottle can give says
    /// nothing to restore.
    package var isRestorable: Bool { problems == [.time] && resolution == nil }
}

extension QuarantinedRecord: FetchableRecord {
    package init(row: Row) throws {
        id = try row.decode(Int64.self, forColumn: "id")
        bottle = try row.decode(String.self, forColumn: "bottle")
        let hex: String = try row.decode(String.self, forColumn: "raw")
        guard let bytes = Self.bytes(hex: hex), let record = try? DrinkRecord(decoding: bytes) else {
            throw HistoryError.invalidArgument(what: "quarantined record \(id) holds \"\(hex)\"", expected: "14 bytes in hex")
        }
        self.record = record
        problems = (try row.decode(String.self, forColumn: "problems")).split(separator: ",").compactMap { RecordProblem(rawValue: String($0)) }
        reason = try row.decode(String.self, forColumn: "reason")
        receivedAt = try row.decode(WallInstant.self, forColumn: "received_at")
        resolution = (try row.decode(String?.self, forColumn: "resolution")).flatMap(QuarantineResolution.init(rawValue:))
        resolvedAt = try row.decode(WallInstant?.self, forColumn: "resolved_at")
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}

/// Why a quarantined record could not be restored or discarded; one line each.
package enum QuarantineActionError: Error, Equatable, CustomStringConvertible {
    case unknown(id: Int64)
    case alreadyResolved(id: Int64, QuarantineResolution)
    case notOnlyTime(id: Int64, [RecordProblem])
    case timeOutOfRange(id: Int64)
    case timeTaken(id: Int64)

    package var description: String {
        switch self {
        case .unknown(let id):
            return "no quarantined record #\(id); `aquavate-bridge history --quarantined` lists them"
        case .alreadyResolved(let id, let resolution):
            return "quarantined record #\(id) was \(resolution.rawValue) already"
        case .notOnlyTime(let id, let problems):
            return "quarantined record #\(id) is wrong in its \(problems.map(\.rawValue).joined(separator: " and ")), not only its time: it cannot be restored, only discarded"
        case .timeTaken(let id):
            return "quarantined record #\(id): the bottle has a drink with its record id stored at that time already; give another time"
        case .timeOutOfRange(let id):
            return "the time given for record #\(id) is outside 2020-01-01 … two days from now"
        }
    }
}

extension DrinkStore {
    /// Quarantines `record` in the caller's transaction; whether it was new (a re-send of a
    /// record already quarantined changes nothing).
    static func quarantine(_ record: DrinkRecord, problems: [RecordProblem], reason: String, bottle: String,
                           at receivedAt: WallInstant, in db: Database) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO quarantined_record (bottle, record_id, timestamp, raw, problems, reason, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [bottle, record.recordID, record.timestamp,
                                     record.encoded().lowercaseHex,
                                     problems.map(\.rawValue).joined(separator: ","), reason, receivedAt])
        return db.changesCount > 0
    }

    /// The quarantine, oldest first: those still waiting, or every one with `includeResolved`.
    package func quarantined(bottle: String? = nil, includeResolved: Bool = false) throws -> [QuarantinedRecord] {
        var sql = "SELECT * FROM quarantined_record WHERE 1"
        var arguments: StatementArguments = []
        if let bottle {
            sql += " AND bottle = ?"
            arguments += [bottle]
        }
        if !includeResolved { sql += " AND resolution IS NULL" }
        sql += " ORDER BY received_at, id"
        return try history.read("reading the quarantine") { db in try QuarantinedRecord.fetchAll(db, sql: sql, arguments: arguments) }
    }

    /// Records still waiting in the quarantine, per bottle.
    package func quarantinedCounts() throws -> [String: Int] {
        try history.read("counting the quarantine") { db in
            var counts: [String: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT bottle, COUNT(*) FROM quarantined_record WHERE resolution IS NULL GROUP BY bottle")
            while let row = try rows.next() { counts[row[0]] = row[1] }
            return counts
        }
    }

    /// Restores quarantined record `id` as a drink stamped `timestamp` (UTC seconds a person
    /// gave), its own stamp kept as the drink's raw one; only a record whose one fault is its
    /// time. The drink is this bridge's (published to the household like a synced one).
    @discardableResult
    package func restoreQuarantined(id: Int64, timestamp: UInt32, at now: WallInstant) throws -> StoredDrink {
        let now = try ArgumentChecks.instant(now, "restore time")
        guard RecordBounds.timeRange(now: now.secondsSince1970).contains(Double(timestamp)) else {
            throw QuarantineActionError.timeOutOfRange(id: id)
        }
        // The refusals travel out of the transaction as values: thrown inside it, they would
        // come back wrapped as a database failure.
        let outcome = try history.write("restoring quarantined record \(id)") { db -> Result<StoredDrink, QuarantineActionError> in
            let entry: QuarantinedRecord
            switch try Self.unresolvedQuarantined(id: id, in: db) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let found): entry = found
            }
            guard entry.problems == [.time] else { return .failure(.notOnlyTime(id: id, entry.problems)) }
            var record = entry.record
            record.timestamp = timestamp
            guard try Self.insert(record, bottle: entry.bottle, at: now, rawTimestamp: entry.record.timestamp, in: db) else {
                // The bottle already has a drink with this id at this time: keep that one.
                return .failure(.timeTaken(id: id))
            }
            try Self.resolve(id: id, .restored, at: now, in: db)
            return .success(StoredDrink(record, bottle: entry.bottle, storedAt: now))
        }
        return try outcome.get()
    }

    /// Discards quarantined record `id`: it stays in the table, marked, and is no longer listed
    /// as waiting.
    package func discardQuarantined(id: Int64, at now: WallInstant) throws {
        let now = try ArgumentChecks.instant(now, "discard time")
        try history.write("discarding quarantined record \(id)") { db -> Result<Void, QuarantineActionError> in
            if case .failure(let refusal) = try Self.unresolvedQuarantined(id: id, in: db) { return .failure(refusal) }
            try Self.resolve(id: id, .discarded, at: now, in: db)
            return .success(())
        }.get()
    }

    private static func unresolvedQuarantined(id: Int64, in db: Database) throws -> Result<QuarantinedRecord, QuarantineActionError> {
        guard let entry = try QuarantinedRecord.fetchOne(db, sql: "SELECT * FROM quarantined_record WHERE id = ?", arguments: [id]) else {
            return .failure(.unknown(id: id))
        }
        if let resolution = entry.resolution { return .failure(.alreadyResolved(id: id, resolution)) }
        return .success(entry)
    }

    private static func resolve(id: Int64, _ resolution: QuarantineResolution, at now: WallInstant, in db: Database) throws {
        try db.execute(sql: "UPDATE quarantined_record SET resolution = ?, resolved_at = ? WHERE id = ?",
                       arguments: [resolution.rawValue, now, id])
    }
}

extension DrinkStore {
    /// The bottle's own stamps of the drinks stored at a corrected time (a zone offset, a
    /// restore), in no particular order.
    package func rawTimestamps() throws -> [UInt32] {
        try history.read("reading the drinks' own stamps") { db in
            try UInt32.fetchAll(db, sql: "SELECT raw_timestamp FROM drink WHERE raw_timestamp IS NOT NULL")
        }
    }
}
