// Answers compressed for clients that accept gzip (docs/design.md 3.6): the page is ~118 KiB of
// HTML and SVG and ~17 KiB gzipped, which on a phone over Wi-Fi is most of its load time.
// zlib through compress-nio (a maintained NIO package; Hummingbird 2.28 has no compression of its
// own, and its middleware package is not one this project can take).

import CompressNIO
import Hummingbird
import NIOCore

enum GzipEncoding {
    /// Whether `Accept-Encoding` allows gzip: listed (or `*`) without `q=0` (RFC 9110 12.5.3).
    static func accepted(_ headers: HTTPFields) -> Bool {
        let values = headers[values: .acceptEncoding].flatMap { $0.split(separator: ",") }
        var gzip: Bool?, any: Bool?
        for value in values {
            let parts = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            let refused = parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "").range(of: #"^q=0(\.0{0,3})?$"#, options: .regularExpression) != nil }
            if coding == "gzip" || coding == "x-gzip" { gzip = !refused } else if coding == "*" { any = !refused }
        }
        return gzip ?? any ?? false
    }

    /// `bytes` gzipped (zlib's default level: the page in ~1 ms here).
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var input = ByteBuffer(bytes: bytes)
        var output = try input.compress(with: .gzip())
        return output.readBytes(length: output.readableBytes) ?? []
    }
}
