// Where a simulated bottle's drinks come from: `--records N` (deterministic drinks over the last
// days) or `--records-file FILE` (a JSON array of records).
import AquavateProtocol
import Timekeeping
import Foundation

package enum RecordSource {
    /// `count` unsynced drinks ending just before `now` (UTC seconds), spread over up to three days
    /// (45 min apart, closer when there are many). Amounts and levels depend only on the index, so
    /// the same count gives the same drinks apart from the time shift.
    package static func generated(count: Int, endingAt end: WallInstant) -> [DrinkRecord] {
        let now = end.secondsSince1970
        let count = max(0, min(count, DrinkRing.capacity))
        guard count > 0 else { return [] }
        let spacing = max(60, min(2700, 259_200 / count))
        let end = UInt32(clamping: Int64(now.rounded(.down)) - 60)
        var level = Int(BottleConfig.fixedCapacityML)
        var state: UInt32 = 0x2545_F491
        var records: [DrinkRecord] = []
        records.reserveCapacity(count)
        for index in 0..<count {
            state = state &* 1_664_525 &+ 1_013_904_223  // LCG: deterministic amounts
            let amount = 30 + Int(state >> 16) % 301
            if level < amount { level = Int(BottleConfig.fixedCapacityML) }
            level -= amount
            records.append(DrinkRecord(
                recordID: UInt32(index + 1), timestamp: end &- UInt32((count - 1 - index) * spacing),
                amountML: Int16(amount), bottleLevelML: Int16(level), typeRaw: amount >= 100 ? 1 : 0, flagsRaw: 0))
        }
        return records
    }

    /// Reads a JSON array of `{record_id, timestamp, amount_ml, bottle_level_ml, type, flags}`
    /// (storage order, oldest first).
    package static func load(from url: URL) throws -> [DrinkRecord] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RecordsFileUnreadable(path: url.path, reason: error.localizedDescription)
        }
        do {
            return try JSONDecoder().decode([StoredRecord].self, from: data).map(\.record)
        } catch let error as DecodingError {
            throw RecordsFileUnreadable(path: url.path, reason: Self.explain(error))
        } catch {
            throw RecordsFileUnreadable(path: url.path, reason: "\(error)")
        }
    }

    /// One short phrase for a decoding error: where (record index, key) and what.
    static func explain(_ error: DecodingError) -> String {
        func place(_ path: [any CodingKey]) -> String {
            guard let index = path.first?.intValue else { return "the file" }
            return "record \(index)" + (path.count > 1 ? " field \"\(path[1].stringValue)\"" : "")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath)) has no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "\(place(context.codingPath)) has the wrong type or range"
        case .dataCorrupted(let context):
            let detail = context.debugDescription.split(separator: "\n").first.map(String.init) ?? "unreadable"
            return context.codingPath.isEmpty ? detail : "\(place(context.codingPath)): \(detail)"
        @unknown default:
            return "not a JSON array of records"
        }
    }
}

/// A records file that could not be read or decoded.
package struct RecordsFileUnreadable: Error, CustomStringConvertible {
    package var path: String
    package var reason: String
    package var description: String {
        "cannot use records file \(path): \(reason); expected a JSON array of "
            + "{record_id, timestamp, amount_ml, bottle_level_ml, type, flags}"
    }
}

/// One record as the records file and the state file write it.
package struct StoredRecord: Codable, Hashable, Sendable {
    package var recordID: UInt32
    package var timestamp: UInt32
    package var amountML: Int16
    package var bottleLevelML: Int16
    package var type: UInt8
    package var flags: UInt8

    enum CodingKeys: String, CodingKey {
        case recordID = "record_id"
        case timestamp
        case amountML = "amount_ml"
        case bottleLevelML = "bottle_level_ml"
        case type
        case flags
    }

    package init(_ record: DrinkRecord) {
        recordID = record.recordID
        timestamp = record.timestamp
        amountML = record.amountML
        bottleLevelML = record.bottleLevelML
        type = record.typeRaw
        flags = record.flagsRaw
    }

    package var record: DrinkRecord {
        DrinkRecord(recordID: recordID, timestamp: timestamp, amountML: amountML, bottleLevelML: bottleLevelML,
                    typeRaw: type, flagsRaw: flags)
    }
}
