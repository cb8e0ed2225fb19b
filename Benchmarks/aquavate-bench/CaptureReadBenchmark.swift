// Reading a capture alone (docs/design.md 3.3), without the replay behind it: how fast
// CaptureReader turns lines into events, so the JSON reader's cost is seen apart from the
// decoder's and the database's. The capture is the replay benchmark's (CaptureGenerator).

import AquavateCapture
import Foundation

enum CaptureReadBenchmark {
    static func run(_ options: [String]) {
        var records = 1_000_000
        if let index = options.firstIndex(of: "--records"), index + 1 < options.count, let n = Int(options[index + 1]) {
            records = n
        }
        let runs = 5
        let folder = NSTemporaryDirectory() + "aquavate-capture-read-bench-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/capture.aqcap"
        CaptureGenerator.generate(path: path, records: records)
        let sizeMiB = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576

        var best = Double.infinity
        var lines = 0
        for _ in 0..<runs {
            guard let reader = try? CaptureReader(path: path) else { print("capture-read: cannot read \(path)"); exit(1) }
            let start = Measure.now()
            var count = 0
            for item in reader {
                if case .error(let error) = item { print("capture-read: \(error)"); exit(1) }
                count += 1
            }
            best = min(best, Measure.now() - start)
            lines = count
        }
        print(String(format: "capture-read: %d lines (%.0f MiB, %d records) in %.2f s = %.0f lines/s, %.0f MiB/s (best of %d)",
                     lines, sizeMiB, records, best, Double(lines) / best, sizeMiB / best, runs))
    }
}
