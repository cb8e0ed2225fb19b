// The settings of the installed service that keep a runaway daemon from taking the Pi down:
// Type=notify with WatchdogSec= (restart when the loops stop making progress) and
// MemoryHigh=/MemoryMax= (throttle, then kill, a daemon whose memory runs away). Read from
// systemd itself (`systemctl show`), which includes drop-ins, or from a unit file and its drop-ins.

import Foundation

package struct ServiceUnitSettings: Sendable, Equatable {
    /// Where they were read: `systemd`, or the unit file's path.
    package var source: String
    /// `Type=`; nil when not set (systemd's default: simple).
    package var type: String?
    /// `WatchdogSec=`; nil when off.
    package var watchdog: Duration?
    /// `MemoryHigh=` and `MemoryMax=` in bytes; nil when unlimited.
    package var memoryHigh: UInt64?
    package var memoryMax: UInt64?

    package init(source: String, type: String? = nil, watchdog: Duration? = nil, memoryHigh: UInt64? = nil, memoryMax: UInt64? = nil) {
        self.source = source
        self.type = type
        self.watchdog = watchdog
        self.memoryHigh = memoryHigh
        self.memoryMax = memoryMax
    }

    /// From `systemctl show aquavate-bridge -p LoadState -p Type -p WatchdogUSec -p MemoryHigh -p MemoryMax`;
    /// nil when systemd does not know the unit (`LoadState=not-found`).
    package init?(systemctlShow output: String) {
        var values: [String: String] = [:]
        for line in output.split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let load = values["LoadState"], load == "loaded" else { return nil }
        self.init(source: "systemd")
        type = values["Type"].flatMap { $0.isEmpty ? nil : $0 }
        // systemctl shows time spans formatted (`2min`); a bare number there is microseconds.
        watchdog = values["WatchdogUSec"].flatMap { SystemdValues.timeSpan($0, bareUnit: .microseconds(1)) }
            .flatMap { $0 > .zero ? $0 : nil }
        memoryHigh = values["MemoryHigh"].flatMap(SystemdValues.bytes)
        memoryMax = values["MemoryMax"].flatMap(SystemdValues.bytes)
    }

    /// From a unit file and then its drop-ins (`FILE.d/*.conf`, in name order, as systemd applies
    /// them); the last assignment wins, an empty one resets to the default.
    package init(unitFile path: String) throws {
        self.init(source: path)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        apply(text)
        let dropIns = path + ".d"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dropIns)) ?? []
        for name in names.filter({ $0.hasSuffix(".conf") }).sorted() {
            if let dropIn = try? String(contentsOfFile: dropIns + "/" + name, encoding: .utf8) { apply(dropIn) }
        }
    }

    /// The `[Service]` assignments of one file.
    private mutating func apply(_ text: String) {
        var section = ""
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") { section = line; continue }
            guard section == "[Service]", let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "Type": type = value.isEmpty ? nil : value
            case "WatchdogSec": watchdog = SystemdValues.timeSpan(value).flatMap { $0 > .zero ? $0 : nil }
            case "MemoryHigh": memoryHigh = SystemdValues.bytes(value)
            case "MemoryMax": memoryMax = SystemdValues.bytes(value)
            default: break
            }
        }
    }
}
