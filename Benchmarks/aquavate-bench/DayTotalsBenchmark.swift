// Day totals over five years of history (docs/design.md 5: budget < 20 ms).

import AquavateProtocol
import Timekeeping
import Foundation
import History

enum DayTotalsBenchmark {
    static func run(_ options: [String]) {
        guard let history = try? DrinkHistory(path: nil, durability: .normal) else { print("day-totals: no database"); exit(1) }
        var random = SeededGenerator(seed: 5)
        let start: UInt32 = 1_640_995_200 // 2022-01-01T00:00:00Z
        var id: UInt32 = 1
        var batch: [DrinkRecord] = []
        for day in 0..<(5 * 365) {
            for slot in 0..<5 {
                let timestamp = start + UInt32(day * 86_400 + 25_200 + slot * 10_800 + Int.random(in: 0...3600, using: &random))
                batch.append(DrinkRecord(recordID: id, timestamp: timestamp, amountML: Int16.random(in: 30...400, using: &random),
                                         bottleLevelML: 300, typeRaw: 0, flagsRaw: 0))
                id += 1
            }
            if batch.count >= 500 {
                _ = try? history.drinks.store(batch, bottle: "BENCH", at: WallInstant(secondsSince1970: Double(timestamp(of: batch))))
                batch.removeAll()
            }
        }
        _ = try? history.drinks.store(batch, bottle: "BENCH", at: WallInstant(secondsSince1970: 1_800_000_000))
        let zone = TimeZone(identifier: "Europe/Madrid")!
        var best = Double.infinity
        var days = 0
        for _ in 0..<10 {
            let begin = Measure.now()
            days = (try? history.drinks.dayTotals(timeZone: zone))?.count ?? 0
            best = min(best, Measure.now() - begin)
        }
        print(String(format: "day-totals: %d drinks, %d local days (Europe/Madrid) in %.1f ms (best of 10; budget < 20 ms)", Int(id - 1), days, best * 1000))
    }

    private static func timestamp(of batch: [DrinkRecord]) -> UInt32 { batch.last?.timestamp ?? 0 }
}
