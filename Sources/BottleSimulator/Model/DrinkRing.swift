// The bottle's drink store (docs/protocol.md 4.1): a ring of 600 slots in flash, oldest overwritten
// when full, with a persistent record-id counter and two flag bits per record.
//
// Sync and delete never remove a record; they set bits. The two counts a client sees differ on
// purpose, as in the firmware (B2): `unsyncedCount` counts every record whose synced bit is clear,
// deleted ones included, while the sync set leaves deleted ones out.
import AquavateProtocol

package struct DrinkRing: Sendable, Hashable {
    /// Slots in the flash ring.
    package static let capacity = 600

    /// Oldest first, at most `capacity`.
    package private(set) var records: [DrinkRecord] = []
    /// The id the next stored record gets (starts at 1, restarts at 1 after CLEAR_HISTORY).
    package private(set) var nextRecordID: UInt32 = 1

    package init() {}

    /// A ring holding `records` (oldest first); the id counter continues after the highest id.
    package init(records: [DrinkRecord]) {
        self.records = Array(records.suffix(Self.capacity))
        // An erased slot's id (all FF) is no id the counter gave.
        nextRecordID = (records.filter { !$0.isErasedSlot }.map(\.recordID).max() ?? 0) &+ 1
        if nextRecordID == 0 { nextRecordID = 1 }
    }

    /// A ring holding `records` with its id counter at `nextRecordID` (a shared bottle's store).
    package init(records: [DrinkRecord], nextRecordID: UInt32) {
        self.records = Array(records.suffix(Self.capacity))
        self.nextRecordID = nextRecordID == 0 ? 1 : nextRecordID
    }

    /// Stores a new record with the next id, overwriting the oldest slot when the ring is full.
    @discardableResult
    package mutating func append(timestamp: UInt32, amountML: Int16, bottleLevelML: Int16, typeRaw: UInt8) -> DrinkRecord {
        let record = DrinkRecord(recordID: nextRecordID, timestamp: timestamp, amountML: amountML,
                                 bottleLevelML: bottleLevelML, typeRaw: typeRaw, flagsRaw: 0)
        nextRecordID = nextRecordID == UInt32.max ? 1 : nextRecordID + 1
        records.append(record)
        if records.count > Self.capacity { records.removeFirst(records.count - Self.capacity) }
        return record
    }

    /// Records with the synced bit clear, deleted ones included: what Current State and a Sync
    /// Control read report as `unsynced_count`.
    package var unsyncedCount: Int {
        records.reduce(0) { $0 + ($1.flagsRaw & DrinkRecordFlags.synced.rawValue == 0 ? 1 : 0) }
    }

    /// The records a START may send: synced and deleted bits both clear, oldest first.
    package var syncSet: [DrinkRecord] {
        records.filter { $0.flagsRaw & (DrinkRecordFlags.synced.rawValue | DrinkRecordFlags.deleted.rawValue) == 0 }
    }

    /// The firmware's mark-synced rule, exactly (4.3): walking oldest to newest, set the synced bit
    /// on the first `count` records whose synced bit is clear, deleted ones included, whichever
    /// records were actually sent.
    package mutating func markFirstUnsynced(_ count: Int) {
        var remaining = count
        for index in records.indices where remaining > 0 {
            guard records[index].flagsRaw & DrinkRecordFlags.synced.rawValue == 0 else { continue }
            records[index].flagsRaw |= DrinkRecordFlags.synced.rawValue
            remaining -= 1
        }
    }

    /// Clears every synced bit, as if no sync had ever finished (the benchmark fixture
    /// `unsyncedAgainAfterDisconnect`; no firmware does this).
    package mutating func markAllUnsynced() {
        for index in records.indices { records[index].flagsRaw &= ~DrinkRecordFlags.synced.rawValue }
    }

    /// Sets the deleted bit of the record with `recordID`; false when no slot holds that id.
    @discardableResult
    package mutating func markDeleted(recordID: UInt32) -> Bool {
        guard let index = records.firstIndex(where: { $0.recordID == recordID }) else { return false }
        records[index].flagsRaw |= DrinkRecordFlags.deleted.rawValue
        return true
    }

    /// Sets the deleted bit on every live positive drink at or after `boundary` (RESET_DAILY).
    package mutating func markDeleted(since boundary: UInt32) {
        for index in records.indices
        where records[index].timestamp >= boundary && !records[index].isDeleted && records[index].amountML > 0 {
            records[index].flagsRaw |= DrinkRecordFlags.deleted.rawValue
        }
    }

    /// CLEAR_HISTORY: the ring is emptied and ids restart at 1 (B9, B14).
    package mutating func clear() {
        records.removeAll()
        nextRecordID = 1
    }

    /// Sum of live positive drinks at or after `boundary`, in the firmware's u16 arithmetic (5.3).
    package func total(since boundary: UInt32) -> UInt16 {
        records.reduce(UInt16(0)) { sum, record in
            guard record.timestamp >= boundary, !record.isDeleted, !record.isErasedSlot, record.amountML > 0 else { return sum }
            return sum &+ UInt16(record.amountML)
        }
    }

    /// Replaces the flag byte of the record with `recordID` (fault set-up and tests).
    package mutating func setFlags(_ flags: UInt8, recordID: UInt32) {
        guard let index = records.firstIndex(where: { $0.recordID == recordID }) else { return }
        records[index].flagsRaw = flags
    }
}
