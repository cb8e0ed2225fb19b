// A run of `aquavate-bridge` measured by GNU time: its CPU seconds and peak resident memory, so
// liveness tests can bound them (a spinning loop burns a core; a runaway grows 100 MB a second).

import BusTestSupport
import Foundation
import TestFixtures

struct MeasuredRun {
    var result: ToolResult
    /// User + system CPU seconds; nil when GNU time gave no figures.
    var cpuSeconds: Double?
    /// Peak resident memory, KiB.
    var peakKiB: Double?

    /// `aquavate-bridge ARGUMENTS` with `environment`, to completion (a hang throws).
    static func bridge(_ arguments: [String], environment: [String: String], folder: TemporaryFolder,
                       timeout: Duration = .seconds(60)) async throws -> MeasuredRun {
        let usage = folder.path + "/usage-\(UUID().uuidString).txt"
        let result = try await runTool("/usr/bin/time", ["-f", "%U %S %M", "-o", usage, LiveCommandTests.bridge] + arguments,
                                       environment: environment, timeout: timeout)
        // The figures are the last line (a failed command's status line comes before them).
        let figures = ((try? String(contentsOfFile: usage, encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isNewline).last.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        guard figures.count == 3 else { return MeasuredRun(result: result) }
        return MeasuredRun(result: result, cpuSeconds: figures[0] + figures[1], peakKiB: figures[2])
    }
}
