// The database file: creation, WAL, durability, migrations, reopening, and paths that fail.

import Timekeeping
import Foundation
@testable import History
import Testing

@Suite struct DatabaseFileTests {
    @Test func createsParentFoldersAndUsesWAL() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder.appendingPathComponent("deep/er/history.sqlite").path

        let history = try DrinkHistory(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(try history.writerPragma("journal_mode") == "wal")
        #expect(history.path == path)
    }

    @Test(arguments: [(Durability.full, "2"), (Durability.normal, "1")])
    func durabilitySetsTheSynchronousLevelOfTheWriter(durability: Durability, level: String) throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("h.sqlite").path, durability: durability)
        #expect(try history.writerPragma("synchronous") == level)
    }

    /// The daemon's memory must not follow the database's size (docs/design.md 5: a flat soak).
    @Test func everyConnectionHasABoundedPageCacheAndReleasingMemoryKeepsTheData() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("h.sqlite").path)
        _ = try history.drinks.store([drink(1, at: utc(2025, 6, 15, 9), ml: 250)], bottle: "b", at: WallInstant(secondsSince1970: 100))
        #expect(try history.writerPragma("cache_size") == "-512")
        #expect(try history.read("reading") { try String.fetchOne($0, sql: "PRAGMA cache_size") } == "-512")

        history.releaseMemory()
        #expect(try history.drinks.storedDrinks().map(\.record.amountML) == [250])
        _ = try history.drinks.store([drink(2, at: utc(2025, 6, 15, 10), ml: 100)], bottle: "b", at: WallInstant(secondsSince1970: 200))
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")).map(\.totalML) == [350])
    }

    @Test func aBottleFactIsCommittedWithoutItsOwnFsyncAndTheLevelComesBack() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder.appendingPathComponent("h.sqlite").path
        let history = try DrinkHistory(path: path)
        try history.bottles.update(id: "b", durability: .normal) { $0.battery = 42 }
        // Back to FULL for what follows (a chunk's commit before its ACK), also after a failure.
        #expect(try history.writerPragma("synchronous") == "2")
        struct Refused: Error {}
        #expect(throws: HistoryError.self) {
            try history.bottles.update(id: "b", durability: .normal) { _ in throw Refused() }
        }
        #expect(try history.writerPragma("synchronous") == "2")
        #expect(try DrinkHistory(path: path).bottles.bottle(id: "b")?.battery == 42)
        try history.bottles.recordConnection(address: "f4:12:fa:00:a3:f4", name: "Aquavate-A3F2", at: WallInstant(secondsSince1970: 100))
        #expect(try history.writerPragma("synchronous") == "2")
        #expect(try DrinkHistory(path: path).bottles.bottle(named: "F4:12:FA:00:A3:F4")?.lastSeen == WallInstant(secondsSince1970: 100))
    }

    @Test func everythingSurvivesReopening() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder.appendingPathComponent("history.sqlite").path
        let record = drink(1, at: utc(2025, 6, 15, 9), ml: 250)
        do {
            let history = try DrinkHistory(path: path)
            _ = try history.drinks.store([record, drink(2, at: utc(2025, 6, 15, 10), ml: 50)], bottle: "b", at: WallInstant(secondsSince1970: 100))
            _ = try history.drinks.markDeleted(bottle: "b", recordID: 2, timestamp: utc(2025, 6, 15, 10), at: WallInstant(secondsSince1970: 200))
            try history.settings.set("goal_ml", "2500")
            try history.bottles.save(BottleRecord(id: "b", name: "Aquavate-A3F2", lastSync: WallInstant(secondsSince1970: 100)))
        }
        let reopened = try DrinkHistory(path: path)
        #expect(try reopened.drinks.storedDrinks().map(\.deleted) == [false, true])
        #expect(try reopened.drinks.storedDrinks().first?.record == record)
        #expect(try reopened.drinks.dayTotals(timeZone: zone("UTC")).map(\.totalML) == [250])
        #expect(try reopened.settings.value("goal_ml") == "2500")
        #expect(try reopened.bottles.bottle(id: "b")?.name == "Aquavate-A3F2")
        #expect(try reopened.drinks.store([record], bottle: "b", at: WallInstant(secondsSince1970: 300)).map(\.isNew) == [false])
    }

    @Test func migrationsRunOnceAndReopeningChangesNothing() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder.appendingPathComponent("history.sqlite").path
        #expect(DrinkHistory.knownMigrations == ["v1-drinks", "v1-settings", "v1-bottles", "v2-engine-state", "v2-delivered", "v3-person-events", "v4-bottle-control", "v5-household", "v6-household-delivered", "v7-quarantine", "v8-manual-drinks", "v9-typed-engine-state", "v10-schedule-table", "v11-drink-change-index"])

        let first = try DrinkHistory(path: path)
        #expect(try first.appliedMigrations() == DrinkHistory.knownMigrations)
        _ = try first.drinks.store([drink(1, at: 100)], bottle: "b", at: WallInstant(secondsSince1970: 1))
        for _ in 0..<3 {
            let again = try DrinkHistory(path: path)
            #expect(try again.appliedMigrations() == DrinkHistory.knownMigrations)
            #expect(try again.drinks.drinkCount() == 1)
        }
        #expect(try first.appliedMigrations() == DrinkHistory.knownMigrations)
    }

    @Test func aNewHistoryGetsTheSchemaTheMigratorBuildsStepByStep() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        // The one-transaction path of a new file, against GRDB's migrator run step by step.
        let created = try DrinkHistory(path: folder.appendingPathComponent("new.sqlite").path)
        let expected = try HistoryMigrations.stepwiseSchema()
        let actual = try created.read("reading the schema") { try HistoryMigrations.schemaLines($0) }
        #expect(actual == expected)
        #expect(expected.count > 10)
        #expect(try created.appliedMigrations() == DrinkHistory.knownMigrations)
        // A file that has a schema is left to the migrator.
        #expect(try HistoryMigrations.createSchemaIfNew(created.writer) == false)
    }

    @Test func concurrentWritersAndReadersShareOneHistory() async throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("h.sqlite").path, durability: .normal)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for chunk in 0..<10 {
                        let base = UInt32(writer * 1000 + chunk * 17)
                        _ = try history.drinks.store((1...17).map { drink(base + UInt32($0), at: 1_000_000 + base + UInt32($0), ml: 10) },
                                              bottle: "b", at: WallInstant(secondsSince1970: Double(chunk)))
                        _ = try history.drinks.dayTotals(timeZone: zone("Europe/Madrid"))
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try history.drinks.drinkCount() == 4 * 10 * 17)
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")).reduce(0) { $0 + $1.totalML } == 4 * 10 * 17 * 10)
    }

    @Test func inMemoryHistoriesAreMigratedAndIndependent() throws {
        let one = try DrinkHistory(path: nil)
        let two = try DrinkHistory(path: nil)
        #expect(try one.appliedMigrations() == DrinkHistory.knownMigrations)
        _ = try one.drinks.store([drink(1, at: 100)], bottle: "b", at: WallInstant(secondsSince1970: 1))
        #expect(try one.drinks.drinkCount() == 1)
        #expect(try two.drinks.drinkCount() == 0)
        #expect(one.path == nil)
    }

    @Test func aDatabaseFromANewerBridgeIsRefusedWithTheUnknownSteps() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder.appendingPathComponent("history.sqlite").path
        try DrinkHistory(path: path).execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v9-future')")

        let error = try #require(throws: HistoryError.self) { try DrinkHistory(path: path) }
        #expect(error == .newerSchema(path: path, unknownMigrations: ["v9-future"]))
        #expect(error.description.contains(path))
        #expect(error.description.contains("upgrade"))
    }

    @Test func aPathUnderAFileCannotBeCreated() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let file = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        let path = file.appendingPathComponent("history.sqlite").path

        let error = try #require(throws: HistoryError.self) { try DrinkHistory(path: path) }
        guard case .cannotCreateFolder(let failedPath, _) = error else {
            Issue.record("expected cannotCreateFolder, got \(error)")
            return
        }
        #expect(failedPath == path)
        #expect(error.description.contains(path))
        #expect(error.description.contains("--db"))
        #expect(!error.description.contains("\n"))
    }

    @Test func aFolderIsNotADatabase() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let error = try #require(throws: HistoryError.self) { try DrinkHistory(path: folder.path) }
        guard case .cannotOpen(let failedPath, _) = error else {
            Issue.record("expected cannotOpen, got \(error)")
            return
        }
        #expect(failedPath == folder.path)
        #expect(error.description.contains(folder.path))
    }

    @Test func aFileThatIsNotSQLiteIsReportedCorrupt() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let file = folder.appendingPathComponent("history.sqlite")
        try Data(repeating: 0x5A, count: 8192).write(to: file)

        let error = try #require(throws: HistoryError.self) { try DrinkHistory(path: file.path) }
        guard case .corrupt(let failedPath, _) = error else {
            Issue.record("expected corrupt, got \(error)")
            return
        }
        #expect(failedPath == file.path)
        #expect(error.description.contains("move it aside"))
        #expect(!error.description.contains("\n"))
    }

    @Test func everyErrorDescriptionIsOneLineNamingThePath() {
        let path = "/var/lib/aquavate-bridge/history.sqlite"
        let errors: [HistoryError] = [
            .cannotCreateFolder(path: path, reason: "Permission denied"),
            .cannotOpen(path: path, reason: "unable to open database file"),
            .readOnly(path: path),
            .corrupt(path: path, reason: "file is not a database"),
            .newerSchema(path: path, unknownMigrations: ["v9"]),
            .busy(path: path),
            .diskFull(path: path),
            .failed(path: path, operation: "storing", reason: "I/O error"),
        ]
        for error in errors {
            #expect(error.description.contains(path))
            #expect(!error.description.contains("\n"))
        }
        #expect(HistoryError.oneLine("a\nb\r\nc") == "a b c")
    }
}

@Suite struct ErrorMappingTests {
    @Test(arguments: [
        (Int32(8), "readOnly"), (14, "cannotOpen"), (3, "cannotOpen"), (23, "cannotOpen"), (11, "corrupt"),
        (26, "corrupt"), (5, "busy"), (6, "busy"), (13, "diskFull"), (1, "failed"), (10, "failed"),
    ])
    func sqliteCodesBecomeTheRightHistoryError(code: Int32, expected: String) {
        let error = HistoryError(sqliteCode: code, message: "message\nsecond line", path: "/tmp/h.sqlite", operation: "storing")
        #expect(!error.description.contains("\n"))
        #expect(error.description.contains("/tmp/h.sqlite"))
        switch (error, expected) {
        case (.readOnly, "readOnly"), (.cannotOpen, "cannotOpen"), (.corrupt, "corrupt"), (.busy, "busy"),
             (.diskFull, "diskFull"), (.failed, "failed"):
            break
        default:
            Issue.record("SQLite code \(code) gave \(error), expected \(expected)")
        }
    }
}
