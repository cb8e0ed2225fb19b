// The history the web benchmark serves (docs/design.md 5: the page and /api/v1/days?days=365 over
// five years of history with four bottles): four adopted bottles, five years of drinks each up to
// now, about eight drinks a day, stored in syncs of a day's drinks as the daemon would.
//
//   swift run -c release aquavate-bench web-history --db PATH

import AquavateProtocol
import Timekeeping
import Foundation
import History

enum WebHistoryGenerator {
    static func run(_ options: [String]) {
        guard let index = options.firstIndex(of: "--db"), index + 1 < options.count else {
            print("usage: aquavate-bench web-history --db PATH")
            exit(2)
        }
        let path = options[index + 1]
        try? FileManager.default.removeItem(atPath: path)
        do {
            let history = try DrinkHistory(path: path, durability: .normal)
            let now = Date().timeIntervalSince1970
            let start = (now - 5 * 365 * 86_400).rounded(.down)
            var random = SeededGenerator(seed: 14)
            var drinks = 0
            let begin = Measure.now()
            for bottle in 1...4 {
                let serial = "AQ-BENCH-000\(bottle)"
                let state = CurrentStateSnapshot(receivedAt: WallInstant(secondsSince1970: now - 300), bottleTime: 0, dailyTotalML: 0, bottleLevelML: 350 + bottle * 20,
                                                 batteryPercent: 60 + bottle * 8, unsyncedCount: 0, flagsRaw: 0)
                try history.bottles.save(BottleRecord(id: serial, name: "Bottle \(bottle)", serial: serial,
                                                      address: "AA:BB:CC:00:00:0\(bottle)", goalML: 2000 + bottle * 250,
                                                      lastSeen: WallInstant(secondsSince1970: now - 300), lastSync: WallInstant(secondsSince1970: now - 300), state: state))
                var id: UInt32 = 1
                var day = start
                while day < now {
                    var batch: [DrinkRecord] = []
                    for slot in 0..<8 {
                        let time = day + 25_200 + Double(slot) * 5_400 + Double.random(in: 0...3_000, using: &random)
                        guard time < now else { break }
                        batch.append(DrinkRecord(recordID: id, timestamp: UInt32(time), amountML: Int16.random(in: 80...450, using: &random),
                                                 bottleLevelML: 300, typeRaw: 0, flagsRaw: 0))
                        id += 1
                    }
                    _ = try history.drinks.store(batch, bottle: serial, at: WallInstant(secondsSince1970: day + 86_000))
                    drinks += batch.count
                    day += 86_400
                }
            }
            print(String(format: "web-history: %d drinks of 4 bottles over 5 years in %@ (%.1f s)", drinks, path, Measure.now() - begin))
        } catch {
            print("web-history: \(error)")
            exit(1)
        }
    }
}
