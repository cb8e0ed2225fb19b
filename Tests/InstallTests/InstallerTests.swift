// scripts/install.sh and scripts/uninstall.sh (and the Makefile around them), staged into a
// temporary DESTDIR with a dummy binary: every file lands with its mode and content, a second
// run changes nothing and reports no error, a user's config survives, and uninstall removes what
// install put there but keeps the config and the history unless --purge.
import BusTestSupport
import Foundation
@testable import Settings
import Testing

private let installScript = repositoryFile("scripts/install.sh")
private let uninstallScript = repositoryFile("scripts/uninstall.sh")

/// Every file and folder under `root`: relative path → mode and content (base64), or mode and "dir".
private func snapshot(_ root: String) throws -> [String: String] {
    var result: [String: String] = [:]
    let enumerator = try #require(FileManager.default.enumerator(atPath: root))
    while let relative = enumerator.nextObject() as? String {
        let path = root + "/" + relative
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let mode = String((attributes[.posixPermissions] as? Int) ?? -1, radix: 8)
        if attributes[.type] as? FileAttributeType == .typeDirectory {
            result[relative] = "\(mode) dir"
        } else {
            result[relative] = "\(mode) " + (try Data(contentsOf: URL(fileURLWithPath: path))).base64EncodedString()
        }
    }
    return result
}

private func mode(_ path: String) throws -> Int {
    try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
}

private func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

/// A dummy binary and an empty staging root.
private struct Stage {
    let scratch: ScratchFolder
    let binary: String
    let root: String

    init() throws {
        scratch = try ScratchFolder("install")
        binary = try scratch.write("#!/bin/sh\necho dummy aquavate-bridge\n", to: "aquavate-bridge")
        root = scratch.file("root")
    }

    /// Folder of stand-ins for the tools a staged install must never run (they log their calls).
    var shims: String { scratch.file("shims") }
    var shimLog: String { scratch.file("shims.log") }

    /// The environment with the stand-ins first on the PATH.
    func environment() throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: shims, withIntermediateDirectories: true)
        for tool in ["useradd", "groupadd", "usermod", "userdel", "chown", "systemctl", "udevadm"] {
            let path = "\(shims)/\(tool)"
            try "#!/bin/sh\necho \"\(tool) $*\" >> '\(shimLog)'\n".write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o755)
        }
        var environment = environmentWithoutBuses()
        environment["PATH"] = shims + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return environment
    }

    /// What the stand-ins were asked to do (empty: nothing outside DESTDIR was touched).
    var systemCalls: String { (try? String(contentsOfFile: shimLog, encoding: .utf8)) ?? "" }

    func install(_ extra: [String] = []) async throws -> ToolResult {
        try await runTool("/bin/bash", [installScript, "--no-build", "BIN=\(binary)", "DESTDIR=\(root)"] + extra,
                          environment: try environment())
    }

    func uninstall(_ extra: [String] = []) async throws -> ToolResult {
        try await runTool("/bin/bash", [uninstallScript, "DESTDIR=\(root)"] + extra, environment: try environment())
    }
}

@Suite("installer")
struct InstallerTests {
    @Test("install into DESTDIR: every file with its mode and content; a second run is identical and error-free")
    func installTwice() async throws {
        let stage = try Stage()
        defer { stage.scratch.remove() }
        let first = try await stage.install()
        #expect(first.status == 0 && first.error.isEmpty, "\(first)")
        #expect(first.output.contains("wrote the default \(stage.root)/etc/aquavate/bridge.toml"))
        let files: [(String, Int, String?)] = [
            ("usr/local/bin/aquavate-bridge", 0o755, stage.binary),
            ("etc/systemd/system/aquavate-bridge.service", 0o644, repositoryFile("systemd/aquavate-bridge.service")),
            ("etc/udev/rules.d/90-aquavate-bridge.rules", 0o644, repositoryFile("udev/90-aquavate-bridge.rules")),
            ("etc/dbus-1/system.d/aquavate-bridge.conf", 0o644, repositoryFile("dbus/aquavate-bridge.conf")),
            ("usr/local/share/doc/aquavate-bridge/raspberry-pi.md", 0o644, repositoryFile("docs/raspberry-pi.md")),
            ("etc/aquavate/bridge.toml", 0o640, nil),
        ]
        for (relative, expectedMode, source) in files {
            let path = "\(stage.root)/\(relative)"
            #expect(FileManager.default.fileExists(atPath: path), "\(relative) missing")
            let actualMode = try mode(path)
            #expect(actualMode == expectedMode, "\(relative): mode \(String(actualMode, radix: 8))")
            if let source {
                let installed = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(installed == (try Data(contentsOf: URL(fileURLWithPath: source))), "\(relative) differs from \(source)")
            }
        }
        let before = try snapshot(stage.root)
        let installedFiles = Set(before.filter { !$0.value.hasSuffix(" dir") }.keys)
        #expect(installedFiles == Set(files.map(\.0)), "exactly these files: \(installedFiles.sorted())")

        let second = try await stage.install()
        #expect(second.status == 0 && second.error.isEmpty, "\(second)")
        #expect(second.output.contains("kept the existing \(stage.root)/etc/aquavate/bridge.toml"))
        #expect(try snapshot(stage.root) == before, "a second run must give the same files")
        #expect(stage.systemCalls.isEmpty, "a staged install creates no user and touches no service: \(stage.systemCalls)")
    }

