// Simulated days for the long-term statistics check. Home Assistant compiles its statistics from
// what it recorded, in 5-minute periods that have ended by its own wall clock, and a day's
// statistics need that day to have passed. Two real days do not fit in a test, so the processes
// of one simulated day — Home Assistant, the bridge, the simulated bottle, the command line —
// run with the wall clock whole days ahead: DaysAhead/days-ahead.c, preloaded. Only the wall
// clock moves; time-outs, back-offs and sleeps run on the monotonic clock as usual. Restarting
// Home Assistant a day later is what a real one does after a night off: at its start it compiles
// every 5-minute period it missed since its last run.

import BusTestSupport
import Foundation

enum FakeDays {
    /// `base` with the wall clock `days` whole days ahead of the real one.
    static func environment(_ base: [String: String], days: Int) async throws -> [String: String] {
        var environment = base
        environment["LD_PRELOAD"] = try await library()
        environment["AQUAVATE_DAYS_AHEAD"] = String(days)
        return environment
    }

    /// The preload library, compiled once per test process with the toolchain's clang.
    static func library() async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("aquavate-days-ahead-\(getpid()).so").path
        if FileManager.default.fileExists(atPath: output) { return output }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("DaysAhead/days-ahead.c").path
        // glibc's versions of the three functions: the first version of the architecture (2.2.5 on
        // x86-64, 2.17 on arm64), and 2.17 for clock_gettime, which moved from librt then.
        #if arch(x86_64)
        let script = "GLIBC_2.2.5 { global: gettimeofday; time; local: *; };\nGLIBC_2.17 { global: clock_gettime; } GLIBC_2.2.5;\n"
        #else
        let script = "GLIBC_2.17 { global: clock_gettime; gettimeofday; time; local: *; };\n"
        #endif
        let versions = output + ".map"
        try Data(script.utf8).write(to: URL(fileURLWithPath: versions))
        let compiler = ["/opt/swift/usr/bin/clang", "/usr/bin/clang", "/usr/bin/cc"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "clang"
        let result = try await runTool("/usr/bin/env", [compiler, "-shared", "-fPIC", "-O2", "-Wl,--version-script=\(versions)", "-o", output, source, "-ldl"],
                                       timeout: .seconds(60))
        guard result.status == 0, FileManager.default.fileExists(atPath: output) else {
            throw HomeAssistantFailure(description: "could not compile \(source) (the Swift toolchain's clang): \(result)")
        }
        return output
    }
}
