// What every start of the bridge maps: libmosquitto (with libssl and libcrypto) and libcurl are
// loaded with dlopen at their first use (CMosquittoLoader, CCurlLoader), so the built executable
// must not need them. Linked, libmosquitto alone cost about 1 ms of CPU and 1.5 MiB per start.

import BusTestSupport
import Foundation
import MQTT
import Sinks
import TestFixtures
import Testing

@Suite("libraries of a start of the bridge")
struct StartupLibrariesTests {
    static let bridge = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("aquavate-bridge").path
    static let loadedAtFirstUse = ["libmosquitto", "libssl", "libcrypto", "libcurl"]

    @Test("the executable's DT_NEEDED names none of the libraries loaded at first use")
    func neededLibraries() async throws {
        let dynamic = try await runTool("/usr/bin/readelf", ["--dynamic", "--wide", Self.bridge])
        #expect(dynamic.status == 0, "\(dynamic)")
        let needed = dynamic.lines.filter { $0.contains("(NEEDED)") }
        // Still linked as before: proof that the list was read.
        #expect(needed.contains { $0.contains("[libdbus-1.so.3]") }, "\(dynamic)")
        for library in Self.loadedAtFirstUse {
            #expect(!needed.contains { $0.contains("[\(library)") }, "\(library) in \(needed)")
        }
    }

    @Test("nor does any library it links bring them (ldd)")
    func loadedLibraries() async throws {
        let loaded = try await runTool("/usr/bin/ldd", [Self.bridge])
        #expect(loaded.status == 0, "\(loaded)")
        #expect(loaded.lines.contains { $0.contains("libdbus-1.so.3") }, "\(loaded)")
        for library in Self.loadedAtFirstUse {
            #expect(!loaded.lines.contains { $0.contains(library) }, "\(library) in \(loaded)")
        }
    }

    @Test("without libmosquitto the bridge says so in one line (doctor) and runs its other checks")
    func withoutLibmosquitto() async throws {
        // The file this machine loads for libmosquitto.so.1, as the test process mapped it.
        #expect(MosquittoLibrary.problem == nil)
        // Read to its end (its size says 0).
        let maps = String(decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/maps")).readDataToEndOfFile(), as: UTF8.self)
        let library = try #require(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
            .first { $0.contains("/libmosquitto.so") })
        let folder = TemporaryFolder()
        let config = "\(folder.path)/bridge.toml"
        try "[mqtt]\nurl = \"mqtt://127.0.0.1:1\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        // The library replaced by an empty file, in a user and mount namespace of the bridge's own
        // (no root needed).
        let result = try await runTool("/usr/bin/unshare", [
            "--map-root-user", "--mount", "/bin/sh", "-c", "mount --bind /dev/null \"$1\" && exec \"$2\" doctor --config \"$3\" --db \"$4\"",
            "sh", library, Self.bridge, config, "\(folder.path)/history.sqlite",
        ])
        let missing = result.lines.filter { $0.contains("libmosquitto") }
        #expect(missing.count == 1, "\(result)")
        #expect(missing.first?.hasPrefix("FAIL  mqtt: libmosquitto.so.1 could not be loaded (") == true, "\(result)")
        #expect(missing.first?.hasSuffix("file too short): install the libmosquitto1 package; fix: sudo apt-get install libmosquitto1") == true,
                "\(result)")
        // The other checks still ran: the broker's finding comes from a plain TCP connect.
        #expect(result.lines.contains { $0.hasPrefix("FAIL  mqtt: cannot reach the broker 127.0.0.1:1") }, "\(result)")
    }
}
