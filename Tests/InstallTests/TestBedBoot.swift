// One boot of the real-BlueZ test bed (scripts/real-bluez) for a suite: the script run once, its
// JSON report read, one result per test. RealBlueZTests (run.sh, the scenarios) and
// PackageUnderSystemdTests (package.sh, the package's steps) boot it the same way: a scratch folder
// for the results, the report a failure names, nothing left behind after a clean run.
import BusTestSupport
import Foundation
import Testing

/// A boot's report: the results in the guest's order (`scenarios` of scenarios.py, `steps` of
/// package_scenario.py) and the error that ended it early, if any.
struct TestBedReport: Decodable {
    struct Result: Decodable {
        var name: String
        var checks: String
        var passed: Bool
        var failure: String?
        var seconds: Double
    }

    var results: [Result]
    var error: String?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        results = try container.decodeIfPresent([Result].self, forKey: Key(stringValue: "scenarios"))
            ?? container.decodeIfPresent([Result].self, forKey: Key(stringValue: "steps")) ?? []
        error = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "error"))
    }
}

/// What a boot left: its report, the files of the results folder the suite asked to keep, and the
/// folder (gone after a clean run, kept for a failure to be read).
struct TestBedBoot {
    var report: TestBedReport
    var files: [String: String]
    var folder: String

    /// Boots the test bed with `script` (a path under scripts/real-bluez) and `arguments` (made
    /// in the boot's scratch folder, with `--results` and `--time-limit` added), waiting at most
    /// `limit` for the VM; `report` is the JSON file it writes, `keep` the files read before a
    /// clean run's folder goes. The image is normally made by scripts/test.sh before the targets
    /// run (minutes the first time); the boot itself takes minutes of emulated CPU.
    static func run(_ label: String, script: String, report: String, expected: [String], limit: Int,
                    keep: [String] = [], arguments: (ScratchFolder) async throws -> [String]) async throws -> TestBedBoot {
        let folder = try ScratchFolder(label)
        let results = folder.file("results")
        let run = try await runTool(
            "/bin/bash",
            [repositoryFile("scripts/real-bluez/\(script)")] + (try await arguments(folder))
                + ["--results", results, "--time-limit", "\(limit)"],
            environment: environmentWithoutBuses(), timeout: .seconds(limit + 360))
        let file = "\(results)/\(report)"
        guard let data = FileManager.default.contents(atPath: file) else {
            throw HarnessFailure(description: "the test bed wrote no \(file): \(run)")
        }
        let decoded = try JSONDecoder().decode(TestBedReport.self, from: data)
        if let error = decoded.error { throw HarnessFailure(description: "the test bed failed: \(error) (in \(results))") }
        var files: [String: String] = [:]
        for name in keep { files[name] = try? String(contentsOfFile: "\(results)/\(name)", encoding: .utf8) }
        // The logs and captures stay for a failure to be read; a clean run leaves nothing.
        if run.status == 0 && decoded.results.allSatisfy(\.passed) && decoded.results.map(\.name) == expected { folder.remove() }
        return TestBedBoot(report: decoded, files: files, folder: results)
    }

    /// Asserts that the result `name` is there and passed.
    func check(_ name: String) throws {
        let result = try #require(report.results.first { $0.name == name },
                                  "no result for \(name) in \(folder) (the last one: \(report.results.last.map { "\($0.name): \($0.failure ?? "passed")" } ?? "none ran"))")
        #expect(result.passed, "\(name) (\(result.checks)): \(result.failure ?? "") — logs in \(folder)")
    }
}
