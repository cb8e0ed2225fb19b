// What every start of the bridge maps: libmosquitto (with libssl and libcrypto) and libcurl are
// loaded with dlopen at their first use (CMosquittoLoader, CCurlLoader), so the built executable
// must not need them. Linked, libmosquitto alone cost about 1 ms of CPU and 1.5 MiB per start.

import BusTestSupport
import Foundation
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
}
