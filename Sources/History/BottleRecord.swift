// What the bridge remembers about each bottle between connections.

import GRDB
import Timekeeping

/// The last Current State a bottle sent (docs/protocol.md 3.1), as plain numbers.
package struct CurrentStateSnapshot: Sendable, Hashable {
    /// Bridge clock (UTC seconds) when it was received.
    package var receivedAt: WallInstant
    /// The snapshot's own timestamp (bottle time).
    package var bottleTime: UInt32
    /// The bottle's UTC-day total (not the bridge's day total, docs/reminders.md 0).
    package var dailyTotalML: Int
    package var bottleLevelML: Int
    package var batteryPercent: Int
    package var unsyncedCount: Int
    /// The flags byte as sent.
    package var flagsRaw: UInt8

    package init(receivedAt: WallInstant, bottleTime: UInt32, dailyTotalML: Int, bottleLevelML: Int,
                batteryPercent: Int, unsyncedCount: Int, flagsRaw: UInt8) {
        self.receivedAt = receivedAt
        self.bottleTime = bottleTime
        self.dailyTotalML = dailyTotalML
        self.bottleLevelML = bottleLevelML
        self.batteryPercent = batteryPercent
        self.unsyncedCount = unsyncedCount
        self.flagsRaw = flagsRaw
    }
}

/// The same structural refusal (a chunk refused unacknowledged, docs/design.md 3.4) at the end of
/// a bottle's syncs, connection after connection: the bottle sends that chunk again each time,
/// so every later drink waits behind it.
package struct SyncRefusal: Sendable, Hashable {
    /// Connections in a row after which a bottle is called stuck.
    package static let stuckAfter = 3

    /// Why the chunk was refused, one line.
    package var reason: String
    /// Bridge clock of the first connection that ended with this refusal.
    package var since: WallInstant
    /// Connections in a row that ended with it.
    package var connections: Int

    package init(reason: String, since: WallInstant, connections: Int) {
        self.reason = reason
        self.since = since
        self.connections = connections
    }

    /// Nothing more can come from the bottle until someone acts.
    package var isStuck: Bool { connections >= Self.stuckAfter }
}

/// One row of the `bottle` table.
package struct BottleRecord: Sendable, Hashable {
    /// The key drinks use: the bottle's address or serial number.
    package var id: String
    package var name: String?
    package var serial: String?
    package var address: String?
    /// The bottle's own daily goal (Bottle Config), when read.
    package var goalML: Int?
    /// Bridge clock of the last advertisement or connection.
    package var lastSeen: WallInstant?
    /// Bridge clock of the last completed sync.
    package var lastSync: WallInstant?
    /// Bridge clock when a sync last showed the bottle restarting its record ids (B14).
    package var idResetAt: WallInstant?
    package var state: CurrentStateSnapshot?
    /// Device Information (docs/protocol.md 2.1), when read.
    package var firmware: String?
    package var model: String?
    /// Device Settings bit 0 (docs/protocol.md 3.7), when read.
    package var shakeToEmpty: Bool?
    /// From Bottle Config (docs/protocol.md 3.2): a scale within 100–800 means calibrated.
    package var calibrated: Bool?
    package var scale: Double?
    /// The bottle's clock minus the bridge's, in seconds, at the last connection (before
    /// SET_TIME); nil when unknown (docs/protocol.md 5.2).
    package var clockOffset: Int?
    /// The last battery percentage that was not a just-woken 0 % (docs/protocol.md 2.1).
    package var battery: Int?
    /// The structural refusal that ended the bottle's last syncs (docs/design.md 3.4), nil after
    /// a complete sync; see `SyncRefusal`.
    package var refusal: SyncRefusal?

    package init(id: String, name: String? = nil, serial: String? = nil, address: String? = nil,
                goalML: Int? = nil, lastSeen: WallInstant? = nil, lastSync: WallInstant? = nil,
                idResetAt: WallInstant? = nil, state: CurrentStateSnapshot? = nil) {
        self.id = id
        self.name = name
        self.serial = serial
        self.address = address
        self.goalML = goalML
        self.lastSeen = lastSeen
        self.lastSync = lastSync
        self.idResetAt = idResetAt
        self.state = state
    }
}

extension BottleRecord: FetchableRecord, PersistableRecord {
    package static let databaseTableName = "bottle"

