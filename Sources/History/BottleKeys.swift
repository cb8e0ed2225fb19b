// Which key a bottle's rows use. A bottle is first known by its Bluetooth address; once its
// Device Information serial has been read, the serial is its key (docs/protocol.md 4.7: the
// address of a bottle can change, its serial cannot). Moving a bottle from its address to its
// serial moves every row in one transaction, and a drink stored under both (a capture replayed
// under its address, then synced live) is kept once.

import GRDB
import Timekeeping

extension BottleStore {
    /// The key of the bottle with this Bluetooth address: the serial when one was read, else the
    /// address itself (upper case).
    package func key(forAddress address: String) throws -> String {
        let address = address.uppercased()
        return try history.read("finding the bottle \(address)") { db in
            try String.fetchOne(db, sql: """
                SELECT id FROM bottle WHERE address = ? OR id = ? ORDER BY (serial IS NULL), last_seen DESC LIMIT 1
                """, arguments: [address, address]) ?? address
        }
    }

    /// The bottle a person names on the command line: its key, serial or address (any case).
    package func bottle(named text: String) throws -> BottleRecord? {
        let text = text.uppercased()
        return try history.read("finding the bottle \(text)") { db in
            try BottleRecord.fetchOne(db, sql: """
                SELECT * FROM bottle WHERE upper(id) = ? OR upper(serial) = ? OR upper(address) = ?
                ORDER BY (serial IS NULL), last_seen DESC LIMIT 1
                """, arguments: [text, text, text])
        }
    }

    /// Moves everything stored under `old` (the bottle's address) to `serial`, in one transaction:
    /// drinks (a drink both have is kept once, deleted if either copy is), the bottle's row
    /// (merged: what the serial's row knows wins), queued commands and activity. Returns whether
    /// anything moved.
    ///
    /// Committed without waiting for the disk (`.normal`): the bottle states its serial at every
    /// connection, so a move lost in a power cut is made again at the next one, from a history
    /// that is as it was before it (the WAL keeps commits in order: the drinks stored under the
    /// serial afterwards are synced with the move in front of them).
    @discardableResult
    package func move(from old: String, toSerial serial: String) throws -> Bool {
        let old = try ArgumentChecks.bottle(old), serial = try ArgumentChecks.bottle(serial)
        guard old != serial else { return false }
        return try history.write("moving bottle \(old) to its serial \(serial)", durability: .normal) { db in
            let hadRow = try BottleRecord.fetch(id: old, in: db)
            let drinks = try Int.fetchOne(db, sql: "SELECT count(*) FROM drink WHERE bottle = ?", arguments: [old]) ?? 0
            guard hadRow != nil || drinks > 0 else { return false }
            // A drink both keys hold: the serial's copy stays, deleted when either was.
            try db.execute(sql: """
                UPDATE drink AS kept SET deleted = 1, deleted_at = coalesce(kept.deleted_at, moved.deleted_at)
                FROM drink AS moved
                WHERE kept.bottle = ? AND moved.bottle = ? AND moved.record_id = kept.record_id
                  AND moved.timestamp = kept.timestamp AND moved.deleted = 1 AND kept.deleted = 0
                """, arguments: [serial, old])
            try db.execute(sql: "UPDATE OR IGNORE drink SET bottle = ? WHERE bottle = ?", arguments: [serial, old])
            try db.execute(sql: "DELETE FROM drink WHERE bottle = ?", arguments: [old])
            try db.execute(sql: "UPDATE bottle_command SET bottle = ? WHERE bottle = ?", arguments: [serial, old])
            try db.execute(sql: "UPDATE OR IGNORE motion_event SET bottle = ? WHERE bottle = ?", arguments: [serial, old])
            try db.execute(sql: "DELETE FROM motion_event WHERE bottle = ?", arguments: [old])
            try db.execute(sql: "UPDATE OR IGNORE backpack_session SET bottle = ? WHERE bottle = ?", arguments: [serial, old])
            try db.execute(sql: "DELETE FROM backpack_session WHERE bottle = ?", arguments: [old])
            try db.execute(sql: "UPDATE OR IGNORE quarantined_record SET bottle = ? WHERE bottle = ?", arguments: [serial, old])
            try db.execute(sql: "DELETE FROM quarantined_record WHERE bottle = ?", arguments: [old])
            // Its reminders (SavedReminders), unless the serial has its own.
            if try ReminderCounters.fetchOne(db, key: serial) == nil {
                for table in SavedReminders.tables {
                    try db.execute(sql: "UPDATE \(table) SET bottle = ? WHERE bottle = ?", arguments: [serial, old])
                }
            }
            try SavedReminders.delete(bottle: old, in: db)
            var merged = try BottleRecord.fetch(id: serial, in: db) ?? BottleRecord(id: serial)
            if let previous = hadRow {
                merged.name = merged.name ?? previous.name
                merged.address = merged.address ?? previous.address ?? old
                merged.goalML = merged.goalML ?? previous.goalML
                merged.lastSeen = [merged.lastSeen, previous.lastSeen].compactMap { $0 }.max()
                merged.lastSync = [merged.lastSync, previous.lastSync].compactMap { $0 }.max()
                merged.idResetAt = [merged.idResetAt, previous.idResetAt].compactMap { $0 }.max()
                if (previous.state?.receivedAt.secondsSince1970 ?? -.infinity) > (merged.state?.receivedAt.secondsSince1970 ?? -.infinity) { merged.state = previous.state }
                merged.firmware = merged.firmware ?? previous.firmware
                merged.model = merged.model ?? previous.model
                merged.shakeToEmpty = merged.shakeToEmpty ?? previous.shakeToEmpty
                merged.calibrated = merged.calibrated ?? previous.calibrated
                merged.scale = merged.scale ?? previous.scale
                merged.clockOffset = merged.clockOffset ?? previous.clockOffset
                merged.battery = merged.battery ?? previous.battery
                merged.refusal = merged.refusal ?? previous.refusal
                try BottleRecord.deleteOne(db, key: old)
            } else {
                merged.address = merged.address ?? old
            }
            merged.serial = serial
            try merged.save(db)
            return true
        }
    }

    /// Stops adopting a bottle: its row goes (the daemon no longer remembers it), its drinks and
    /// activity stay, its pending commands fail. Returns false when no such bottle is known.
    @discardableResult
    package func forget(id: String, at time: WallInstant) throws -> Bool {
        let id = try ArgumentChecks.bottle(id)
        return try history.write("forgetting bottle \(id)") { db in
            guard try BottleRecord.fetchOne(db, key: id) != nil else { return false }
            try db.execute(sql: """
                UPDATE bottle_command SET status = 'failed', message = 'the bottle was forgotten', updated_at = ?
                WHERE bottle = ? AND status IN ('pending', 'sending')
                """, arguments: [time, id])
            try BottleRecord.deleteOne(db, key: id)
            return true
        }
    }
}

extension BottleStore {
    /// A connection to the bottle with `address` began at `time`: its row (under its key, the
    /// serial once read) takes the advertised name, the address and the time. Returns the key.
    @discardableResult
    package func recordConnection(address: String, name: String?, at time: WallInstant) throws -> String {
        let address = address.uppercased()
        let key = try self.key(forAddress: address)
        // Stated again at the next connection: no fsync of its own (`update`).
        try update(id: key, durability: .normal) { bottle in
            bottle.name = name ?? bottle.name
            bottle.address = address
            bottle.lastSeen = time
        }
        return key
    }
}
