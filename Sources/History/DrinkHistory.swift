// The drink history: one SQLite database, opened, configured and migrated.

import Foundation
import GRDB

/// The bridge's database: drinks, day totals, bottle state and settings (docs/design.md 2).
///
/// The class keeps what every store shares: the file, its writer, its durability and its
/// migrations. Each concept is reached through a store of its own over that writer: `drinks`
/// (DrinkStore), `reminders` (ReminderStore), `household` (HouseholdStore).
///
/// A file database is a GRDB `DatabasePool` in WAL mode, so that `status` and `history` can
/// read while the daemon writes; `nil` gives an in-memory `DatabaseQueue` (replay without
/// `--db`, tests). Every method is synchronous, thread-safe, and throws only `HistoryError`.
package final class DrinkHistory: Sendable {
    /// The database file, or nil for an in-memory history.
    package let path: String?
    let writer: any DatabaseWriter
    /// What a commit survives (ignored in memory).
    let durability: Durability
    /// Told the operation of every read transaction: tests count the reads one page or one scrape
    /// makes, which must not grow with how often a bottle is resolved.
    let readObserver: (@Sendable (String) -> Void)?

    /// Opens (creating it and its folders if needed) and migrates the history at `path`.
    ///
    /// - Parameters:
    ///   - path: the database file, or nil for a history in memory.
    ///   - durability: `.full` for the live bridge (a returned `store` survives power loss),
    ///     `.normal` for replay and benchmarks. Ignored in memory.
    package convenience init(path: String?, durability: Durability = .full) throws {
        try self.init(path: path, durability: durability, observingReads: nil)
    }

    /// The history at `path`, `observer` told the operation of each read transaction.
    package init(path: String?, durability: Durability = .full, observingReads observer: (@Sendable (String) -> Void)?) throws {
        self.path = path
        self.durability = durability
        readObserver = observer
        let shownPath = path ?? Self.inMemoryName
        do {
            if let path {
                writer = try Self.openFile(at: path)
                // The migrations commit at GRDB's WAL level (NORMAL: consistent after a power cut,
                // perhaps without the last steps, which then run again at the next start), not one
                // fsync per step: 8 fewer fsyncs when a database is created. The level asked for
                // applies from the first write after them, and its first FULL commit syncs the WAL
                // with every step in it.
                try Self.migrate(writer, shownPath: shownPath)
                try writer.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA synchronous = \(durability.pragmaValue)")
                }
            } else {
                writer = try DatabaseQueue(configuration: Self.configuration())
                try Self.migrate(writer, shownPath: shownPath)
            }
        } catch {
            throw HistoryError(error, path: shownPath, operation: "opening")
        }
    }

    /// Frees what the database holds in memory between uses: page caches and idle reader
    /// connections (they reopen on the next read). The daemon calls it after each session.
    package func releaseMemory() {
        switch writer {
        case let pool as DatabasePool: pool.releaseMemory()
        case let queue as DatabaseQueue: queue.releaseMemory()
        default: break
        }
    }

    /// Names of the migration steps applied to this database, in order.
    func appliedMigrations() throws -> [String] {
        try read("reading the schema version") { try HistoryMigrations.migrator.appliedMigrations($0) }
    }

    /// Every migration step this version knows, in order.
    static var knownMigrations: [String] { HistoryMigrations.names }

    // MARK: - Opening

    static let inMemoryName = "(in memory)"

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        // `status` may read while the daemon commits a chunk: wait instead of failing at once.
        configuration.busyMode = .timeout(5)
        configuration.label = "aquavate-history"
        // The daemon lives for months beside a history that grows every day: with SQLite's
        // default page cache (2 MB a connection) and GRDB's five readers, resident memory would
        // follow the database's size for a long time (docs/design.md 5: a flat soak). Two readers
        // and 512 KiB each bound it; a query over years of history reads the rest from the OS's
        // file cache, which the kernel can reclaim.
        configuration.maximumReaderCount = 2
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA cache_size = -512")
        }
        return configuration
    }

    private static func openFile(at path: String) throws -> DatabasePool {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try PrivateFiles.createFolders(folder)
        } catch {
            throw HistoryError.cannotCreateFolder(path: path, reason: HistoryError.oneLine(error.description))
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw HistoryError.cannotOpen(path: path, reason: "it is a folder, not a file")
        }
        do {
            try PrivateFiles.createFile(path)
        } catch {
            throw HistoryError.cannotOpen(path: path, reason: error.description)
        }
        // GRDB sets synchronous = NORMAL on the writer when it enables WAL, after any
        // `prepareDatabase` hook ran, so `init` sets the level afterwards, on the one writer
        // connection.
        return try DatabasePool(path: path, configuration: configuration())
    }

    private static func migrate(_ writer: any DatabaseWriter, shownPath: String) throws {
        if try HistoryMigrations.createSchemaIfNew(writer) { return }
        let migrator = HistoryMigrations.migrator
        let unknown = try writer.read { db -> [String] in
            let known = Set(migrator.migrations)
            return try migrator.appliedIdentifiers(db).filter { !known.contains($0) }.sorted()
        }
        if !unknown.isEmpty {
            throw HistoryError.newerSchema(path: shownPath, unknownMigrations: unknown)
        }
        try migrator.migrate(writer)
    }

    // MARK: - Access with errors translated

    var shownPath: String { path ?? Self.inMemoryName }

    /// Runs `body` in a read transaction; any failure becomes a `HistoryError` naming `operation`.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        readObserver?(operation)
        do {
            return try writer.read(body)
        } catch {
            throw HistoryError(error, path: shownPath, operation: operation)
        }
    }

    /// Runs `body` in one write transaction, committed when it returns.
    func write<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch {
            throw HistoryError(error, path: shownPath, operation: operation)
        }
    }

    /// Like `write`, but with `.normal` committed without waiting for the disk (the level
    /// goes back to the history's own before this returns): for facts that the bottle states
    /// again at every connection (its battery, state, settings, last sighting), whose loss in a
    /// power cut costs nothing. Drinks and anything a person entered never take this path.
    /// A later `.full` commit syncs the WAL, and these frames with it.
    func write<T>(_ operation: String, durability requested: Durability, _ body: (Database) throws -> T) throws -> T {
        guard path != nil, requested == .normal, durability == .full else { return try write(operation, body) }
        do {
            return try writer.writeWithoutTransaction { db in
                // The level cannot change inside a transaction (SQLite refuses it): set around it.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                let outcome = Result { () throws -> T in
                    var value: T?
                    try db.inTransaction {
                        value = try body(db)
                        return .commit
                    }
                    return value!
                }
                // Setting the level does no I/O and takes no lock: it fails only on a connection
                // that is no longer usable, on which the next commit fails as well.
                try db.execute(sql: "PRAGMA synchronous = \(durability.pragmaValue)")
                return try outcome.get()
            }
        } catch {
            throw HistoryError(error, path: shownPath, operation: operation)
        }
    }

    /// Runs raw SQL outside the typed API (tests simulate a newer schema with it).
    func execute(sql: String) throws {
        try write("running SQL") { db in try db.execute(sql: sql) }
    }

    /// The value of a pragma on the writer connection (tests: journal mode, synchronous level).
    func writerPragma(_ name: String) throws -> String? {
        try writer.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }
}