    package init(row: Row) throws {
        id = try row.decode(String.self, forColumn: "id")
        name = try row.decode(String?.self, forColumn: "name")
        serial = try row.decode(String?.self, forColumn: "serial")
        address = try row.decode(String?.self, forColumn: "address")
        goalML = try row.decode(Int?.self, forColumn: "goal_ml")
        lastSeen = try row.decode(WallInstant?.self, forColumn: "last_seen")
        lastSync = try row.decode(WallInstant?.self, forColumn: "last_sync")
        idResetAt = try row.decode(WallInstant?.self, forColumn: "id_reset_at")
        if let receivedAt = try row.decode(WallInstant?.self, forColumn: "state_at") {
            state = CurrentStateSnapshot(
                receivedAt: receivedAt,
                bottleTime: try row.decode(UInt32.self, forColumn: "state_timestamp"),
                dailyTotalML: try row.decode(Int.self, forColumn: "daily_total_ml"),
                bottleLevelML: try row.decode(Int.self, forColumn: "bottle_level_ml"),
                batteryPercent: try row.decode(Int.self, forColumn: "battery"),
                unsyncedCount: try row.decode(Int.self, forColumn: "unsynced"),
                flagsRaw: try row.decode(UInt8.self, forColumn: "state_flags"))
        } else {
            state = nil
        }
        firmware = try row.decode(String?.self, forColumn: "firmware")
        model = try row.decode(String?.self, forColumn: "model")
        shakeToEmpty = try row.decode(Bool?.self, forColumn: "shake_to_empty")
        calibrated = try row.decode(Bool?.self, forColumn: "calibrated")
        scale = try row.decode(Double?.self, forColumn: "scale")
        clockOffset = try row.decode(Int?.self, forColumn: "clock_offset")
        battery = try row.decode(Int?.self, forColumn: "battery_level")
        if let reason = try row.decode(String?.self, forColumn: "refusal") {
            refusal = SyncRefusal(reason: reason,
                                  since: try row.decode(WallInstant?.self, forColumn: "refusal_since") ?? .epoch,
                                  connections: try row.decode(Int?.self, forColumn: "refusal_count") ?? 1)
        }
    }

    package func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.columns, columnValues) { container[column] = value }
    }

    /// The table's columns, in the order of `columnValues`.
    static let columns = [
        "id", "name", "serial", "address", "goal_ml", "last_seen", "last_sync", "id_reset_at", "state_at",
        "state_timestamp", "daily_total_ml", "bottle_level_ml", "battery", "unsynced", "state_flags", "firmware",
        "model", "shake_to_empty", "calibrated", "scale", "clock_offset", "battery_level",
        "refusal", "refusal_since", "refusal_count",
    ]

    /// The values stored in `columns`.
    private var columnValues: [(any DatabaseValueConvertible)?] {
        [id, name, serial, address, goalML, lastSeen, lastSync, idResetAt, state?.receivedAt,
         state?.bottleTime, state?.dailyTotalML, state?.bottleLevelML, state?.batteryPercent, state?.unsyncedCount, state?.flagsRaw, firmware,
         model, shakeToEmpty, calibrated, scale, clockOffset, battery,
         refusal?.reason, refusal?.since, refusal?.connections]
    }
}

// A bottle's row is read and written at nearly every event of a connection (its state, battery,
// settings, identity: ten writes and a dozen reads in a one-shot sync). Through GRDB's query
// interface each built its SQL, asked the schema for the primary key and had SQLite compile the
// statement anew: ~0.8 M instructions a read, ~1.4 M a write. The same statements, written once
// and kept prepared on each connection (GRDB's statement cache), cost a fraction of that.
extension BottleRecord {
    /// The row of bottle `id`, nil when there is none.
    static func fetch(id: String, in db: Database) throws -> BottleRecord? {
        try fetchOne(db.cachedStatement(sql: #"SELECT * FROM "bottle" WHERE "id" = ?"#), arguments: [id])
    }

    /// Every row, most recently seen first (never seen last), then by id.
    static func fetchAllByLastSeen(_ db: Database) throws -> [BottleRecord] {
        try fetchAll(db.cachedStatement(sql: #"SELECT * FROM "bottle" ORDER BY "last_seen" DESC, "id""#))
    }

    /// Inserts the row, or replaces every column of the row with its id: what GRDB's `upsert`
    /// stores.
    func save(_ db: Database) throws {
        try db.cachedStatement(sql: Self.upsertSQL).execute(arguments: StatementArguments(columnValues))
    }

    /// The stored row of bottle `id`, a `column=value` line per column as SQLite holds it
    /// (tests compare the two ways of writing it); empty when there is none.
    static func storedColumns(id: String, in db: Database) throws -> [String] {
        try Row.fetchOne(db, sql: "SELECT * FROM bottle WHERE id = ?", arguments: [id]).map { row in
            row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }
        } ?? []
    }

    private static let upsertSQL: String = {
        let quoted = columns.map { "\"\($0)\"" }
        return "INSERT INTO \"bottle\" (\(quoted.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
            + " ON CONFLICT DO UPDATE SET " + quoted.dropFirst().map { "\($0) = \"excluded\".\($0)" }.joined(separator: ", ")
    }()
}