    @Test("the default config loads cleanly, turns desktop notifications off, and is never overwritten")
    func configIsKept() async throws {
        let stage = try Stage()
        defer { stage.scratch.remove() }
        #expect(try await stage.install().status == 0)
        let config = "\(stage.root)/etc/aquavate/bridge.toml"
        let loaded = try Configuration.load(file: config, mustExist: true)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings)")
        #expect(loaded.value("desktop.enabled") == "false")
        #expect(loaded.value("mqtt.url") == nil && loaded.value("push.url") == nil)

        let mine = "[mqtt]\nurl = \"mqtt://homeassistant.local:1883\"\n"
        try mine.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o600)
        let again = try await stage.install()
        #expect(again.status == 0, "\(again)")
        #expect(try text(config) == mine)
        #expect(try mode(config) == 0o600, "the user's permissions stay too")
    }

    @Test("PREFIX=/usr puts the binary in /usr/bin and the unit's ExecStart follows")
    func prefix() async throws {
        let stage = try Stage()
        defer { stage.scratch.remove() }
        let result = try await stage.install(["PREFIX=/usr"])
        #expect(result.status == 0, "\(result)")
        #expect(FileManager.default.isExecutableFile(atPath: "\(stage.root)/usr/bin/aquavate-bridge"))
        let unit = try text("\(stage.root)/etc/systemd/system/aquavate-bridge.service")
        #expect(unit.contains("\nExecStart=/usr/bin/aquavate-bridge run --config /etc/aquavate/bridge.toml --db /var/lib/aquavate-bridge/history.sqlite\n"))
        #expect(unit.contains("Documentation=file:/usr/share/doc/aquavate-bridge/raspberry-pi.md"))
        #expect(!unit.contains("/usr/local"))
    }

    @Test("uninstall removes what install put there, keeps config and history; twice is fine; --purge removes them")
    func uninstall() async throws {
        let stage = try Stage()
        defer { stage.scratch.remove() }
        #expect(try await stage.install().status == 0)
        let history = "\(stage.root)/var/lib/aquavate-bridge/history.sqlite"
        try FileManager.default.createDirectory(atPath: (history as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "drinks".write(toFile: history, atomically: true, encoding: .utf8)

        for _ in 0..<2 {
            let result = try await stage.uninstall()
            #expect(result.status == 0 && result.error.isEmpty, "\(result)")
            let files = try FileManager.default.subpathsOfDirectory(atPath: stage.root).filter {
                (try? FileManager.default.attributesOfItem(atPath: "\(stage.root)/\($0)")[.type] as? FileAttributeType) == .typeRegular
            }
            #expect(Set(files) == ["etc/aquavate/bridge.toml", "var/lib/aquavate-bridge/history.sqlite"])
        }
        #expect(!FileManager.default.fileExists(atPath: "\(stage.root)/usr/local/share/doc/aquavate-bridge"))

        let purge = try await stage.uninstall(["--purge"])
        #expect(purge.status == 0, "\(purge)")
        #expect(stage.systemCalls.isEmpty, "a staged uninstall deletes no user and touches no service: \(stage.systemCalls)")
        #expect(!FileManager.default.fileExists(atPath: "\(stage.root)/etc/aquavate"))
        #expect(!FileManager.default.fileExists(atPath: "\(stage.root)/var/lib/aquavate-bridge"))
    }

    @Test("refusals, one line each: no root without DESTDIR, no build as root, unknown argument, relative DESTDIR, missing binary")
    func refusals() async throws {
        let stage = try Stage()
        defer { stage.scratch.remove() }
        if runningAsRoot {
            let asNobody = try await runTool("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                                                                  "/bin/bash", installScript, "--no-build", "BIN=\(stage.binary)"],
                                             environment: environmentWithoutBuses())
            #expect(asNobody.status == 1)
            #expect(asNobody.error == "install.sh: installing into the system needs root: run it with sudo (or set DESTDIR=/some/folder to stage the files)\n")
            let uninstallAsNobody = try await runTool("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                                                                           "/bin/bash", uninstallScript], environment: environmentWithoutBuses())
            #expect(uninstallAsNobody.status == 1 && uninstallAsNobody.error.contains("needs root"))
        }
        if runningAsRoot {
            // The build is refused as root, in one line, before anything is written.
            let build = try await runTool("/bin/bash", [installScript, "DESTDIR=\(stage.root)"], environment: try stage.environment())
            #expect(build.status == 1)
            #expect(build.error == "install.sh: will not build as root: build as yourself first (make build), "
                    + "then install with sudo make install (or pass --build-as-root)\n")
            #expect(!FileManager.default.fileExists(atPath: stage.root), "a refused install writes nothing")
            // Anyone else may build (here: swift is not on nobody's PATH, so it stops right after the check).
            let asNobody = try await runTool("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                                                                  "/usr/bin/env", "PATH=/usr/bin:/bin", "/bin/bash", installScript,
                                                                  "DESTDIR=\(stage.scratch.file("nobody-root"))"],
                                             environment: environmentWithoutBuses())
            #expect(asNobody.status == 1 && asNobody.error.contains("swift is not on the PATH"), "\(asNobody)")
        }
        let unknown = try await stage.install(["--frobnicate"])
        #expect(unknown.status == 1 && unknown.error == "install.sh: unknown argument '--frobnicate'; see --help\n")
        let relative = try await runTool("/bin/bash", [installScript, "--no-build", "BIN=\(stage.binary)", "DESTDIR=stage"])
        #expect(relative.status == 1 && relative.error.contains("DESTDIR must be an absolute path"))
        let missing = try await runTool("/bin/bash", [installScript, "BIN=\(stage.scratch.file("nothing"))", "DESTDIR=\(stage.root)"])
        #expect(missing.status == 1 && missing.error.contains("no binary at \(stage.scratch.file("nothing"))"))
        #expect(!FileManager.default.fileExists(atPath: stage.root), "a refused install writes nothing")
    }

    @Test("make install / uninstall pass PREFIX, DESTDIR and BIN through; make install without a build says what to do")
    func makefile() async throws {
        let stage = try Stage()
        defer { stage.scratch.remove() }
        let install = try await runTool("/usr/bin/make", ["-s", "install", "DESTDIR=\(stage.root)", "BIN=\(stage.binary)", "PREFIX=/opt/aq"],
                                        environment: environmentWithoutBuses(), directory: repositoryRoot.path)
        #expect(install.status == 0, "\(install)")
        #expect(FileManager.default.isExecutableFile(atPath: "\(stage.root)/opt/aq/bin/aquavate-bridge"))
        let uninstall = try await runTool("/usr/bin/make", ["-s", "uninstall", "DESTDIR=\(stage.root)", "PREFIX=/opt/aq", "PURGE=1"],
                                          environment: environmentWithoutBuses(), directory: repositoryRoot.path)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(!FileManager.default.fileExists(atPath: "\(stage.root)/opt/aq/bin/aquavate-bridge"))
        #expect(!FileManager.default.fileExists(atPath: "\(stage.root)/etc/aquavate"))

        let unbuilt = try await runTool("/usr/bin/make", ["-s", "install", "DESTDIR=\(stage.root)", "SCRATCH=\(stage.scratch.file("none"))"],
                                        environment: environmentWithoutBuses(), directory: repositoryRoot.path)
        #expect(unbuilt.status != 0 && unbuilt.output.contains("run 'make build' first"), "\(unbuilt)")
        let dryRun = try await runTool("/usr/bin/make", ["-n", "build", "test"], directory: repositoryRoot.path)
        // The release build is scripts/release-build.sh's (the link options of docs/performance.md).
        #expect(dryRun.lines == ["scripts/release-build.sh --scratch-path .build", "swift test"], "\(dryRun)")
    }
}
