// The bottles' syncs as the history last saw them (docs/design.md 3.4): a bottle stuck behind a
// chunk it sends at every connection holds every later drink back, which only a person can
// change; records kept aside in the quarantine wait for a person to restore or discard them.

import Foundation
import History
import Reports

enum BottleSyncCheck {
    static func findings(databasePath: String) -> [DoctorFinding] {
        // Only an existing history is read: the doctor creates nothing.
        guard FileManager.default.fileExists(atPath: databasePath),
              let history = try? DrinkHistory(path: databasePath),
              let bottles = try? history.bottles.all() else { return [] }
        let quarantined = (try? history.drinks.quarantinedCounts()) ?? [:]
        return bottles.flatMap { bottle -> [DoctorFinding] in
            let name = bottle.name ?? bottle.serial ?? bottle.id
            var findings: [DoctorFinding] = []
            if let refusal = bottle.refusal, refusal.isStuck {
                findings.append(DoctorFinding(.fail, "bottle sync (\(name))",
                                              refusal.line(bottle: name, unsynced: bottle.state?.unsyncedCount, timeZone: .gmt),
                                              fix: SyncRefusal.advice))
            }
            if let count = quarantined[bottle.id], count > 0 {
                findings.append(DoctorFinding(.warn, "quarantine (\(name))",
                                              "\(count) record(s) the bottle sent cannot be drinks (a wrong clock or erased flash); kept aside, not counted",
                                              fix: "`aquavate-bridge history --quarantined` lists them; `bottle restore N --at TIME` or `bottle discard N` resolves each"))
            }
            return findings
        }
    }
}
