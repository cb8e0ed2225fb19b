// The header shared by motion-event and backpack-session chunks (docs/protocol.md 3.8.2, 3.8.3):
//   u8 chunk_index | u8 total_chunks | u8 entry_count | u8 reserved | entry_count × fixed-size entries
// Unlike Drink Data these never exceed 84 bytes, so they are never truncated: the length must match
// the entry count exactly.

enum ActivityChunkLayout {
    static let headerByteCount = 4

    /// Checks length and count; returns the entry count.
    static func validate(_ bytes: [UInt8], structure: String, entrySize: Int,
                         maxEntries: Int) throws(ProtocolError) -> Int {
        guard bytes.count >= headerByteCount else {
            throw .wrongLength(structure: structure, expected: "at least \(headerByteCount)", actual: bytes.count)
        }
        let count = Int(bytes[2])
        guard count <= maxEntries else {
            throw .tooManyEntries(structure: structure, declared: count, maximum: maxEntries)
        }
        let expected = headerByteCount + entrySize * count
        guard bytes.count == expected else {
            throw .entryCountMismatch(structure: structure, declaredEntries: count, expectedBytes: expected,
                                      actualBytes: bytes.count)
        }
        return count
    }
}
