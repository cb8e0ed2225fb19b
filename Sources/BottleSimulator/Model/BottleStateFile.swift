// `--state-file`: what the bottle believes, as JSON, rewritten atomically on every change so that
// a test in another process can check it (every record with its flags, the unsynced count, the
// sync status).
import AquavateProtocol
import Foundation

package struct BottleStateSnapshot: Codable, Hashable, Sendable {
    /// A record as the records file has it (`record_id`, …, `flags`, read as `record.recordID`),
    /// with its two flags spelt out, in one flat JSON object.
    @dynamicMemberLookup
    package struct Record: Codable, Hashable, Sendable {
        package var stored: StoredRecord
        package var synced: Bool
        package var deleted: Bool

        enum CodingKeys: String, CodingKey { case synced, deleted }

        package init(_ record: DrinkRecord) {
            stored = StoredRecord(record)
            synced = record.flags.contains(.synced)
            deleted = record.flags.contains(.deleted)
        }

        package subscript<Value>(dynamicMember field: KeyPath<StoredRecord, Value>) -> Value { stored[keyPath: field] }

        package init(from decoder: Decoder) throws {
            stored = try StoredRecord(from: decoder)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            synced = try container.decode(Bool.self, forKey: .synced)
            deleted = try container.decode(Bool.self, forKey: .deleted)
        }

        package func encode(to encoder: Encoder) throws {
            try stored.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(synced, forKey: .synced)
            try container.encode(deleted, forKey: .deleted)
        }
    }

    package struct Sync: Codable, Hashable, Sendable {
        package var status: SyncEngine.Status
        package var chunkSize: Int
        /// R: records the last START loaded.
        package var loadedRecords: Int
        /// k: the chunk sent last.
        package var chunkIndex: Int
        package var totalChunks: Int

        enum CodingKeys: String, CodingKey {
            case status, chunkSize = "chunk_size", loadedRecords = "loaded_records", chunkIndex = "chunk_index"
            case totalChunks = "total_chunks"
        }
    }

    package var records: [Record]
    package var unsyncedCount: Int
    package var nextRecordID: UInt32
    package var sync: Sync
    /// `sync.status` again, at the top level, for quick checks.
    package var syncStatus: SyncEngine.Status
    package var awake: Bool
    package var connected: Bool
    package var timeValid: Bool
    package var bottleTime: UInt32
    package var dailyTotalML: UInt16
    package var goalML: UInt16
    package var waterML: Double
    package var batteryPercent: UInt8
    package var calibrated: Bool
    /// The calibration run's phase (CALIBRATION_STATE's first byte: 0 idle, 1 triggered … 9
    /// complete), so a test can see a cancelled run end instead of waiting it out.
    package var calibrationPhase: UInt8
    /// Device Settings bit 0.
    package var shakeToEmpty: Bool
    /// TARE_NOW commands the bottle acted on (a calibrated bottle), since it started.
    package var tares: Int

    enum CodingKeys: String, CodingKey {
        case records, unsyncedCount = "unsynced_count", nextRecordID = "next_record_id", sync, syncStatus = "sync_status"
        case awake, connected
        case timeValid = "time_valid", bottleTime = "bottle_time", dailyTotalML = "daily_total_ml", goalML = "goal_ml"
        case waterML = "water_ml", batteryPercent = "battery_percent", calibrated, calibrationPhase = "calibration_phase"
        case shakeToEmpty = "shake_to_empty", tares
    }

    package init(model: BottleModel, connected: Bool) {
        records = model.records.map(Record.init)
        unsyncedCount = model.unsyncedCount
        nextRecordID = model.ring.nextRecordID
        sync = Sync(status: model.sync.status, chunkSize: model.sync.chunkSize, loadedRecords: model.sync.loaded.count,
                    chunkIndex: model.sync.chunkIndex, totalChunks: model.sync.totalChunks)
        syncStatus = model.sync.status
        awake = model.isAwake
        self.connected = connected
        timeValid = model.timeValid
        bottleTime = model.bottleTime
        dailyTotalML = model.dailyTotalML
        goalML = model.goalML
        waterML = model.waterML
        batteryPercent = model.batteryPercent
        calibrated = model.runningCalibration != nil
        calibrationPhase = model.calibrationPhase.rawValue
        shakeToEmpty = model.shakeToEmpty
        tares = model.tares
    }

    /// Pretty, key-sorted JSON.
    package func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? encoder.encode(self)) ?? Data("{}".utf8)
    }

    /// Writes `json()` to `url` through a temporary file and a rename, so a reader never sees half
    /// a file.
    package func write(to url: URL) throws {
        try json().write(to: url, options: .atomic)
    }
}
