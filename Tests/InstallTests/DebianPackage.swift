// The Debian package under test. scripts/test.sh runs `make deb` before the tests and passes the
// package's path in AQUAVATE_DEB. Without it (a test target run alone), the package is built
// here once per test process, with `make deb` in its own scratch folder .build-deb: `swift test`
// holds the lock on .build while the tests run, so a build there would wait forever. That first
// build is a whole release build (minutes).
import BusTestSupport
import Foundation
import Testing

enum DebianPackage {
    static let scratch = ".build-deb"

    /// The path of the built .deb, or the build's failure.
    static let built: Task<String, any Error> = Task {
        if let given = ProcessInfo.processInfo.environment["AQUAVATE_DEB"], !given.isEmpty {
            guard FileManager.default.fileExists(atPath: given) else {
                throw HarnessFailure(description: "AQUAVATE_DEB=\(given) does not exist")
            }
            return given
        }
        // --no-print-directory: with -C, make ends with "Leaving directory …", and the package's
        // path is the line before it.
        let result = try await runTool("/usr/bin/make", ["--no-print-directory", "-C", repositoryRoot.path, "deb", "SCRATCH=\(scratch)", "DIST=\(scratch)/dist"],
                                       environment: environmentWithoutBuses(), timeout: .seconds(1500))
        guard result.status == 0, let last = result.lines.last, last.hasSuffix(".deb") else {
            throw HarnessFailure(description: "make deb failed: \(result)")
        }
        return last
    }

    /// The version the package must carry: the one the built binary prints.
    static func expectedVersion() async throws -> String {
        try await runTool(bridgeBinary, ["--version"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
