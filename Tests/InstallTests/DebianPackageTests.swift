// The Debian package of `make deb`, tested the way a person installs it: lintian has no error;
// then, in a fresh Debian root made for the test (debootstrap --variant=minbase from
// deb.debian.org, the release this machine runs), apt installs it with its dependencies; the
// files, the service user, the enabled unit (systemd-analyze verify), `--version`, `doctor` and
// `setup` are checked inside; the same package is installed over itself and a newer version
// over that, keeping the locally modified conffile; purge removes the config and keeps the drink
// history, unless AQUAVATE_PURGE_HISTORY=yes. Everything runs in a private mount namespace, so
// the mounts vanish with it; systemd does not run in the root (no /run/systemd/system), so
// nothing is started, which is what the maintainer scripts must cope with in a chroot anyway.
import BusTestSupport
import Foundation
import Testing

/// This machine's Debian release (the binary links its libraries, so the root must match).
private func debianCodename() throws -> String {
    let text = try String(contentsOfFile: "/etc/os-release", encoding: .utf8)
    let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("VERSION_CODENAME=") })
    return String(line.dropFirst("VERSION_CODENAME=".count))
}

@Suite("Debian package")
struct DebianPackageTests {
    @Test("make deb names the package aquavate-bridge_<the binary's version>_<dpkg's architecture>.deb; lintian reports no error")
    func lintian() async throws {
        let deb = try await DebianPackage.built.value
        let version = try await DebianPackage.expectedVersion()
        let arch = try await runTool("/usr/bin/dpkg", ["--print-architecture"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(URL(fileURLWithPath: deb).lastPathComponent == "aquavate-bridge_\(version)_\(arch).deb")
        let fields = try await runTool("/usr/bin/dpkg-deb", ["--field", deb, "Package", "Version", "Architecture", "Depends"])
        #expect(fields.output.contains("Version: \(version)\n") && fields.output.contains("Architecture: \(arch)\n"), "\(fields)")
        // Depends: comes from dpkg-shlibdeps (the C libraries the binary links, with versions) and
        // packaging/debian/control (the libraries loaded with dlopen: libcurl4, libmosquitto1).
        for library in ["libc6 (>=", "libdbus-1-3 (>=", "libmosquitto1 (>= 1.6)", "libcurl4", "libsqlite3-0 (>=", "systemd"] {
            #expect(fields.output.contains(library), "\(library) in \(fields.output)")
        }
        let result = try await runTool("/usr/bin/lintian", ["--fail-on", "error", "--no-tag-display-limit", deb],
                                       environment: environmentWithoutBuses(), timeout: .seconds(600))
        #expect(result.status == 0, "\(result)")
        #expect(!result.lines.contains { $0.hasPrefix("E:") }, "\(result)")
    }

    @Test("postinst has D-Bus reload its policy after making the user aquavate and before starting the service")
    func postinstReloadsTheBusBetweenUserAndStart() throws {
        // dbus-daemon reads the policy while dpkg unpacks it, before the user exists, and drops
        // that user's rules; dpkg's own reload (a trigger) comes after postinst started the service.
        let lines = try String(contentsOfFile: repositoryFile("packaging/debian/postinst"), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") }
        func line(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        let user = try #require(line("systemd-sysusers aquavate-bridge.conf"))
        let reload = try #require(line("org.freedesktop.DBus.ReloadConfig"), "postinst reloads the bus")
        let start = try #require(line("deb-systemd-invoke \"$action\""))
        #expect(user < reload && reload < start, "user at \(user), reload at \(reload), start at \(start)")
    }

    @Test("installs with apt into a fresh Debian root, reinstalls and upgrades keeping a modified conffile, purges keeping the history")
    func installUpgradePurge() async throws {
        try requireRoot("installing the package into a Debian root")
        let deb = try await DebianPackage.built.value
        let version = try await DebianPackage.expectedVersion()
        let scratch = try ScratchFolder("debroot")
        defer { scratch.remove() }
        let codename = try debianCodename()
        let s = scratch.path, root = scratch.file("root"), name = URL(fileURLWithPath: deb).lastPathComponent
        let script = """
            set -u
            say() { echo "$1=$2"; }
            R='\(root)'
            # A newer version of the same package whose default config changed, for the upgrade.
            dpkg-deb -R '\(deb)' '\(s)/up'
            sed -i 's/^Version: .*/Version: \(version)+test1/' '\(s)/up/DEBIAN/control'
            echo '# a line the newer version added' >> '\(s)/up/etc/aquavate/bridge.toml'
            (cd '\(s)/up' && find . -type f ! -path './DEBIAN/*' -printf '%P\\0' | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
            dpkg-deb --root-owner-group -Znone -b '\(s)/up' '\(s)/up.deb' > /dev/null; say repack $?

            start=$(date +%s)
            debootstrap --variant=minbase '\(codename)' "$R" http://deb.debian.org/debian > '\(s)/debootstrap.log' 2>&1
            say debootstrap $?
            say debootstrap_seconds $(( $(date +%s) - start ))
            [ -x "$R/bin/sh" ] || exit 0
            cp /etc/resolv.conf "$R/etc/resolv.conf"
            # The same sources as this machine (updates and security too): the binary was linked
            # against their libraries.
            if [ -f /etc/apt/sources.list.d/debian.sources ]; then
                cp /etc/apt/sources.list.d/debian.sources "$R/etc/apt/sources.list.d/" && rm -f "$R/etc/apt/sources.list"
            fi
            mount -t proc proc "$R/proc"
            mount -t tmpfs tmpfs "$R/run"
            cp '\(deb)' '\(s)/up.deb' "$R/root/"
            inroot() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

            start=$(date +%s)
            inroot apt-get update > '\(s)/update.log' 2>&1; say update $?
            inroot apt-get install -y --no-install-recommends /root/\(name) > '\(s)/install.log' 2>&1; say install $?
            say install_seconds $(( $(date +%s) - start ))
            say version "$(inroot aquavate-bridge --version)"
            say status "$(inroot dpkg-query -W -f '${Status} ${Version}' aquavate-bridge)"
            say passwd "$(inroot getent passwd aquavate)"
            say groups "$(inroot id -nG aquavate)"
            say config "$(inroot stat -c '%a %U:%G' /etc/aquavate/bridge.toml)"
            say state "$(inroot stat -c '%a %U:%G' /var/lib/aquavate-bridge)"
            say enabled "$(readlink "$R/etc/systemd/system/multi-user.target.wants/aquavate-bridge.service")"
            say files "$(inroot dpkg -L aquavate-bridge | tr '\\n' ' ')"
            say conffiles "$(inroot dpkg-query -W -f '${Conffiles}' aquavate-bridge | cut -d' ' -f2 | tr '\\n' ' ')"
            unit=$(inroot dpkg -L aquavate-bridge | grep '/systemd/system/aquavate-bridge.service$')
            inroot systemd-analyze verify "$unit" > '\(s)/verify.log' 2>&1; say verify $?
            inroot runuser -u aquavate -- aquavate-bridge doctor --service > '\(s)/doctor.log' 2>&1; say doctor $?
            inroot runuser -u aquavate -- aquavate-bridge config set reminders.daily_limit false \\
                --db /var/lib/aquavate-bridge/history.sqlite > /dev/null 2>&1; say history_written $?
            # The first run, on the service's config: this is the local change to the conffile.
            inroot aquavate-bridge setup --yes --config /etc/aquavate/bridge.toml --timezone Europe/Madrid --goal 2100 \\
                > '\(s)/setup.log' 2>&1; say setup $?
            say config_after_setup "$(inroot stat -c '%a %U:%G' /etc/aquavate/bridge.toml)"
            get() { inroot runuser -u aquavate -- aquavate-bridge config get "$1" --config /etc/aquavate/bridge.toml --db /var/lib/aquavate-bridge/history.sqlite 2>&1; }
            say zone_after_setup "$(get timezone)"

            inroot apt-get install -y --reinstall /root/\(name) > '\(s)/reinstall.log' 2>&1; say reinstall $?
            say zone_after_reinstall "$(get timezone)"
            inroot apt-get install -y -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold /root/up.deb \\
                > '\(s)/upgrade.log' 2>&1; say upgrade $?
            say upgraded "$(inroot dpkg-query -W -f '${Version}' aquavate-bridge)"
            say zone_after_upgrade "$(get timezone)"
            say goal_after_upgrade "$(get daily_goal_ml)"
            say stored_after_upgrade "$(get reminders.daily_limit)"
            say etc_after_upgrade "$(ls "$R/etc/aquavate" | tr '\\n' ' ')"
            say config_after_upgrade "$(inroot stat -c '%a %U:%G' /etc/aquavate/bridge.toml)"

            inroot apt-get purge -y aquavate-bridge > '\(s)/purge.log' 2>&1; say purge $?
            say purged_etc "$(ls -d "$R/etc/aquavate" 2>/dev/null)|"
            say purged_history "$(ls "$R/var/lib/aquavate-bridge" 2>/dev/null | tr '\\n' ' ')"
            say purged_user "$(inroot getent passwd aquavate | cut -d: -f1)"
            say purged_enabled "$(ls "$R/etc/systemd/system/multi-user.target.wants" 2>/dev/null | grep -c aquavate)"
            say purged_binary "$(ls "$R/usr/bin/aquavate-bridge" 2>/dev/null)|"

            inroot dpkg -i /root/\(name) > '\(s)/install2.log' 2>&1; say install2 $?
            inroot env AQUAVATE_PURGE_HISTORY=yes dpkg --purge aquavate-bridge > '\(s)/purge2.log' 2>&1; say purge2 $?
            say purged2_history "$(ls -d "$R/var/lib/aquavate-bridge" 2>/dev/null)|"
            """
        let result = try await runTool("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script],
                                       environment: environmentWithoutBuses(), timeout: .seconds(900))
        func value(_ key: String) -> String {
            result.lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) } ?? "(missing)"
        }
        func log(_ name: String) -> String {
            let text = (try? String(contentsOfFile: scratch.file(name), encoding: .utf8)) ?? ""
            return String(text.suffix(3000))
        }
        print("debootstrap: \(value("debootstrap_seconds")) s, apt-get install with dependencies: \(value("install_seconds")) s")
        #expect(result.status == 0, "\(result)")
        #expect(value("repack") == "0", "\(result)")
        try #require(value("debootstrap") == "0", "\(log("debootstrap.log"))")
        try #require(value("install") == "0", "\(log("update.log"))\n\(log("install.log"))")

        // Installed: the files in Debian's places, the user, the state folder, the config's owner.
        #expect(value("version") == version)
        #expect(value("status") == "install ok installed \(version)")
        let passwd = value("passwd").split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        #expect(passwd.count == 7 && passwd[0] == "aquavate" && (Int(passwd[2]) ?? 1000) < 1000, "a system user: \(passwd)")
        if passwd.count == 7 { #expect(passwd[5] == "/var/lib/aquavate-bridge" && passwd[6] == "/usr/sbin/nologin") }
        #expect(value("groups") == "aquavate", "no supplementary group")
        #expect(value("config") == "640 root:aquavate")
        #expect(value("state") == "750 aquavate:aquavate")
        #expect(value("enabled").hasSuffix("/systemd/system/aquavate-bridge.service"), "enabled: \(value("enabled"))")
        let files = Set(value("files").split(separator: " ").map(String.init))
        for file in ["/usr/bin/aquavate-bridge", "/usr/share/dbus-1/system.d/aquavate-bridge.conf", "/etc/aquavate/bridge.toml",
                     "/usr/lib/sysusers.d/aquavate-bridge.conf", "/usr/lib/tmpfiles.d/aquavate-bridge.conf",
                     "/usr/share/man/man1/aquavate-bridge.1.gz", "/usr/share/bash-completion/completions/aquavate-bridge",
                     "/usr/share/zsh/vendor-completions/_aquavate-bridge", "/usr/share/fish/vendor_completions.d/aquavate-bridge.fish",
                     "/usr/share/doc/aquavate-bridge/raspberry-pi.md", "/usr/share/doc/aquavate-bridge/copyright"] {
            #expect(files.contains(file), "\(file) is in the package")
        }
        #expect(files.contains { $0.hasSuffix("/udev/rules.d/90-aquavate-bridge.rules") })
        #expect(files.contains { $0.hasSuffix("/systemd/system/aquavate-bridge.service") })
        #expect(value("conffiles") == "/etc/aquavate/bridge.toml ")
        #expect(value("verify") == "0" && log("verify.log").isEmpty, "systemd-analyze verify: \(log("verify.log"))")
        // doctor runs as the service's user; with no bluetoothd in the root it fails, and says why.
        let doctor = log("doctor.log")
        #expect(value("doctor") == "1", "\(doctor)")
        #expect(doctor.contains("service Type: notify ("), "\(doctor)")
        #expect(doctor.contains("FAIL  system bus:"), "\(doctor)")
        #expect(!doctor.contains("is not installed"), "\(doctor)")
        #expect(value("history_written") == "0")
        #expect(value("setup") == "0", "\(log("setup.log"))")
        #expect(log("setup.log").contains("Next: sudo systemctl restart aquavate-bridge"))
        #expect(value("config_after_setup") == "640 root:aquavate")
        #expect(value("zone_after_setup") == "Europe/Madrid")

        // Over itself, then a newer version: the modified conffile and the history stay.
        #expect(value("reinstall") == "0", "\(log("reinstall.log"))")
        #expect(value("zone_after_reinstall") == "Europe/Madrid")
        #expect(value("upgrade") == "0", "\(log("upgrade.log"))")
        #expect(value("upgraded") == "\(version)+test1")
        #expect(value("zone_after_upgrade") == "Europe/Madrid" && value("goal_after_upgrade") == "2100")
        #expect(value("stored_after_upgrade") == "false", "the history database survives")
        #expect(value("etc_after_upgrade") == "bridge.toml bridge.toml.dpkg-dist ", "the new default beside the kept file")
        #expect(value("config_after_upgrade") == "640 root:aquavate")

        // Purge: config gone, history and user kept, enablement cleaned; with the switch, history gone.
        #expect(value("purge") == "0", "\(log("purge.log"))")
        #expect(value("purged_etc") == "|")
        #expect(value("purged_history").hasPrefix("history.sqlite"), "\(value("purged_history"))")
        #expect(log("purge.log").contains("kept the drink history /var/lib/aquavate-bridge"))
        #expect(value("purged_user") == "aquavate")
        #expect(value("purged_enabled") == "0")
        #expect(value("purged_binary") == "|")
        #expect(value("install2") == "0", "\(log("install2.log"))")
        #expect(value("purge2") == "0", "\(log("purge2.log"))")
        #expect(value("purged2_history") == "|")
    }
}
