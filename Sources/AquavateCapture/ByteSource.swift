import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the capture reader's blocks come from: a file, or bytes in memory.
enum ByteSource {
    case file(FileSource)
    case memory([UInt8], offset: Int)

    struct ReadFailure: Error {
        let reason: String
    }

    /// Appends up to `maxCount` bytes to `buffer`; 0 at the end.
    mutating func read(maxCount: Int, appendingTo buffer: inout [UInt8]) -> Result<Int, ReadFailure> {
        switch self {
        case .file(let file):
            return file.read(maxCount: maxCount, appendingTo: &buffer)
        case .memory(let bytes, let offset):
            let end = min(bytes.count, offset + maxCount)
            buffer.append(contentsOf: bytes[offset..<end])
            self = .memory(bytes, offset: end)
            return .success(end - offset)
        }
    }
}

/// A file opened for reading with stdio, closed when released.
final class FileSource {
    private let handle: UnsafeMutablePointer<FILE>
    private var block: [UInt8] = []

    init(path: String) throws(CaptureFileUnreadable) {
        guard let handle = fopen(path, "rb") else {
            throw CaptureFileUnreadable(path: path, reason: String(cString: strerror(errno)))
        }
        var status = stat()
        if fstat(fileno(handle), &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            fclose(handle)
            throw CaptureFileUnreadable(path: path, reason: "is a directory, expected a capture file")
        }
        self.handle = handle
    }

    deinit {
        fclose(handle)
    }

    func read(maxCount: Int, appendingTo buffer: inout [UInt8]) -> Result<Int, ByteSource.ReadFailure> {
        if block.count < maxCount { block = [UInt8](repeating: 0, count: maxCount) }
        let count = block.withUnsafeMutableBytes { fread($0.baseAddress, 1, maxCount, handle) }
        if count == 0, ferror(handle) != 0 {
            return .failure(ByteSource.ReadFailure(reason: String(cString: strerror(errno))))
        }
        buffer.append(contentsOf: block[0..<count])
        return .success(count)
    }
}
