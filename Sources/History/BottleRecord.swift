// What the bridge remembers about each bottle between connections.

import GRDB

/// The last Current State a bottle sent (docs/protocol.md 3.1), as plain numbers.
public struct CurrentStateSnapshot: Sendable, Hashable {
    /// Bridge clock (UTC seconds) when it was received.
    public var receivedAt: Double
    /// The snapshot's own timestamp (bottle time).
    public var bottleTime: UInt32
    /// The bottle's UTC-day total (not the bridge's day total, docs/reminders.md 0).
    public var dailyTotalML: Int
    public var bottleLevelML: Int
    public var batteryPercent: Int
    public var unsyncedCount: Int
    /// The flags byte as sent.
    public var flagsRaw: UInt8

    public init(receivedAt: Double, bottleTime: UInt32, dailyTotalML: Int, bottleLevelML: Int,
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

/// One row of the `bottle` table.
public struct BottleRecord: Sendable, Hashable {
    /// The key drinks use: the bottle's address or serial number.
    public var id: String
    public var name: String?
    public var serial: String?
    public var address: String?
    /// The bottle's own daily goal (Bottle Config), when read.
    public var goalML: Int?
    /// Bridge clock of the last advertisement or connection.
    public var lastSeen: Double?
    /// Bridge clock of the last completed sync.
    public var lastSync: Double?
    /// Bridge clock when a sync last showed the bottle restarting its record ids (B14).
    public var idResetAt: Double?
    public var state: CurrentStateSnapshot?
    /// Device Information (docs/protocol.md 2.1), when read.
    public var firmware: String?
    public var model: String?
    /// Device Settings bit 0 (docs/protocol.md 3.7), when read.
    public var shakeToEmpty: Bool?
    /// From Bottle Config (docs/protocol.md 3.2): a scale within 100–800 means calibrated.
    public var calibrated: Bool?
    public var scale: Double?
    /// The bottle's clock minus the bridge's, in seconds, at the last connection (before
    /// SET_TIME); nil when unknown (docs/protocol.md 5.2).
    public var clockOffset: Int?
    /// The last battery percentage that was not a just-woken 0 % (docs/protocol.md 2.1).
    public var battery: Int?

    public init(id: String, name: String? = nil, serial: String? = nil, address: String? = nil,
                goalML: Int? = nil, lastSeen: Double? = nil, lastSync: Double? = nil,
                idResetAt: Double? = nil, state: CurrentStateSnapshot? = nil) {
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
    public static let databaseTableName = "bottle"

    public init(row: Row) throws {
        id = try row.decode(String.self, forColumn: "id")
        name = try row.decode(String?.self, forColumn: "name")
        serial = try row.decode(String?.self, forColumn: "serial")
        address = try row.decode(String?.self, forColumn: "address")
        goalML = try row.decode(Int?.self, forColumn: "goal_ml")
        lastSeen = try row.decode(Double?.self, forColumn: "last_seen")
        lastSync = try row.decode(Double?.self, forColumn: "last_sync")
        idResetAt = try row.decode(Double?.self, forColumn: "id_reset_at")
        if let receivedAt = try row.decode(Double?.self, forColumn: "state_at") {
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
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["serial"] = serial
        container["address"] = address
        container["goal_ml"] = goalML
        container["last_seen"] = lastSeen
        container["last_sync"] = lastSync
        container["id_reset_at"] = idResetAt
        container["state_at"] = state?.receivedAt
        container["state_timestamp"] = state?.bottleTime
        container["daily_total_ml"] = state?.dailyTotalML
        container["bottle_level_ml"] = state?.bottleLevelML
        container["battery"] = state?.batteryPercent
        container["unsynced"] = state?.unsyncedCount
        container["state_flags"] = state?.flagsRaw
        container["firmware"] = firmware
        container["model"] = model
        container["shake_to_empty"] = shakeToEmpty
        container["calibrated"] = calibrated
        container["scale"] = scale
        container["clock_offset"] = clockOffset
        container["battery_level"] = battery
    }
}

extension DrinkHistory {
    /// Saves everything in `bottle`, replacing what was stored for its id.
    public func recordBottle(_ bottle: BottleRecord) throws {
        _ = try ArgumentChecks.bottle(bottle.id)
        try write("saving bottle \(bottle.id)") { db in try bottle.upsert(db) }
    }

    /// Changes some fields of a bottle in one transaction, starting from `BottleRecord(id:)`
    /// when it is unknown; returns what was saved. E.g. `updateBottle(id: a) { $0.lastSeen = now }`.
    ///
    /// `durability: .normal` for what the bottle states again at every connection (state,
    /// battery, settings, last sighting): committed without waiting for the disk, which saves an
    /// fsync per fact on every connection (about ten; an SD card takes milliseconds each). Nil:
    /// the history's own level.
    @discardableResult
    public func updateBottle(id: String, durability: Durability? = nil,
                             _ change: (inout BottleRecord) throws -> Void) throws -> BottleRecord {
        _ = try ArgumentChecks.bottle(id)
        return try write("saving bottle \(id)", durability: durability ?? self.durability) { db in
            var bottle = try BottleRecord.fetchOne(db, key: id) ?? BottleRecord(id: id)
            try change(&bottle)
            bottle.id = id
            try bottle.upsert(db)
            return bottle
        }
    }

    /// What is stored about bottle `id`, nil when it was never recorded.
    public func bottleState(id: String) throws -> BottleRecord? {
        try read("reading bottle \(id)") { db in try BottleRecord.fetchOne(db, key: id) }
    }

    /// Every known bottle, most recently seen first (never seen last).
    public func bottles() throws -> [BottleRecord] {
        try read("reading bottles") { db in
            try BottleRecord.order(Column("last_seen").desc, Column("id")).fetchAll(db)
        }
    }

    /// Records that `bottle` restarted its record ids at `at` (B14): `highestRecordID` then
    /// considers only drinks stored from `at` on.
    public func recordIDReset(bottle: String, at: Double) throws {
        let at = try ArgumentChecks.instant(at, "id reset time")
        try updateBottle(id: bottle) { $0.idResetAt = at }
    }
}
