// Is the Bluetooth radio blocked by rfkill (docs/bluez.md F14; bluetooth-auto-recovery checks this
// first and gives up when blocked)? Read from sysfs, which every user may read:
// /sys/class/rfkill/rfkillN/{type,name,soft,hard}.
import Foundation

enum RFKillCheck {
    /// One switch of type `bluetooth`.
    struct Switch: Equatable {
        var id: String
        var name: String
        var soft: Bool
        var hard: Bool
    }

    /// The Bluetooth switches under `<sysfsRoot>/class/rfkill` (none when the folder is absent).
    static func bluetoothSwitches(sysfsRoot: String) -> [Switch] {
        let folder = sysfsRoot + "/class/rfkill"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.sorted().compactMap { id in
            func read(_ name: String) -> String? {
                (try? String(contentsOfFile: "\(folder)/\(id)/\(name)", encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard read("type") == "bluetooth" else { return nil }
            return Switch(id: id, name: read("name") ?? id, soft: read("soft") == "1", hard: read("hard") == "1")
        }
    }

    static func finding(sysfsRoot: String) -> DoctorFinding {
        let switches = bluetoothSwitches(sysfsRoot: sysfsRoot)
        guard !switches.isEmpty else {
            return DoctorFinding(.ok, "rfkill", "no rfkill switch for Bluetooth, so nothing blocks it")
        }
        let hard = switches.filter(\.hard)
        if !hard.isEmpty {
            return DoctorFinding(
                .fail, "rfkill", hard.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
                    + " hard-blocked: a hardware switch or the firmware turned the radio off",
                fix: "flip the wireless switch or enable Bluetooth in the firmware settings (Raspberry Pi: remove "
                    + "dtoverlay=disable-bt from /boot/firmware/config.txt)")
        }
        let soft = switches.filter(\.soft)
        if !soft.isEmpty {
            return DoctorFinding(
                .fail, "rfkill", soft.map { "\($0.name) (\($0.id))" }.joined(separator: ", ") + " soft-blocked",
                fix: "rfkill unblock bluetooth (needs sudo unless you are in the bluetooth group with the bridge's udev rule)")
        }
        return DoctorFinding(.ok, "rfkill", switches.map(\.name).joined(separator: ", ") + " not blocked")
    }
}
