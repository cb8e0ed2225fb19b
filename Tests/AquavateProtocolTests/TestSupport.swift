// Helpers shared by the protocol tests: hex literals as docs/protocol-vectors.md writes them, UTC rendering of
// bottle timestamps, and a seeded generator so property tests are reproducible.

import AquavateProtocol
import BusTestSupport
import Foundation
import Testing

/// Bytes from a docs/protocol-vectors.md hex string ("B0 E8 90 67 …").
func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    try #require(Hex.parse(text), "not valid hex: \(text)", sourceLocation: sourceLocation)
}

/// A bottle timestamp as ISO 8601 UTC, e.g. "2025-01-22T12:46:40Z" (offset 0, docs/protocol.md 5.2).
func utc(_ timestamp: UInt32) -> String {
    Date(timeIntervalSince1970: TimeInterval(timestamp)).formatted(.iso8601)
}


/// TV8, TV13's second record and TV8 again as bytes, reused by several suites.
enum Vectors {
    static let record42 = "2A 00 00 00 C8 E4 90 67 96 00 58 02 01 00"
    static let record44 = "2C 00 00 00 B0 E8 90 67 23 00 35 02 00 00"
}

extension SeededGenerator {
    /// A record with every field random.
    mutating func record() -> DrinkRecord {
        DrinkRecord(recordID: .random(in: .min ... .max, using: &self),
                    timestamp: .random(in: .min ... .max, using: &self),
                    amountML: .random(in: .min ... .max, using: &self),
                    bottleLevelML: .random(in: .min ... .max, using: &self),
                    typeRaw: .random(in: .min ... .max, using: &self),
                    flagsRaw: .random(in: .min ... .max, using: &self))
    }
}
