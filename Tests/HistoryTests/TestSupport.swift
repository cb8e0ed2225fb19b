// Helpers shared by the History tests: records, instants, time zones, temporary folders.

import AquavateProtocol
import Foundation
@testable import History
import Timekeeping

/// A drink record with sensible defaults.
func drink(_ id: UInt32, at timestamp: UInt32, ml amount: Int16 = 100, level: Int16 = 500,
           type: UInt8 = 0, flags: UInt8 = 0) -> DrinkRecord {
    DrinkRecord(recordID: id, timestamp: timestamp, amountML: amount, bottleLevelML: level,
                typeRaw: type, flagsRaw: flags)
}

/// The tombstone of a record: same fields, deleted flag set.
func tombstone(of record: DrinkRecord) -> DrinkRecord {
    var copy = record
    copy.flagsRaw |= 0x04
    return copy
}

/// UTC epoch seconds of a UTC wall-clock time, computed with Foundation's calendar.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> UInt32 {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let date = calendar.date(from: DateComponents(year: year, month: month, day: day,
                                                  hour: hour, minute: minute, second: second))!
    return UInt32(date.timeIntervalSince1970)
}

func zone(_ identifier: String) -> TimeZone { TimeZone(identifier: identifier)! }

func date(_ text: String) -> LocalDay { LocalDay(text)! }

/// A fresh in-memory history.
func memoryHistory() throws -> DrinkHistory { try DrinkHistory(path: nil, durability: .normal) }

/// A fresh temporary folder, removed by the caller with `removeFolder`.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("history-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func removeFolder(_ url: URL) {
    try? FileManager.default.removeItem(at: url)
}
