// What can go wrong with the history database, one line each with what to do.

import Foundation
import GRDB

/// A failure of the history database. `description` is one line: what failed, and what to do.
package enum HistoryError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The folder that should hold the database could not be created.
    case cannotCreateFolder(path: String, reason: String)
    /// SQLite could not open or create the database file.
    case cannotOpen(path: String, reason: String)
    /// The database (or its folder, which must hold the -wal and -shm files) is not writable.
    case readOnly(path: String)
    /// The file is not an SQLite database, or its content is damaged.
    case corrupt(path: String, reason: String)
    /// The database was migrated by a newer version of the bridge.
    case newerSchema(path: String, unknownMigrations: [String])
    /// Another process holds a lock for longer than the busy timeout.
    case busy(path: String)
    /// The disk is full.
    case diskFull(path: String)
    /// An argument the history cannot store or compute with.
    case invalidArgument(what: String, expected: String)
    /// Any other database failure.
    case failed(path: String, operation: String, reason: String)

    package var description: String {
        switch self {
        case let .cannotCreateFolder(path, reason):
            "cannot create the folder for the history database \(path) (\(reason)); create it or choose another --db PATH"
        case let .cannotOpen(path, reason):
            "cannot open the history database \(path) (\(reason)); check that its folder exists and is writable by this user, or choose another --db PATH"
        case let .readOnly(path):
            "the history database \(path) is read-only; give this user write permission on the file and its folder (for the -wal and -shm files), or choose another --db PATH"
        case let .corrupt(path, reason):
            "the history database \(path) is not a valid SQLite database (\(reason)); move it aside to start a new history, or restore a backup"
        case let .newerSchema(path, unknown):
            "the history database \(path) was written by a newer aquavate-bridge (unknown migrations: \(unknown.joined(separator: ", "))); upgrade aquavate-bridge or choose another --db PATH"
        case let .busy(path):
            "the history database \(path) is locked by another process; stop the other aquavate-bridge or try again"
        case let .diskFull(path):
            "no space left on the disk of the history database \(path); free some space and try again"
        case let .invalidArgument(what, expected):
            "invalid \(what) for the history; expected \(expected)"
        case let .failed(path, operation, reason):
            "\(operation) failed on the history database \(path) (\(reason)); check the disk and the file, or choose another --db PATH"
        }
    }
}

extension HistoryError {
    /// Translates any error thrown while using the database into a `HistoryError`.
    init(_ error: any Error, path: String, operation: String) {
        if let error = error as? HistoryError {
            self = error
            return
        }
        guard let error = error as? DatabaseError else {
            self = .failed(path: path, operation: operation, reason: Self.oneLine("\(error)"))
            return
        }
        self.init(sqliteCode: error.resultCode.primaryResultCode.rawValue,
                  message: error.message ?? "SQLite error \(error.resultCode.rawValue)",
                  path: path, operation: operation)
    }

    /// The `HistoryError` for an SQLite primary result code.
    init(sqliteCode: Int32, message: String, path: String, operation: String) {
        let reason = Self.oneLine(message)
        switch ResultCode(rawValue: sqliteCode) {
        case .SQLITE_READONLY:
            self = .readOnly(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH:
            self = .cannotOpen(path: path, reason: reason)
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            self = .corrupt(path: path, reason: reason)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .busy(path: path)
        case .SQLITE_FULL:
            self = .diskFull(path: path)
        default:
            self = .failed(path: path, operation: operation, reason: reason)
        }
    }

    /// Keeps a description on one line whatever the underlying message holds.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
