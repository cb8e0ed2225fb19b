// systemd/aquavate-bridge.service: systemd's own checker accepts it, it runs the bridge as the
// unprivileged user with the service's paths, restarts on failure without relying on bluetoothd's
// ordering (docs/bluez.md F21), and its hardening leaves what the bridge needs. MemoryDenyWriteExecute
// is checked against the real binary with the kernel's own W^X switch.
import BusTestSupport
import Foundation
import Testing

private let unitFile = repositoryFile("systemd/aquavate-bridge.service")
private let installedBinary = "/usr/local/bin/aquavate-bridge"

/// `Key=value` lines of one section of a unit file (repeated keys keep every value).
private func directives(_ text: String, section: String) -> [(key: String, value: String)] {
    var current = ""
    var found: [(String, String)] = []
    for raw in text.split(separator: "\n") {
        let line = raw.trimmingCharacters(in: .whitespaces)
        if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
        if line.hasPrefix("[") { current = String(line.dropFirst().dropLast()); continue }
        guard current == section, let equals = line.firstIndex(of: "=") else { continue }
        found.append((String(line[..<equals]), String(line[line.index(after: equals)...])))
    }
    return found
}

private func value(_ list: [(key: String, value: String)], _ key: String) -> String? {
    list.last { $0.key == key }?.value
}

/// Runs `systemd-analyze verify` on `unitText` saved as aquavate-bridge.service, with the binary
/// path pointed at an executable that exists (verify checks ExecStart's file).
private func verify(_ unitText: String) async throws -> ToolResult {
    let scratch = try ScratchFolder("unit")
    defer { scratch.remove() }
    let binary = try scratch.write("#!/bin/sh\nexit 0\n", to: "aquavate-bridge")
    chmod(binary, 0o755)
    let unit = try scratch.write(unitText.replacingOccurrences(of: installedBinary, with: binary),
                                 to: "aquavate-bridge.service")
    return try await runTool("/usr/bin/systemd-analyze", ["verify", unit], environment: environmentWithoutBuses())
}

@Suite("systemd unit")
struct SystemdUnitTests {
    @Test("systemd-analyze verify accepts the unit without a single complaint")
    func verifyAcceptsTheUnit() async throws {
        let result = try await verify(String(contentsOfFile: unitFile, encoding: .utf8))
        #expect(result.status == 0, "\(result)")
        #expect(result.error.isEmpty && result.output.isEmpty, "\(result)")
    }

