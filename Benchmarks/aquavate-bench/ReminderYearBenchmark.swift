// A year of minute ticks through the reminder engine (docs/design.md 5: budget < 1 s): 525,600 ticks
// in Europe/Madrid (both DST changes), about five drinks a day, each stored by its own sync
// between 30 s and 40 min after it was drunk, with the engine's after-sync steps at every sync's
// end. The ledger is the in-memory one, so the figure is the engine's own cost.
//
//   swift run -c release aquavate-bench reminders [--days N]

import Foundation
import Timekeeping
import Reminders

enum ReminderYearBenchmark {
    static func run(_ options: [String]) {
        let days = option("--days", in: options) ?? 365
        let zone = TimeZone(identifier: "Europe/Madrid")!
        let start = 1_767_222_000.0 // 2026-01-01T00:00:00+01:00
        var random = SeededGenerator(seed: 45)

        var ledger = InMemoryDrinkLedger()
        var syncEnds: [Double] = []
        for day in 0..<days {
            for slot in 0..<5 {
                let drunk = start + Double(day * 86_400 + 25_200 + slot * 10_800 + Int.random(in: 0...3600, using: &random))
                let stored = drunk + Double(Int.random(in: 30...2400, using: &random))
                ledger.record(timestamp: WallInstant(secondsSince1970: drunk), amountML: Int.random(in: 250...750, using: &random), storedAt: WallInstant(secondsSince1970: stored))
                syncEnds.append(stored)
            }
        }
        syncEnds.sort()

        var engine = ReminderEngine(settings: HydrationSettings(timeZone: zone))
        var byKind: [NotificationKind: Int] = [:]
        let ticks = days * 1440
        var nextSync = 0
        let begin = Measure.now()
        for delivery in engine.start(at: WallInstant(secondsSince1970: start), ledger: ledger) { byKind[delivery.kind, default: 0] += 1 }
        for minute in 0..<ticks {
            let t = start + Double(minute * 60)
            for delivery in engine.tick(at: WallInstant(secondsSince1970: t), ledger: ledger) { byKind[delivery.kind, default: 0] += 1 }
            // Syncs ending within this minute, after its tick.
            while nextSync < syncEnds.count, syncEnds[nextSync] < t + 60 {
                for delivery in engine.syncEnded(at: WallInstant(secondsSince1970: syncEnds[nextSync]), newRecords: 1, ledger: ledger) {
                    byKind[delivery.kind, default: 0] += 1
                }
                nextSync += 1
            }
        }
        let seconds = Measure.now() - begin
        let journalLines = engine.drainJournal().count

        let total = byKind.values.reduce(0, +)
        let kinds = byKind.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        print("reminders: \(ticks) ticks, \(nextSync) syncs, \(ledger.drinks.count) drinks (Europe/Madrid) in "
              + String(format: "%.3f", seconds) + " s (budget < 1 s); \(total) deliveries (\(kinds)), \(journalLines) journal lines")
    }

    private static func option(_ name: String, in options: [String]) -> Int? {
        guard let index = options.firstIndex(of: name), index + 1 < options.count else { return nil }
        return Int(options[index + 1])
    }
}
