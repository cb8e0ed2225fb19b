// `doctor --service`: the installed unit's Type, WatchdogSec, MemoryHigh and MemoryMax, one line
// each, with the fix when one is missing. Without them a daemon stuck in a loop runs forever, and
// one whose memory runs away takes the Pi down. Missing settings are warnings: the
// bridge syncs without them.

import Foundation
import ProcessSupport

/// Where `doctor --service` reads the unit's settings.
package enum ServiceUnitSource: Sendable, Equatable {
    /// systemd (`systemctl show`) when it runs, else the installed unit file.
    case installed
    /// This unit file and its drop-ins (`--unit FILE`).
    case file(String)
}

enum ServiceUnitCheck {
    static let unitName = "aquavate-bridge.service"
    /// Where the unit is installed, in systemd's order: by `make install` (/etc), by the Debian
    /// package (/lib on Debian 12, /usr/lib later).
    static let installedPaths = ["/etc/systemd/system/aquavate-bridge.service", "/usr/lib/systemd/system/aquavate-bridge.service",
                                 "/lib/systemd/system/aquavate-bridge.service"]
    /// How a local change survives reinstalls.
    static let edit = "sudo systemctl edit aquavate-bridge"
    /// The shipped unit's values (systemd/aquavate-bridge.service explains them), named in the fixes.
    static let watchdog = "WatchdogSec=120s"
    static let memoryHigh = "MemoryHigh=128M"
    static let memoryMax = "MemoryMax=176M"

    static func findings(_ source: ServiceUnitSource, timeout: Duration) async -> [DoctorFinding] {
        switch source {
        case .file(let path):
            do {
                return findings(for: try ServiceUnitSettings(unitFile: path))
            } catch {
                return [DoctorFinding(.warn, "service unit", "cannot read \(path): \(Self.reason(error))",
                                      fix: "give the unit file's path with --unit FILE")]
            }
        case .installed:
            if FileManager.default.fileExists(atPath: "/run/systemd/system") {
                guard let output = await systemctlShow(timeout: timeout) else {
                    return [DoctorFinding(.warn, "service unit", "systemctl show \(unitName) gave no answer",
                                          fix: "systemctl show \(unitName) -p Type -p WatchdogUSec -p MemoryHigh -p MemoryMax")]
                }
                guard let settings = ServiceUnitSettings(systemctlShow: output) else { return [notInstalled] }
                return findings(for: settings)
            }
            guard let installed = installedPaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
                return [notInstalled]
            }
            return await findings(.file(installed), timeout: timeout)
        }
    }

    static var notInstalled: DoctorFinding {
        DoctorFinding(.warn, "service unit", "\(unitName) is not installed",
                      fix: "sudo apt install ./dist/aquavate-bridge_*.deb after make deb, or sudo make install (or check a unit file with --unit FILE)")
    }

    /// One line per setting.
    static func findings(for unit: ServiceUnitSettings) -> [DoctorFinding] {
        let from = unit.source == "systemd" ? "(systemd)" : "(\(unit.source))"
        var findings: [DoctorFinding] = []
        if unit.type == "notify" {
            findings.append(DoctorFinding(.ok, "service Type", "notify \(from)"))
        } else {
            findings.append(DoctorFinding(
                .warn, "service Type", "\(unit.type ?? "simple (not set)") \(from): systemd neither waits for READY=1 nor runs the watchdog",
                fix: "Type=notify and NotifyAccess=main (reinstall: sudo make install; or \(edit))"))
        }
        if let watchdog = unit.watchdog {
            findings.append(DoctorFinding(
                .ok, "service WatchdogSec", "\(SystemdValues.describe(watchdog)) \(from): restarted when its loops make no progress"))
        } else {
            findings.append(DoctorFinding(
                .warn, "service WatchdogSec", "not set \(from): a daemon stuck in a loop is never restarted",
                fix: "\(watchdog) with Type=notify (reinstall: sudo make install; or \(edit))"))
        }
        findings.append(memoryFinding("MemoryHigh", unit.memoryHigh, from: from, recommended: memoryHigh,
                                      without: "nothing slows a daemon whose memory runs away"))
        findings.append(memoryFinding("MemoryMax", unit.memoryMax, from: from, recommended: memoryMax,
                                      without: "a daemon whose memory runs away can take the Pi down"))
        if let high = unit.memoryHigh, let max = unit.memoryMax, high >= max {
            findings.append(DoctorFinding(
                .warn, "service MemoryHigh", "\(SystemdValues.describe(bytes: high)) is not below MemoryMax (\(SystemdValues.describe(bytes: max))): the daemon is killed before it is slowed down",
                fix: "\(memoryHigh) and \(memoryMax) (\(edit))"))
        }
        return findings
    }

    private static func memoryFinding(_ key: String, _ bytes: UInt64?, from: String, recommended: String,
                                      without: String) -> DoctorFinding {
        guard let bytes else {
            return DoctorFinding(.warn, "service \(key)", "not set \(from): \(without)",
                                 fix: "\(recommended) (reinstall: sudo make install; or \(edit))")
        }
        return DoctorFinding(.ok, "service \(key)", "\(SystemdValues.describe(bytes: bytes)) \(from)")
    }

    /// `systemctl show`'s answer, nil when it cannot be run or does not answer in time.
    private static func systemctlShow(timeout: Duration) async -> String? {
        let pipe = Pipe()
        let arguments = ["show", unitName, "-p", "LoadState", "-p", "Type", "-p", "WatchdogUSec", "-p", "MemoryHigh", "-p", "MemoryMax"]
        guard let child = try? ChildProcess.spawn("/usr/bin/systemctl", arguments, output: pipe.fileHandleForWriting) else {
            return nil
        }
        guard await child.waitForExit(timeout: timeout) == 0 else {
            child.killNow()
            return nil
        }
        // A few short lines: far below a pipe's buffer, so the child never waited on the reader.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        try? pipe.fileHandleForReading.close()
        return String(decoding: data, as: UTF8.self)
    }

    private static func reason(_ error: any Error) -> String {
        if let cocoa = error as? CocoaError, cocoa.code == .fileReadNoSuchFile { return "no such file" }
        return "\(error.localizedDescription)"
    }
}
