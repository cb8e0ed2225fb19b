// `doctor --service` reports the unit's Type, WatchdogSec, MemoryHigh and MemoryMax, one line
// each with the fix when missing: without them a daemon stuck in a loop is never restarted and its
// memory is not bounded (docs/robustness.md, "Liveness", the watchdog). Read from a unit file and
// its drop-ins (`--unit`) or from `systemctl show` (parsed here from its output: no systemd runs in
// the test machine).
import BusTestSupport
@testable import Diagnostics
import Foundation
import Testing

private let unitFile = repositoryFile("systemd/aquavate-bridge.service")

/// `doctor --service --unit UNIT` with no bus and no service files: only the unit's lines matter.
private func doctor(unit: String, in scratch: ScratchFolder) async throws -> ToolResult {
    try await runTool(bridgeBinary, ["doctor", "--service", "--unit", unit, "--timeout", "1"],
                      environment: environmentWithoutBuses(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(scratch.file("no-bus"))"]))
}

@Suite("doctor --service: the unit's watchdog and memory limits")
struct ServiceUnitDoctorTests {
    @Test("the shipped unit: Type=notify, WatchdogSec, MemoryHigh and MemoryMax, each ok on its own line")
    func shippedUnitIsComplete() async throws {
        let scratch = try ScratchFolder("unit-doctor")
        defer { scratch.remove() }
        let result = try await doctor(unit: unitFile, in: scratch)
        let lines = unitLines(result)
        #expect(lines == [
            "ok    service Type: notify (\(unitFile))",
            "ok    service WatchdogSec: 2min (\(unitFile)): restarted when its loops make no progress",
            "ok    service MemoryHigh: \(SystemdValues.describe(bytes: try #require(SystemdValues.bytes(value("MemoryHigh"))))) (\(unitFile))",
            "ok    service MemoryMax: \(SystemdValues.describe(bytes: try #require(SystemdValues.bytes(value("MemoryMax"))))) (\(unitFile))",
        ], "\(result)")
    }

    @Test("a unit without them: one warning each, saying what is at risk and the fix")
    func oldUnitGetsTheFixes() async throws {
        let scratch = try ScratchFolder("unit-doctor")
        defer { scratch.remove() }
        let old = try scratch.write("""
            [Unit]
            Description=Aquavate smart water bottle bridge
            [Service]
            Type=exec
            ExecStart=/usr/local/bin/aquavate-bridge run
            """, to: "aquavate-bridge.service")
        let result = try await doctor(unit: old, in: scratch)
        let lines = unitLines(result)
        #expect(lines.count == 4, "\(result)")
        #expect(lines.contains { $0.hasPrefix("warn  service Type: exec (\(old)): systemd neither waits for READY=1")
            && $0.hasSuffix("; fix: Type=notify and NotifyAccess=main (reinstall: sudo make install; or sudo systemctl edit aquavate-bridge)") },
            "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warn  service WatchdogSec: not set (\(old)): a daemon stuck in a loop is never restarted; fix: \(ServiceUnitCheck.watchdog)") },
                "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warn  service MemoryHigh: not set") && $0.contains("fix: \(ServiceUnitCheck.memoryHigh)") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warn  service MemoryMax: not set") && $0.contains("fix: \(ServiceUnitCheck.memoryMax)") }, "\(lines)")
    }

    @Test("drop-ins apply after the unit, in name order (what `systemctl edit` writes)")
    func dropInsApply() async throws {
        let scratch = try ScratchFolder("unit-doctor")
        defer { scratch.remove() }
        let unit = try scratch.write(String(contentsOfFile: unitFile, encoding: .utf8), to: "aquavate-bridge.service")
        try FileManager.default.createDirectory(atPath: unit + ".d", withIntermediateDirectories: true)
        _ = try scratch.write("[Service]\nWatchdogSec=5min\nMemoryMax=1G\n", to: "aquavate-bridge.service.d/10-more.conf")
        _ = try scratch.write("[Service]\nMemoryHigh=\n", to: "aquavate-bridge.service.d/20-reset.conf")
        let settings = try ServiceUnitSettings(unitFile: unit)
        #expect(settings.type == "notify")
        #expect(settings.watchdog == .seconds(300))
        #expect(settings.memoryMax == 1 << 30)
        #expect(settings.memoryHigh == nil, "an empty assignment resets to the default (no limit)")
        let lines = ServiceUnitCheck.findings(for: settings).map(\.description)
        #expect(lines.contains("ok    service MemoryMax: 1 GiB (\(unit))"), "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warn  service MemoryHigh: not set") }, "\(lines)")
    }

    @Test("MemoryHigh at or above MemoryMax is named: the daemon would be killed before it is slowed down")
    func highAboveMax() {
        let lines = ServiceUnitCheck.findings(for: ServiceUnitSettings(
            source: "systemd", type: "notify", watchdog: .seconds(120), memoryHigh: 512 << 20, memoryMax: 256 << 20)).map(\.description)
        #expect(lines.contains { $0.hasPrefix("warn  service MemoryHigh: 512 MiB is not below MemoryMax (256 MiB)") }, "\(lines)")
    }

    @Test("systemctl show's answer is read: formatted time spans, bytes, infinity, and an unknown unit")
    func systemctlShowIsParsed() throws {
        let loaded = try #require(ServiceUnitSettings(systemctlShow: """
            LoadState=loaded
            Type=notify
            WatchdogUSec=2min
            MemoryHigh=134217728
            MemoryMax=201326592
            """))
        #expect(loaded == ServiceUnitSettings(source: "systemd", type: "notify", watchdog: .seconds(120),
                                              memoryHigh: 134_217_728, memoryMax: 201_326_592))
        let bare = try #require(ServiceUnitSettings(systemctlShow: "LoadState=loaded\nType=exec\nWatchdogUSec=0\nMemoryHigh=infinity\nMemoryMax=infinity\n"))
        #expect(bare == ServiceUnitSettings(source: "systemd", type: "exec"))
        let infinite = try #require(ServiceUnitSettings(systemctlShow: "LoadState=loaded\nType=notify\nWatchdogUSec=infinity\n"))
        #expect(infinite.watchdog == nil, "no finite time-out: no watchdog")
        #expect(ServiceUnitSettings(systemctlShow: "LoadState=not-found\nType=simple\nWatchdogUSec=0\n") == nil)
    }

    @Test("systemd time spans and sizes")
    func values() {
        #expect(SystemdValues.timeSpan("1min 30s") == .seconds(90))
        #expect(SystemdValues.timeSpan("2min") == .seconds(120))
        #expect(SystemdValues.timeSpan("120") == .seconds(120))
        #expect(SystemdValues.timeSpan("500ms") == .milliseconds(500))
        #expect(SystemdValues.timeSpan("1h 2min 3s 4ms") == .seconds(3723) + .milliseconds(4))
        #expect(SystemdValues.timeSpan("soon") == nil)
        #expect(SystemdValues.timeSpan("infinity") == nil)
        #expect(SystemdValues.timeSpan("nan") == nil)
        #expect(SystemdValues.timeSpan("99999999999999999999 s") == nil)
        #expect(SystemdValues.bytes("192M") == 192 << 20)
        #expect(SystemdValues.bytes("1.5G") == 3 << 29)
        #expect(SystemdValues.bytes("4096") == 4096)
        #expect(SystemdValues.bytes("50%") == nil)
        #expect(SystemdValues.bytes("infinity") == nil)
        #expect(SystemdValues.bytes("infM") == nil)
    }

    @Test("--unit without --service is refused with one line")
    func unitNeedsService() async throws {
        let result = try await runTool(bridgeBinary, ["doctor", "--unit", unitFile], environment: environmentWithoutBuses())
        #expect(result.status != 0)
        #expect(result.error.contains("--unit only applies with --service"), "\(result)")
    }

    @Test("the fixes name the shipped unit's values, and the shipped unit is a notify service with a watchdog")
    func fixesMatchTheShippedUnit() throws {
        #expect("WatchdogSec=" + value("WatchdogSec") == ServiceUnitCheck.watchdog)
        #expect("MemoryHigh=" + value("MemoryHigh") == ServiceUnitCheck.memoryHigh)
        #expect("MemoryMax=" + value("MemoryMax") == ServiceUnitCheck.memoryMax)
        #expect(value("Type") == "notify")
        #expect(value("NotifyAccess") == "main")
        let high = try #require(SystemdValues.bytes(value("MemoryHigh")))
        let max = try #require(SystemdValues.bytes(value("MemoryMax")))
        #expect(high < max)
    }
}

/// The doctor's lines about the unit (`ok    service Type: …`).
private func unitLines(_ result: ToolResult) -> [String] {
    result.lines.filter { $0.dropFirst(6).hasPrefix("service ") }
}

/// The shipped unit's last `KEY=` in [Service].
private func value(_ key: String) -> String {
    let text = (try? String(contentsOfFile: unitFile, encoding: .utf8)) ?? ""
    var section = ""
    var found = ""
    for raw in text.split(separator: "\n") {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if line.hasPrefix("[") { section = line }
        if section == "[Service]", line.hasPrefix(key + "=") { found = String(line.dropFirst(key.count + 1)) }
    }
    return found
}
