// The bottles' clocks as their last connection found them (docs/protocol.md 5.2): a whole-hour
// offset set over USB shifts every drink's time and the bottle's day, and nothing over Bluetooth
// can mend it; a drifted clock is mended by SET_TIME, but drinks recorded before carry the
// wrong time. One finding per adopted bottle whose clock was compared.

import AquavateProtocol
import Foundation
import History

enum BottleClockCheck {
    static func findings(databasePath: String) -> [DoctorFinding] {
        // Only an existing history is read: the doctor creates nothing.
        guard FileManager.default.fileExists(atPath: databasePath),
              let bottles = try? DrinkHistory(path: databasePath).bottles.all() else { return [] }
        return bottles.compactMap { bottle -> DoctorFinding? in
            guard let seconds = bottle.clockOffset else { return nil }
            let name = "bottle clock (\(bottle.name ?? bottle.serial ?? bottle.id))"
            switch BottleClockOffset(storedSeconds: seconds) {
            case .inSync:
                return DoctorFinding(.ok, name, "in step with this machine's at the last connection")
            case .zone(let hours):
                return DoctorFinding(.warn, name, "runs \(hours > 0 ? "+" : "")\(hours) h from UTC: every drink's stamp is shifted; the bridge stores them \(abs(hours)) h \(hours > 0 ? "earlier" : "later") (each stamp kept)",
                                     fix: "set the bottle's time-zone offset back to 0 on its USB serial console")
            case .drift(let offset):
                return DoctorFinding(.warn, name, BottleClockOffset.drift(seconds: offset).problem ?? "",
                                     fix: "nothing to do now; if it recurs, the bottle lost power or has an RTC chip that undoes SET_TIME")
            }
        }
    }
}
