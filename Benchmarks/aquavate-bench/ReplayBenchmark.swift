// Replay of a capture holding 1,000,000 records (docs/design.md 5, issue "Foundation"): wall time
// and peak memory. The capture is generated here, written with CaptureWriter, then streamed.
// Memory must not grow with the capture's size beyond the database itself, so the benchmark
// replays a tenth of it first and compares the peaks.

import AquavateCapture
import Timekeeping
import AquavateProtocol
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
        generate(path: small, records: total / 10)
        generate(path: large, records: total)
        let sizeMiB = Double((try? FileManager.default.attributesOfItem(atPath: large)[.size] as? Int) ?? 0) / 1_048_576

        let baseline = Measure.residentMiB()
        let (smallSeconds, smallRecords, smallPeak) = replay(small, database: folder + "/small.sqlite")
        let (largeSeconds, largeRecords, largePeak) = replay(large, database: folder + "/large.sqlite")
        print(String(format: "replay: %d records (%.0f MiB capture) in %.1f s = %.0f records/s", largeRecords, sizeMiB, largeSeconds, Double(largeRecords) / largeSeconds))
        print(String(format: "replay: %d records in %.1f s", smallRecords, smallSeconds))
        print(String(format: "replay: resident before %.0f MiB; peak after the 1/10 replay %.0f MiB; after the full replay %.0f MiB", baseline, smallPeak, largePeak))
    }

    /// Writes a capture of `records` drinks: syncs of 600 records in chunks of 17, as the live
    /// bridge records them (START, chunk, ACK, …, forced Current State, disconnect).
    static func generate(path: String, records: Int) {
        let header = CaptureHeader(version: 1, created: "2026-11-21T00:00:00Z", source: "aquavate-bench",
                                   deviceName: "Aquavate-BEEF", deviceAddress: "F4:12:FA:00:BE:EF", mtu: 247)
        guard let writer = try? CaptureWriter(path: path, header: header) else {
            print("replay: cannot write \(path)"); exit(1)
        }
        var random = SeededGenerator(seed: 1)
        var t = 1_600_000_000.0
        var id: UInt32 = 1
        var remaining = records
        while remaining > 0 {
            let batch = min(600, remaining)
            try? writer.write(.connect(at: WallInstant(secondsSince1970: t)))
            t += 0.1
            try? writer.write(.write(at: WallInstant(secondsSince1970: t), .syncControl, value: SyncControl.start(count: batch, chunkSize: 17).encoded()))
            let chunks = (batch + 16) / 17
            for index in 0..<chunks {
                let count = min(17, batch - index * 17)
                var list: [DrinkRecord] = []
                for _ in 0..<count {
                    list.append(DrinkRecord(recordID: id, timestamp: UInt32(1_600_000_000 + Int(id) * 300),
                                            amountML: Int16.random(in: 30...300, using: &random), bottleLevelML: 400,
                                            typeRaw: 0, flagsRaw: 0))
                    id += 1
                }
                t += 0.03
                try? writer.write(.notify(at: WallInstant(secondsSince1970: t), .drinkData,
                                          value: DrinkDataChunk(chunkIndex: UInt16(index), totalChunks: UInt16(chunks), records: list).encoded()))
                t += 0.005
                try? writer.write(.write(at: WallInstant(secondsSince1970: t), .syncControl, value: SyncControl.ack.encoded()))
            }
            t += 0.2
            try? writer.write(.disconnect(at: WallInstant(secondsSince1970: t), reason: "local"))
            t += 3600
            remaining -= batch
        }
        writer.close()
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
