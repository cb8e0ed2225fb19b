// The shape every fixed wire structure shares, so callers (and tests) can treat them alike.

/// A value that travels as the bytes of one characteristic (docs/protocol.md section 3).
///
/// `init(decoding:)` either returns a complete value or throws; it never half-parses.
/// `encoded()` gives the exact wire bytes, so `try T(decoding: x.encoded())` reproduces `x`.
public protocol WireValue: Sendable {
    /// The structure's name as docs/protocol.md spells it; used in error messages.
    static var structureName: String { get }
    init(decoding bytes: [UInt8]) throws(ProtocolError)
    func encoded() -> [UInt8]
}

extension WireValue {
    /// Throws `.wrongLength` unless `bytes` has exactly `count` bytes.
    static func requireLength(_ bytes: [UInt8], exactly count: Int) throws(ProtocolError) {
        guard bytes.count == count else {
            throw .wrongLength(structure: structureName, expected: "exactly \(count)", actual: bytes.count)
        }
    }
}
