// Reads a ByteSource in bounded blocks and hands out exact byte counts, so that a btsnoop import
// holds one block and one record at a time, not the whole file (read whole, a 210 MB capture
// takes 300 MB). What has been handed out is dropped from the buffer once it outweighs the rest.

struct BlockReader {
    static let blockSize = 1 << 16

    private var source: ByteSource
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` already handed out.
    private var start = 0
    /// Why the source stopped early (an I/O error); nil at a clean end.
    private(set) var failure: String?
    private var ended = false

    init(_ source: ByteSource) {
        self.source = source
    }

    /// Reads until `count` bytes are waiting or the source ends; returns how many are waiting
    /// (fewer than `count` only at the end of the source or after a failure).
    mutating func fill(_ count: Int) -> Int {
        while buffer.count - start < count, !ended {
            compact()
            switch source.read(maxCount: max(Self.blockSize, count - (buffer.count - start)), appendingTo: &buffer) {
            case .success(0):
                ended = true
            case .success:
                continue
            case .failure(let failure):
                self.failure = failure.reason
                ended = true
            }
        }
        return min(count, buffer.count - start)
    }

    /// The next `count` bytes (fewer at the end), as their own array.
    mutating func take(_ count: Int) -> [UInt8] {
        let available = fill(count)
        defer { start += available }
        return Array(buffer[start..<start + available])
    }

    /// Drops what was handed out when it is most of the buffer: amortised, each byte moves once.
    private mutating func compact() {
        guard start > 0, start >= buffer.count - start else { return }
        buffer.removeFirst(start)
        start = 0
    }
}
