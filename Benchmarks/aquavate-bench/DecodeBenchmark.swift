// Drink Data chunk decoding: records per second, side by side with a Python struct decoder
// of the same bytes (DESIGN.md 5: budget ≥ 50×).

import AquavateProtocol
import Foundation

enum DecodeBenchmark {
    static func run(_ options: [String]) {
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

        // Swift: best of five passes.
        var best = Double.infinity
        var decoded = 0
        var checksum: UInt64 = 0
        for _ in 0..<5 {
            let start = Measure.now()
            decoded = 0
            for bytes in chunks {
                guard let chunk = try? DrinkDataChunk(decoding: bytes) else { continue }
                decoded += chunk.records.count
                checksum &+= UInt64(chunk.records[chunk.records.count - 1].recordID)
            }
            best = min(best, Measure.now() - start)
        }
        let swiftRate = Double(decoded) / best

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
        let python = pythonOutput(script: script, file: file)

        print("decode: \(decoded) records in \(chunks.count) chunks (checksum \(checksum % 1000))")
        print(String(format: "decode: swift  %.1f M records/s (best of 5: %.3f s)", swiftRate / 1e6, best))
        if let (records, seconds) = python {
            let pythonRate = Double(records) / seconds
            print(String(format: "decode: python %.2f M records/s (best of 3: %.3f s, struct.iter_unpack)", pythonRate / 1e6, seconds))
            print(String(format: "decode: ratio  %.0f× (budget ≥ 50×)", swiftRate / pythonRate))
        } else {
            print("decode: python decoder did not run (python3 missing?)")
        }
    }

    private static func pythonOutput(script: String, file: String) -> (Int, Double)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, file]
        let pipe = Pipe()
        process.standardOutput = pipe
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        var records: Int?, seconds: Double?
        for field in text.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = field.split(separator: "=")
            guard parts.count == 2 else { continue }
            if parts[0] == "records" { records = Int(parts[1]) }
            if parts[0] == "seconds" { seconds = Double(parts[1]) }
        }
        guard let records, let seconds, seconds > 0 else { return nil }
        return (records, seconds)
    }
}
