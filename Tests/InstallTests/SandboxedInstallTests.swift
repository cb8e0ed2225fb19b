// The real install (no DESTDIR) run end to end as root, in a private mount namespace: /etc is a
// copy, /usr/local, /var and /run are empty, so useradd, chown and the installer write only there
// and the machine is untouched. systemd and udev do not run here (no /run/systemd/system, no
// /run/udev), so the installer's activation steps say so instead of running.
import BusTestSupport
import Foundation
import Testing

@Suite("installer, real install in a sandbox")
struct SandboxedInstallTests {
    @Test("creates the system user aquavate (no supplementary group), installs root:aquavate 0640 config, is idempotent, uninstalls and purges")
    func realInstall() async throws {
        try requireRoot("the sandboxed real install")
        let scratch = try ScratchFolder("sandbox")
        defer { scratch.remove() }
        let binary = try scratch.write("#!/bin/sh\necho dummy\n", to: "aquavate-bridge")
        chmod(binary, 0o755)
        let s = scratch.path
        let install = repositoryFile("scripts/install.sh"), uninstall = repositoryFile("scripts/uninstall.sh")
        let script = """
            set -e
            # Other tests add and remove users meanwhile: their lock files (passwd.lock, passwd+)
            # may vanish during the copy. Such a file missing from the copy is harmless.
            cp -a /etc '\(s)/etc' 2>/dev/null || true
            test -f '\(s)/etc/passwd'
            mkdir '\(s)/usrlocal'
            mount --bind '\(s)/etc' /etc
            mount --bind '\(s)/usrlocal' /usr/local
            mount -t tmpfs tmpfs /var
            mount -t tmpfs tmpfs /run
            # Start from no aquavate user or group, whatever the copied /etc holds: the D-Bus policy
            # tests create and delete a real aquavate user meanwhile, and the copy may catch
            # /etc/group with its group but /etc/passwd without the user.
            if getent passwd aquavate >/dev/null; then userdel aquavate; fi
            if getent group aquavate >/dev/null; then groupdel aquavate; fi
            set +e
            bash '\(install)' --no-build BIN='\(binary)' > '\(s)/install1' 2>&1; echo "install1=$?"
            bash '\(install)' --no-build BIN='\(binary)' > '\(s)/install2' 2>&1; echo "install2=$?"
            echo "passwd=$(getent passwd aquavate)"
            echo "groups=$(id -nG aquavate)"
            echo "config=$(stat -c '%a %U:%G' /etc/aquavate/bridge.toml)"
            echo "binary=$(stat -c '%a %U:%G' /usr/local/bin/aquavate-bridge)"
            echo "unit=$(stat -c '%a' /etc/systemd/system/aquavate-bridge.service)"
            bash '\(uninstall)' > '\(s)/uninstall1' 2>&1; echo "uninstall1=$?"
            echo "after-uninstall=$(getent passwd aquavate | cut -d: -f1) $(ls /etc/aquavate) $(ls /usr/local/bin)"
            bash '\(uninstall)' --purge > '\(s)/uninstall2' 2>&1; echo "uninstall2=$?"
            echo "after-purge=$(getent passwd aquavate | cut -d: -f1)|$(ls -d /etc/aquavate 2>/dev/null)"
            """
        let result = try await runTool("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script])
        func value(_ key: String) -> String? {
            result.lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        func log(_ name: String) -> String { (try? String(contentsOfFile: "\(s)/\(name)", encoding: .utf8)) ?? "" }
        #expect(result.status == 0, "\(result)")
        #expect(value("install1") == "0", "\(log("install1"))")
        #expect(log("install1").contains("created the system user aquavate (group: aquavate)"))
        #expect(log("install1").contains("systemd is not running here: enable the service later"))
        #expect(value("install2") == "0", "\(log("install2"))")
        #expect(log("install2").contains("kept the existing /etc/aquavate/bridge.toml"))
        #expect(!log("install2").contains("created the system user"))

        let passwd = try #require(value("passwd")).split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        #expect(passwd.count == 7 && passwd[0] == "aquavate", "\(passwd)")
        if passwd.count == 7 {
            #expect((Int(passwd[2]) ?? 1000) < 1000, "a system user")
            #expect(passwd[5] == "/var/lib/aquavate-bridge" && passwd[6] == "/usr/sbin/nologin")
        }
        // The D-Bus policy names the user; the bluetooth group is for people only.
        #expect(Set(value("groups")?.split(separator: " ").map(String.init) ?? []) == ["aquavate"])
        #expect(value("config") == "640 root:aquavate")
        #expect(value("binary") == "755 root:root")
        #expect(value("unit") == "644")

        #expect(value("uninstall1") == "0", "\(log("uninstall1"))")
        #expect(value("after-uninstall") == "aquavate bridge.toml ", "user and config kept, binary gone")
        #expect(value("uninstall2") == "0", "\(log("uninstall2"))")
        #expect(value("after-purge") == "|", "user and config purged")

        // The machine's own /usr/local was never written.
        #expect(!FileManager.default.fileExists(atPath: "/usr/local/bin/aquavate-bridge"))
    }
    @Test("an existing aquavate account that is not a system account is refused in one line, and nothing is installed")
    func refusesAPersonsAccount() async throws {
        try requireRoot("the sandboxed real install")
        let scratch = try ScratchFolder("sandbox-person")
        defer { scratch.remove() }
        let binary = try scratch.write("#!/bin/sh\necho dummy\n", to: "aquavate-bridge")
        chmod(binary, 0o755)
        let s = scratch.path
        let install = repositoryFile("scripts/install.sh")
        let script = """
            set -e
            cp -a /etc '\(s)/etc' 2>/dev/null || true
            test -f '\(s)/etc/passwd'
            mkdir '\(s)/usrlocal'
            mount --bind '\(s)/etc' /etc
            mount --bind '\(s)/usrlocal' /usr/local
            mount -t tmpfs tmpfs /var
            mount -t tmpfs tmpfs /run
            if getent passwd aquavate >/dev/null; then userdel aquavate; fi
            if getent group aquavate >/dev/null; then groupdel aquavate; fi
            # A person's account that happens to be called aquavate.
            useradd --uid 4242 --user-group --shell /bin/bash aquavate
            set +e
            bash '\(install)' --no-build BIN='\(binary)' > '\(s)/install.out' 2> '\(s)/install.err'; echo "install=$?"
            echo "binary=$(ls /usr/local/bin 2>/dev/null)|"
            echo "groups=$(id -nG aquavate)"
            """
        let result = try await runTool("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script])
        func value(_ key: String) -> String? {
            result.lines.first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
        }
        let error = (try? String(contentsOfFile: "\(s)/install.err", encoding: .utf8)) ?? ""
        #expect(result.status == 0, "\(result)")
        #expect(value("install") == "1", "\(error)")
        #expect(error.hasPrefix("install.sh: a user named aquavate already exists and is not a system account (UID 4242 > "), "\(error)")
        #expect(error.split(separator: "\n").count == 1, "one line: \(error)")
        #expect(value("binary") == "|", "nothing installed")
        #expect(value("groups") == "aquavate", "the account was not changed")
    }
}
