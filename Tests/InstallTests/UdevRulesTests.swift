// udev/90-aquavate-bridge.rules: udevadm's own parser accepts it, and each rule matches and sets
// what prevents its user problem (the comment above each rule names the problem).
//
// Debian 12 has udev 252, which has no `udevadm verify` (254+). `udevadm test` parses every rules
// file it finds and logs each line it rejects ("FILE:LINE Invalid key 'FOO'"). It reads only the
// system's rule folders, so it runs in a private mount namespace (`unshare --mount`) with tmpfs
// over /etc/udev/rules.d and /run: our file is the only one in /etc, and nothing udevadm writes
// reaches the real system. The device it tests (/sys/class/net/lo) exists in every container.
import BusTestSupport
import Foundation
import Testing

private let rulesFile = repositoryFile("udev/90-aquavate-bridge.rules")
private let installedName = "90-aquavate-bridge.rules"

/// What udevadm said about `rules` (installed under `installedName` in a private namespace):
/// the log lines about that file, and whether it read the file at all.
private func udevadmDiagnostics(for rules: String) async throws -> (read: Bool, diagnostics: [String], log: String) {
    let scratch = try ScratchFolder("udev")
    defer { scratch.remove() }
    let copy = try scratch.write(rules, to: installedName)
    let script = """
        set -e
        mount -t tmpfs tmpfs /etc/udev/rules.d
        mount -t tmpfs tmpfs /run
        cp '\(copy)' /etc/udev/rules.d/\(installedName)
        exec udevadm test --action=add /sys/class/net/lo
        """
    let result = try await runTool("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script])
    let log = result.output + result.error
    #expect(result.status == 0, "udevadm test failed: \(result)")
    let installed = "/etc/udev/rules.d/\(installedName)"
    let lines = log.split(separator: "\n").map(String.init)
    return (lines.contains("Reading rules file: \(installed)"), lines.filter { $0.hasPrefix(installed + ":") }, log)
}

@Suite("udev rules")
struct UdevRulesTests {
    @Test("udevadm's parser reads the rules file and rejects no line of it")
    func udevadmAcceptsTheRules() async throws {
        try requireRoot("udevadm test in a private mount namespace")
        try await SystemAccounts.ensureBluetoothGroup()  // GROUP="bluetooth" must name a group that exists
        let rules = try String(contentsOfFile: rulesFile, encoding: .utf8)
        let verdict = try await udevadmDiagnostics(for: rules)
        #expect(verdict.read, "udevadm did not read the file:\n\(verdict.log)")
        #expect(verdict.diagnostics.isEmpty, "udevadm rejected lines: \(verdict.diagnostics)")
    }

    @Test("the same udevadm run does name the line of a broken rule (so the check above can fail)")
    func udevadmNamesBrokenLines() async throws {
        try requireRoot("udevadm test in a private mount namespace")
        try await SystemAccounts.ensureBluetoothGroup()
        let rules = try String(contentsOfFile: rulesFile, encoding: .utf8)
        let broken = rules + "\nSUBSYSTEM=\"usb\", GROUP==\"bluetooth\"\nKERNEL==\"x\", FOO=\"1\"\n"
        let lineCount = broken.split(separator: "\n", omittingEmptySubsequences: false).count
        let verdict = try await udevadmDiagnostics(for: broken)
        let badLines = verdict.diagnostics.compactMap { Int($0.split(separator: ":")[1].split(separator: " ")[0]) }
        #expect(Set(badLines) == [lineCount - 2, lineCount - 1], "\(verdict.diagnostics)")
        // Our checker rejects the same two lines.
        for line in ["SUBSYSTEM=\"usb\", GROUP==\"bluetooth\"", "KERNEL==\"x\", FOO=\"1\""] {
            #expect(throws: UdevSyntaxError.self) { try UdevRuleChecker.parse(line) }
        }
    }

    @Test("the checker refuses malformed rules: unknown key, wrong operator, unquoted value, bad MODE, open brace")
    func checkerRefusesMalformedRules() {
        let bad = [
            "FOO==\"bar\"",
            "KERNEL=\"rfkill\"",
            "GROUP==\"bluetooth\"",
            "KERNEL==rfkill",
            "KERNEL==\"rfkill\", MODE=\"rw\"",
            "ATTR{power/control=\"on\"",
            "ENV=\"x\"",
            "KERNEL==\"rfkill\" GROUP=\"bluetooth\"",
            "KERNEL==\"rfkill\", \\",
        ]
        for text in bad {
            #expect(throws: UdevSyntaxError.self, "accepted: \(text)") { try UdevRuleChecker.parse(text) }
        }
        #expect(throws: Never.self) { try UdevRuleChecker.parse("KERNEL==\"x\", \\\n  MODE=\"0660\"\n") }
    }

    @Test("every rule parses, has a comment naming its problem, and does what that comment promises")
    func rulesDoWhatTheySay() throws {
        let rules = try UdevRuleChecker.parse(String(contentsOfFile: rulesFile, encoding: .utf8))
        #expect(rules.count == 3)
        for rule in rules {
            #expect(rule.comment.joined().count > 40, "rule at line \(rule.line) has no comment naming its problem")
        }

        // (a) the service is wanted when an adapter (not a connection child) appears.
        let start = try #require(rules.first { $0.value("SUBSYSTEM", "==") == "bluetooth" })
        #expect(start.value("ACTION", "==") == "add")
        #expect(start.value("KERNEL", "==") == "hci[0-9]*")
        #expect(start.value("ENV{DEVTYPE}", "==") == "host")
        #expect(start.value("TAG", "+=") == "systemd")
        #expect(start.value("ENV{SYSTEMD_WANTS}", "+=") == "aquavate-bridge.service")
        #expect(start.comment.joined(separator: " ").contains("before the adapter"))

        // No rule touches /dev/rfkill: a group that may write it may switch off every
        // radio (Wi-Fi on a headless Pi), and the bridge never needs it (the doctor reads the
        // block state from /sys/class/rfkill).
        #expect(!rules.contains { $0.value("KERNEL", "==") == "rfkill" })
        let text = try String(contentsOfFile: rulesFile, encoding: .utf8)
        #expect(!text.split(separator: "\n").contains { !$0.hasPrefix("#") && $0.contains("rfkill") })

        // (c) USB dongles stay powered: device class e0, and Bluetooth interfaces' parent devices.
        let device = try #require(rules.first { $0.value("ATTR{bDeviceClass}", "==") == "e0" })
        #expect(device.value("SUBSYSTEM", "==") == "usb")
        #expect(device.value("ENV{DEVTYPE}", "==") == "usb_device")
        #expect(device.value("ATTR{power/control}", "=") == "on")
        #expect(device.comment.joined(separator: " ").contains("autosuspend"))
        let interface = try #require(rules.first { $0.value("ATTR{bInterfaceClass}", "==") == "e0" })
        #expect(interface.value("ATTR{bInterfaceSubClass}", "==") == "01")
        #expect(interface.value("ATTR{bInterfaceProtocol}", "==") == "01")
        #expect(interface.value("ATTR{../power/control}", "=") == "on")
        for rule in [device, interface] {
            let actions = rule.value("ACTION", "==")?.split(separator: "|") ?? []
            #expect(actions.contains("bind"), "after btusb probed, which may have enabled autosuspend itself")
        }
    }
}
