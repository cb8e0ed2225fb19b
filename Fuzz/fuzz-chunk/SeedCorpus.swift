// Seed inputs for fuzz-chunk: every wire vector of docs/protocol-vectors.md, one file each.
// Seeds matter (docs/swift-linux.md 6): they start the fuzzer on every structure's valid lengths.

#if FUZZING
import AquavateProtocol
#if canImport(Glibc)
import Glibc
#endif

enum SeedCorpus {
    static let record42 = "2A 00 00 00 C8 E4 90 67 96 00 58 02 01 00"
    static let record44 = "2C 00 00 00 B0 E8 90 67 23 00 35 02 00 00"

    /// (file name, hex) of each vector.
    static let vectors: [(String, String)] = [
        ("tv01-current-state", "B0 E8 90 67 C2 01 C2 01 E2 04 57 07 03 00"),
        ("tv02-current-state-placeholder", "00 00 00 00 00 00 00 00 00 00 00 00 00 00"),
        ("tv03-current-state-cal", "B5 E8 90 67 C0 1D FE FF E2 04 57 12 00 00"),
        ("tv04-current-state-cal-high", "B6 E8 90 67 00 80 80 00 00 00 64 13 00 00"),
        ("tv05-current-state-low-battery", "B0 E8 90 67 F4 FF 00 00 00 00 16 27 00 00"),
        ("tv06-current-state-max", "FF FF FF FF FF 7F 3E 03 FF FF 64 3F FF FF"),
        ("tv07-current-state-truncated", "B0 E8 90 67 C2 01 C2 01 E2 04 57 07 03"),
        ("tv08-record", record42),
        ("tv09-record-refill", "2B 00 00 00 20 E7 90 67 06 FF 3E 03 00 00"),
        ("tv10-record-deleted", "07 00 00 00 60 25 90 67 2D 00 2C 01 00 05"),
        ("tv11-record-max", "FF FF FF FF FF FF FF FF FF 7F FF FF FF FF"),
        ("tv12-record-min", "01 00 00 00 7F 86 91 67 00 80 FC FF 00 00"),
        ("tv13-chunk", "00 00 01 00 02 00 " + record42 + " " + record44),
        ("tv14-chunk-short", "01 00 03 00 03 00 " + record42 + " " + record44),
        ("tv15-chunk-header-short", "00 00 01 00 02"),
        ("tv16-chunk-placeholder", "00 00 00 00 00 00"),
        ("tv17-chunk-truncated", "00 00 01 00 14 00" + String(repeating: " " + record42, count: 17)),
        ("tv17-chunk-17", "00 00 03 00 11 00" + String(repeating: " " + record42, count: 17)),
        ("tv18-sync-start", "00 00 05 00 01 00 11 00"),
        ("tv19-sync-start-ios", "00 00 19 00 01 00 14 00"),
        ("tv20-sync-start-0", "00 00 07 00 01 00 00 00"),
        ("tv20-sync-start-300", "00 00 07 00 01 00 2C 01"),
        ("tv20-sync-read", "00 00 07 00 00 01 14 00"),
        ("tv21-sync-ack", "00 00 00 00 02 00 00 00"),
        ("tv21-sync-7", "00 00 00 00 02 00 00"),
        ("tv22-set-time", "10 B0 E8 90 67"),
        ("tv22-set-time-4", "10 B0 E8 90"),
        ("tv22-set-time-6", "10 B0 E8 90 67 00"),
        ("tv23-delete", "12 2A 00 00 00"),
        ("tv24-cal-set-data", "04 A0 86 01 00 8C 95 06 00 E4 B2 C7 43"),
        ("tv25-ping", "02 00 00 00"),
        ("tv25-motion-chunk-request", "31 01 00 00"),
        ("tv25-set-daily-total", "11 E8 03"),
        ("tv26-bottle-config", "00 00 C8 43 FA 00 00 00 3E 03 C4 09"),
        ("tv27-device-settings", "01 00 00 00"),
        ("tv28-motion-chunk", "02 03 01 00 A0 C1 90 67 2D 00 00 80"),
        ("tv29-backpack-chunk", "00 01 01 00 C0 9E 8E 67 5C 1C 00 00 03 00 00 00"),
        ("tv30-calibration-state", "09 00 A0 86 01 00 8C 95 06 00 00 00"),
    ]

    /// Writes the seeds into an existing directory; false (with a message) on the first failure.
    static func write(to directory: String) -> Bool {
        for (name, hex) in vectors {
            guard let bytes = Hex.parse(hex) else {
                print("fuzz-chunk: seed \(name) is not valid hex")
                return false
            }
            let path = directory + "/" + name
            guard let file = fopen(path, "wb") else {
                print("fuzz-chunk: cannot write \(path)")
                return false
            }
            let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            fclose(file)
            guard written == bytes.count else {
                print("fuzz-chunk: short write to \(path)")
                return false
            }
        }
        print("fuzz-chunk: wrote \(vectors.count) seeds to \(directory)")
        return true
    }
}
#endif