    @Test("systemd-analyze verify does complain about a broken unit (so the check above can fail)")
    func verifyRejectsABrokenUnit() async throws {
        let text = try String(contentsOfFile: unitFile, encoding: .utf8)
        let misspelt = try await verify(text.replacingOccurrences(of: "RestartSec=", with: "RestartSecs="))
        #expect(misspelt.error.contains("Unknown key 'RestartSecs'"), "\(misspelt)")
        let badRestart = try await verify(text.replacingOccurrences(of: "Restart=on-failure", with: "Restart=sometimes"))
        #expect(badRestart.error.contains("sometimes"), "\(badRestart)")
        // The real path does not exist here: verify names it, which is why the tests repoint it.
        let real = try await runTool("/usr/bin/systemd-analyze", ["verify", unitFile])
        #expect(real.error.contains("Command \(installedBinary) is not executable") || FileManager.default.fileExists(atPath: installedBinary),
                "\(real)")
    }

    @Test("runs `run` as aquavate (no supplementary group) with the service's config and database, restarting on failure")
    func serviceRunsTheBridge() throws {
        let text = try String(contentsOfFile: unitFile, encoding: .utf8)
        let service = directives(text, section: "Service")
        #expect(value(service, "ExecStart") ==
            "\(installedBinary) run --config /etc/aquavate/bridge.toml --db /var/lib/aquavate-bridge/history.sqlite")
        #expect(value(service, "User") == "aquavate")
        #expect(value(service, "Group") == "aquavate")
        // The D-Bus policy names the user; no group is needed (nor rfkill's).
        #expect(value(service, "SupplementaryGroups") == nil)
        // The instance lock's folder, /run/aquavate-bridge ($RUNTIME_DIRECTORY).
        #expect(value(service, "RuntimeDirectory") == "aquavate-bridge")
        #expect(value(service, "StateDirectory") == "aquavate-bridge")
        #expect(value(service, "ConfigurationDirectory") == "aquavate")
        #expect(value(service, "Restart") == "on-failure")
        let restartSec = try #require(value(service, "RestartSec"))
        #expect(restartSec.hasSuffix("s") && (Int(restartSec.dropLast()) ?? 0) >= 5)

        // F21: ordered after bluetoothd and D-Bus, never Requires=/BindsTo= them: the bridge waits
        // in-process, so a late controller must not stop or fail the service.
        let unit = directives(text, section: "Unit")
        let after = unit.filter { $0.key == "After" }.flatMap { $0.value.split(separator: " ").map(String.init) }
        #expect(Set(after).isSuperset(of: ["bluetooth.target", "dbus.service"]))
        #expect(!unit.contains { ["Requires", "BindsTo", "Requisite"].contains($0.key) })
        #expect(value(unit, "StartLimitIntervalSec") == "0", "a slow adapter must never exhaust the restart limit")
        // Start after NTP has synchronised the clock, when something provides that; never
        // Requires= (without NTP the bridge still syncs and withholds SET_TIME).
        #expect(after.contains("time-sync.target"))
        #expect(unit.contains { $0.key == "Wants" && $0.value.split(separator: " ").contains("time-sync.target") })
        #expect(value(directives(text, section: "Install"), "WantedBy") == "multi-user.target")
    }

    @Test("hardening keeps the system bus, Bluetooth and network sockets, and nothing it does not need")
    func hardening() throws {
        let service = directives(try String(contentsOfFile: unitFile, encoding: .utf8), section: "Service")
        for (key, expected) in [
            ("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
            ("ProtectKernelTunables", "yes"), ("ProtectControlGroups", "yes"), ("LockPersonality", "yes"),
            ("MemoryDenyWriteExecute", "yes"), ("SystemCallArchitectures", "native"), ("CapabilityBoundingSet", ""),
        ] {
            #expect(value(service, key) == expected, "\(key)")
        }
        let families = Set((value(service, "RestrictAddressFamilies") ?? "").split(separator: " ").map(String.init))
        // No AF_BLUETOOTH: only `doctor` opens a Bluetooth socket, outside the unit.
        #expect(families == ["AF_UNIX", "AF_INET", "AF_INET6", "AF_NETLINK"])
        // The kernel's NTP state is readable, so the daemon can tell whether to trust the clock for
        // SET_TIME (ProtectClock= would refuse even reading it); setting the clock stays impossible
        // without CAP_SYS_TIME (CapabilityBoundingSet= above).
        #expect(value(service, "ProtectClock") == nil)
        let allowed = service.filter { $0.key == "SystemCallFilter" }.flatMap { $0.value.split(separator: " ").map(String.init) }
        #expect(allowed.contains("adjtimex") && allowed.contains("clock_adjtime"))
        // JOURNAL_STREAM is systemd's to set: the unit must not fake it.
        #expect(!service.contains { $0.key == "Environment" && $0.value.contains("JOURNAL_STREAM") })
    }

    @Test("LimitNICE lets the service lower its threads' nice values as far as libdispatch asks (-4): refused, it complains")
    func workerThreadsMayTakeTheirNiceValues() async throws {
        try requireRoot("running the bridge as another user")
        let service = directives(try String(contentsOfFile: unitFile, encoding: .utf8), section: "Service")
        // systemd's signed form is a nice value (the kernel's limit is 20 - nice); -4 is
        // libdispatch's nice for its highest class (DISPATCH_NICE_USER_INTERACTIVE).
        let nice = try #require(value(service, "LimitNICE").flatMap { Int($0) }, "LimitNICE as a signed nice value")
        #expect(nice <= -4, "LimitNICE=\(nice)")
        // What the limit is for: a process that may not lower a nice value (an unprivileged user
        // under the default limit 0) gets libdispatch's complaint; one that may (root here, as
        // the service under the limit) does not. This machine's root cannot raise RLIMIT_NICE
        // itself (no CAP_SYS_RESOURCE in the container), so systemd's own setting is not run here.
        let scratch = try ScratchFolder("nice")
        defer { scratch.remove() }
        chmod(scratch.path, 0o777)
        // LIBDISPATCH_LOG=stderr: libdispatch logs to syslog otherwise (the journal, under systemd).
        func status(_ asUser: [String]) async throws -> ToolResult {
            try await runTool("/usr/bin/setpriv", asUser + ["--", bridgeBinary, "status", "--db", scratch.file("history.sqlite")],
                              environment: environmentWithoutBuses(["LIBDISPATCH_LOG": "stderr"]))
        }
        let complaint = "Failed to set thread priority for worker thread"
        let refused = try await status(["--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(refused.status == 0 && refused.error.contains(complaint), "\(refused)")
        let allowed = try await status([])
        #expect(allowed.status == 0 && !allowed.error.contains(complaint), "\(allowed)")
    }

    @Test("a command run outside the unit by a user who may not lower a nice value leaves no libdispatch complaint in syslog")
    func commandsOutsideTheUnitLeaveNoPriorityComplaint() async throws {
        try requireRoot("running the bridge as another user")
        let scratch = try ScratchFolder("nice-syslog")
        defer { scratch.remove() }
        chmod(scratch.path, 0o777)
        // strace sees every thread's setpriority and every connection: libdispatch's syslog line
        // would go to /dev/log (absent here, but the attempt shows), as it does into the journal
        // on a Pi. Run as nobody under the default RLIMIT_NICE of 0, as `sudo -u aquavate` is.
        func traced(_ name: String, _ extra: [String: String]) async throws -> (result: ToolResult, trace: String) {
            let trace = scratch.file("\(name).strace")
            var environment = environmentWithoutBuses(extra)
            if extra["LIBDISPATCH_LOG"] == nil { environment.removeValue(forKey: "LIBDISPATCH_LOG") }
            let result = try await runTool(
                "/usr/bin/setpriv",
                ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/strace", "-f", "-qq", "-o", trace,
                 "-e", "trace=setpriority,connect", bridgeBinary, "status", "--db", scratch.file("history.sqlite")],
                environment: environment, timeout: .seconds(120))
            return (result, (try? String(contentsOfFile: trace, encoding: .utf8)) ?? "")
        }
        // What libdispatch asks: nice -4 for its manager thread (the timers and the thread pool's
        // monitor), refused; the bridge itself asks for no class.
        let plain = try await traced("plain", [:])
        #expect(plain.result.status == 0, "\(plain.result)")
        // (strace may split a call of one thread around another's: "<unfinished …>", "<… resumed>".)
        let asks = plain.trace.split(separator: "\n").filter { $0.contains("setpriority(PRIO_PROCESS, 0, -4") }
        #expect(asks.count == 1 && plain.trace.contains("EACCES"), "\(plain.trace)")
        #expect(!plain.trace.contains("\"/dev/log\""), "libdispatch wrote to syslog: \(plain.trace)")
        // The check can fail: asked to log to syslog, libdispatch does.
        let chosen = try await traced("syslog", ["LIBDISPATCH_LOG": "syslog"])
        #expect(chosen.result.status == 0 && chosen.trace.contains("\"/dev/log\""), "\(chosen.result)\n\(chosen.trace)")
    }

    @Test("systemd-analyze security rates the unit's exposure at most 2.5 (\"OK\")")
    func exposure() async throws {
        let scratch = try ScratchFolder("unit")
        defer { scratch.remove() }
        let unit = try scratch.write(String(contentsOfFile: unitFile, encoding: .utf8), to: "aquavate-bridge.service")
        let result = try await runTool("/usr/bin/systemd-analyze", ["security", "--offline=yes", "--no-pager", unit],
                                       environment: environmentWithoutBuses(["SYSTEMD_COLORS": "0"]))
        let line = try #require(result.output.split(separator: "\n").first { $0.contains("Overall exposure level") },
                                "\(result)")
        let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
        #expect(score <= 2.5, "\(line)")
    }

    @Test("the bridge runs under the kernel's W^X lock (what MemoryDenyWriteExecute enforces): replay and doctor")
    func bridgeToleratesMemoryDenyWriteExecute() async throws {
        let scratch = try ScratchFolder("mdwe")
        defer { scratch.remove() }
        let script = try writeMDWEWrapper(in: scratch)
        let probe = try await runTool("/usr/bin/python3", [script, "/usr/bin/python3", "-c",
            "import ctypes; print(ctypes.CDLL(None).prctl(66, 0, 0, 0, 0))"])
        #expect(probe.status == 0 && probe.output == "1\n", "MDWE must reach the exec'd program: \(probe)")

        let replay = try await runTool("/usr/bin/python3", [script, bridgeBinary, "replay",
            repositoryFile("captures/wedge.aqcap"), "--json", "--db", scratch.file("history.sqlite")],
            environment: environmentWithoutBuses())
        #expect(replay.status == 0, "\(replay)")
        #expect(replay.output.contains("\"event\":\"drink\""))
        // libdbus and the DBus module's owner thread too: the doctor on a private bus.
        let doctor = try await withPrivateBus { bus in
            try await runTool("/usr/bin/python3", [script, bridgeBinary, "doctor", "--db", scratch.file("history.sqlite"),
                "--set", "mqtt.url=mqtt://127.0.0.1:1"], environment: environmentWithoutBuses(["DBUS_SYSTEM_BUS_ADDRESS": bus.address]))
        }
        #expect(doctor.output.contains("ok    system bus: connected to"), "\(doctor)")
        #expect(doctor.output.contains("FAIL  bluetoothd: bluetoothd is not running"), "\(doctor)")
        #expect(doctor.output.contains("database: \(scratch.file("history.sqlite")) is writable"), "\(doctor)")
    }

    @Test("HTTPS push (libcurl, OpenSSL) under the W^X lock: the bridge reports the refused server instead of crashing")
    func pushToleratesMemoryDenyWriteExecute() async throws {
        let scratch = try ScratchFolder("mdwe")
        defer { scratch.remove() }
        let script = try writeMDWEWrapper(in: scratch)
        let result = try await runTool("/usr/bin/python3", [script, bridgeBinary, "notify", "test", "--wait", "2",
            "--db", scratch.file("history.sqlite"), "--set", "push.url=https://127.0.0.1:1/topic", "--set", "desktop.enabled=false"],
            environment: environmentWithoutBuses())
        #expect(result.status == 1, "1: the push was not delivered; a crash would be a signal: \(result)")
        #expect(result.lines.contains("journal: delivered"), "\(result)")
        #expect(result.lines.contains { $0.hasPrefix("push: NOT delivered: ") && $0.contains("refused") }, "\(result)")
    }
}

/// A Python wrapper that turns on the kernel's MDWE (PR_SET_MDWE = 65, PR_MDWE_REFUSE_EXEC_GAIN =
/// 1: no memory may become writable and executable, as MemoryDenyWriteExecute= enforces) and
/// execs its arguments; the lock is inherited across exec (Linux 6.3+).
private func writeMDWEWrapper(in scratch: ScratchFolder) throws -> String {
    try scratch.write("""
        import ctypes, os, sys
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(65, 1, 0, 0, 0) != 0:
            sys.exit("PR_SET_MDWE failed, errno %d (needs Linux 6.3 or newer)" % ctypes.get_errno())
        os.execv(sys.argv[1], sys.argv[1:])
        """, to: "mdwe.py")
}
