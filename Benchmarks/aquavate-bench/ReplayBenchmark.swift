// Replay of a capture holding 1,000,000 records (docs/design.md 5, issue "Foundation"): wall time
// and peak memory. The capture is generated (CaptureGenerator), written with CaptureWriter, then streamed.
// Memory must not grow with the capture's size beyond the database itself, so the benchmark
// replays a tenth of it first and compares the peaks.

import Foundation
import History
import Ingest
import Logging
import Settings

enum ReplayBenchmark {
    static func run(_ options: [String]) {
        var total = 1_000_000
        if let index = options.firstIndex(of: "--records"), index + 1 < options.count, let n = Int(options[index + 1]) {
            total = n
        }
        let folder = NSTemporaryDirectory() + "aquavate-replay-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let small = folder + "/small.aqcap", large = folder + "/large.aqcap"
        CaptureGenerator.generate(path: small, records: total / 10)
        CaptureGenerator.generate(path: large, records: total)
        let sizeMiB = Double((try? FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) ?? 0) / 1_048_576

        let baseline = Measure.residentMiB()
        let (smallSeconds, smallRecords, smallPeak) = replay(small, database: folder + "/small.sqlite")
        let (largeSeconds, largeRecords, largePeak) = replay(large, database: folder + "/large.sqlite")
        print(String(format: "replay: %d records (%.0f MiB capture) in %.1f s = %.0f records/s", largeRecords, sizeMiB, largeSeconds, Double(largeRecords) / largeSeconds))
        print(String(format: "replay: %d records in %.1f s", smallRecords, smallSeconds))
        print(String(format: "replay: resident before %.0f MiB; peak after the 1/10 replay %.0f MiB; after the full replay %.0f MiB", baseline, smallPeak, largePeak))
    }

    static func replay(_ path: String, database: String) -> (Double, Int, Double) {
        let logger = Logger(label: "bench") { _ in SwiftLogNoOpLogHandler() }
        guard let history = try? DrinkHistory(path: database, durability: .normal) else {
            print("replay: cannot open \(database)"); exit(1)
        }
        var configuration = Configuration()
        try? configuration.applyOverride("timezone=UTC")
        let counter = Counter()
        let replayer = Replayer(history: history, configuration: configuration, logger: logger) { event in
            if case .drink = event { counter.value += 1 }
        }
        let start = Measure.now()
        replayer.replay(path: path)
        replayer.finish()
        return (Measure.now() - start, counter.value, Measure.peakResidentMiB())
    }

    final class Counter: @unchecked Sendable { var value = 0 }
}
