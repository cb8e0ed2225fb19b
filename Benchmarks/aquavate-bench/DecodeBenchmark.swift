// Drink Data chunk decoding: records per second, side by side with a Python struct decoder
// of the same bytes (docs/design.md 5: budget ≥ 50×).

import AquavateProtocol
import Foundation
import ProcessSupport

enum DecodeBenchmark {
    static func run(_ options: [String]) async {
        let chunkCount = 60_000 // 1,020,000 records in chunks of 17
        var random = SeededGenerator(seed: 50)
        var chunks: [[UInt8]] = []
        chunks.reserveCapacity(chunkCount)
        var id: UInt32 = 1
        for index in 0..<chunkCount {
            var records: [DrinkRecord] = []
            for _ in 0..<17 {
                records.append(DrinkRecord(recordID: id, timestamp: 1_790_000_000 + id * 600,
                                           amountML: Int16.random(in: 30...400, using: &random),
                                           bottleLevelML: Int16.random(in: -4...830, using: &random),
                                           typeRaw: UInt8.random(in: 0...1, using: &random), flagsRaw: 0))
                id += 1
            }
            chunks.append(DrinkDataChunk(chunkIndex: UInt16(index % 36), totalChunks: 36, records: records).encoded())
        }

        // Swift, as replay and the live session decode: one DrinkDataChunk per value.
        var checksum: UInt64 = 0
        let (decoded, chunkSeconds) = bestOfFive {
            var count = 0
            for bytes in chunks {
                guard let chunk = try? DrinkDataChunk(decoding: bytes) else { continue }
                count += chunk.records.count
                checksum &+= UInt64(chunk.records[chunk.records.count - 1].recordID)
            }
            return count
        }
        // Swift, the fast path: records appended to one reused buffer.
        var buffer: [DrinkRecord] = []
        let (_, bufferSeconds) = bestOfFive {
            var count = 0
            for bytes in chunks {
                buffer.removeAll(keepingCapacity: true)
                guard (try? DrinkDataChunk.decodeRecords(bytes, into: &buffer)) != nil else { continue }
                count += buffer.count
                checksum &+= UInt64(buffer[buffer.count - 1].recordID)
            }
            return count
        }

        // Python: the same bytes, length-prefixed, in a temporary file.
        let file = NSTemporaryDirectory() + "aquavate-chunks-\(getpid()).bin"
        var blob: [UInt8] = []
        for bytes in chunks {
            blob.append(UInt8(bytes.count & 0xFF)); blob.append(UInt8(bytes.count >> 8))
            blob.append(contentsOf: bytes)
        }
        _ = FileManager.default.createFile(atPath: file, contents: Data(blob))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("python_chunk_decoder.py").path
        let python = await pythonOutput(script: script, file: file)

        let perChunk = Double(decoded) / chunkSeconds, perBuffer = Double(decoded) / bufferSeconds
        print("decode: \(decoded) records in \(chunks.count) chunks of 17 (checksum \(checksum % 1000))")
        print(String(format: "decode: swift DrinkDataChunk(decoding:)      %7.1f M records/s", perChunk / 1e6))
        print(String(format: "decode: swift decodeRecords(into: buffer)    %7.1f M records/s", perBuffer / 1e6))
        for (form, rate) in python.sorted(by: { $0.key > $1.key }) {
            print(String(format: "decode: python struct.iter_unpack → %-7@   %7.2f M records/s   ratio %4.0f× / %4.0f×",
                         form, rate / 1e6, perChunk / rate, perBuffer / rate))
        }
        if python.isEmpty { print("decode: the Python decoder did not run (python3 missing?)") }
        print("decode: budget ≥ 50× (docs/design.md 5); ratios are DrinkDataChunk / buffer path against each Python form")
    }

    /// Best wall time of five runs of `body`, and what it returned.
    private static func bestOfFive(_ body: () -> Int) -> (Int, Double) {
        var best = Double.infinity, result = 0
        for _ in 0..<5 {
            let start = Measure.now()
            result = body()
            best = min(best, Measure.now() - start)
        }
        return (result, best)
    }

    /// Records per second of each Python form, by name.
    private static func pythonOutput(script: String, file: String) async -> [String: Double] {
        // Output to a file, awaited through ChildProcess: no pipe to fill, no blocking wait.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("aquavate-bench-python-\(getpid()).txt").path
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath),
              let process = try? ChildProcess.spawn("/usr/bin/env", ["python3", script, file], output: output)
        else { return [:] }
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        guard await process.waitForExit(timeout: .seconds(600)) == 0,
              let data = FileManager.default.contents(atPath: outputPath) else { return [:] }
        var rates: [String: Double] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            var fields: [Substring: Substring] = [:]
            for field in line.split(separator: " ") {
                let parts = field.split(separator: "=")
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            if let form = fields["form"], let records = fields["records"].flatMap({ Double($0) }),
               let seconds = fields["seconds"].flatMap({ Double($0) }), seconds > 0 {
                rates[String(form)] = records / seconds
            }
        }
        return rates
    }
}
