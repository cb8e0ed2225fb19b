// The INSERT of one drink record: the statement a sync runs once per record, bound and stepped
// through SQLite's C API on GRDB's own cached statement (GRDB hands its statements out for this:
// `Statement.sqliteStatement`, "suitable for the SQLite C API").
//
// Why not `Statement.execute(arguments:)`: GRDB takes arguments as a sequence of existentials,
// converts and checks them one by one, and announces every execution to its observers: ~14,000
// instructions a record around SQLite's own ~18,000 (callgrind of `run --once` syncing 600
// records: 8.7 M of its 115 M). Everything else stays GRDB's: the connection, the transaction
// the statement runs in, the statement cache. The history uses no GRDB observation that an
// unannounced statement could leave uninformed.

import AquavateProtocol
import Timekeeping
import GRDB
import GRDBSQLite

extension DrinkStore {
    /// `INSERT OR IGNORE` of `record` into the caller's transaction; whether a row went in (no
    /// row: the key is taken, or a constraint refused it). `rawTimestamp`: the bottle's own
    /// stamp when `record.timestamp` is a corrected one.
    static func insert(_ record: DrinkRecord, bottle: String, at storedAt: WallInstant, rawTimestamp: UInt32? = nil,
                       in db: Database) throws -> Bool {
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO drink
                (bottle, record_id, timestamp, amount_ml, bottle_level_ml, type, type_raw, flags, deleted, stored_at, deleted_at,
                 raw_timestamp)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let statement = insert.sqliteStatement
        // Left as found: reset and unbound, whatever happens here.
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let deleted = record.isDeleted
        let codes = [
            sqlite3_bind_text(statement, 1, bottle, -1, transient),
            sqlite3_bind_int64(statement, 2, Int64(record.recordID)),
            sqlite3_bind_int64(statement, 3, Int64(record.timestamp)),
            sqlite3_bind_int64(statement, 4, Int64(record.amountML)),
            sqlite3_bind_int64(statement, 5, Int64(record.bottleLevelML)),
            sqlite3_bind_text(statement, 6, record.kind.rawValue, -1, transient),
            sqlite3_bind_int64(statement, 7, Int64(record.typeRaw)),
            sqlite3_bind_int64(statement, 8, Int64(record.flagsRaw)),
            sqlite3_bind_int64(statement, 9, deleted ? 1 : 0),
            sqlite3_bind_double(statement, 10, storedAt.secondsSince1970),
            deleted ? sqlite3_bind_double(statement, 11, storedAt.secondsSince1970) : sqlite3_bind_null(statement, 11),
            rawTimestamp.map { sqlite3_bind_int64(statement, 12, Int64($0)) } ?? sqlite3_bind_null(statement, 12),
        ]
        if let failed = codes.first(where: { $0 != SQLITE_OK }) {
            throw DatabaseError(resultCode: ResultCode(rawValue: failed), message: db.lastErrorMessage, sql: insert.sql)
        }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: insert.sql)
        }
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    /// SQLite copies the text before the bind returns (`SQLITE_TRANSIENT`, a C macro Swift
    /// cannot import).
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
