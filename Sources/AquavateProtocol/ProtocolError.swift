// Why a payload could not be decoded (docs/protocol.md section 3, docs/protocol-vectors.md "Reject").
//
// Decoders throw one of these instead of returning a half-parsed value: a value either decodes
// completely or not at all. Each description is one line that says what was wrong and what was
// expected, so it can go straight into a log or a command-line error.

public enum ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The payload length is not one the structure allows.
    /// `expected` reads naturally after "must be", e.g. "exactly 14" or "at least 6".
    case wrongLength(structure: String, expected: String, actual: Int)
    /// A Drink Data chunk declares more records than its bytes hold: what an MTU-truncated
    /// notification looks like (docs/protocol.md 4.4, TV14, TV17). Never ACK such a chunk.
    case truncatedChunk(declaredRecords: Int, neededBytes: Int, actualBytes: Int)
    /// An Activity Stats chunk whose length does not match the entry count in its header.
    case entryCountMismatch(structure: String, declaredEntries: Int, expectedBytes: Int, actualBytes: Int)
    /// An Activity Stats chunk declares more entries than a chunk can carry (10 events, 5 sessions).
    case tooManyEntries(structure: String, declared: Int, maximum: Int)
    /// A Command write the bottle would ignore: unknown length, or a code not valid at that length
    /// (docs/protocol.md 3.6). The bytes are kept so the caller can log them.
    case ignoredCommand(bytes: [UInt8])

    public var description: String {
        switch self {
        case let .wrongLength(structure, expected, actual):
            return "\(structure) must be \(expected) bytes, got \(actual)"
        case let .truncatedChunk(declaredRecords, neededBytes, actualBytes):
            return "Drink Data chunk declares \(declaredRecords) records needing \(neededBytes) bytes "
                + "but has \(actualBytes) (truncated notification): do not ACK; read the characteristic "
                + "or request a smaller chunk_size"
        case let .entryCountMismatch(structure, declaredEntries, expectedBytes, actualBytes):
            return "\(structure) declares \(declaredEntries) entries and must be exactly \(expectedBytes) "
                + "bytes, got \(actualBytes)"
        case let .tooManyEntries(structure, declared, maximum):
            return "\(structure) declares \(declared) entries, at most \(maximum) fit in one chunk"
        case let .ignoredCommand(bytes):
            return "Command [\(Hex.format(bytes))] (\(bytes.count) bytes) is not one the bottle acts on: "
                + "it dispatches on length 3, 4, 5 or 13, then on byte 0"
        }
    }
}
