// A generated capture as the live bridge records one: syncs of 600 records in chunks of 17
// (START, chunk, ACK, …, disconnect), with amounts from a fixed seed so every run reads the same
// bytes. Shared by the replay and capture-read benchmarks.

import AquavateCapture
import AquavateProtocol
import Foundation
import Timekeeping

enum CaptureGenerator {
    /// Writes a capture of `records` drinks to `path`; exits when it cannot.
    static func generate(path: String, records: Int) {
        let header = CaptureHeader(version: 1, created: "2026-11-21T00:00:00Z", source: "aquavate-bench",
                                   deviceName: "Aquavate-BEEF", deviceAddress: "F4:12:FA:00:BE:EF", mtu: 247)
        guard let writer = try? CaptureWriter(path: path, header: header) else {
            print("cannot write \(path)"); exit(1)
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
}
