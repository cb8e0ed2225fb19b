// A small HTTP/1.1 client over a socket, for the web and Home Assistant tests: it sends exactly
// the headers a test gives (a forged Origin, a foreign Host, no Host at all), follows no
// redirect, and reads the whole answer (`Connection: close`). The Home Assistant tests speak
// WebDriver through it: chromedriver's answers make Foundation's URLSession fail.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

package struct HTTPReply: Sendable {
    package var status: Int
    /// Header names in lower case; a repeated header keeps its last value.
    package var headers: [String: String]
    package var body: String

    package var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
    package var jsonObject: [String: Any] { json as? [String: Any] ?? [:] }
    package var jsonArray: [[String: Any]] { json as? [[String: Any]] ?? [] }
    package var error: String? { jsonObject["error"] as? String }
}

package struct RawHTTPFailure: Error, CustomStringConvertible {
    package var description: String
    package init(description: String) { self.description = description }
}

package enum RawHTTP {
    /// - Parameters:
    ///   - source: the loopback address to connect from (127.0.0.2 is another client to the server).
    ///   - timeout: how long to wait for the answer, in seconds: a deadline, not a measure. The
    ///     web tests run ~70 servers in one process, whose renderings share the two queues of
    ///     `WebWork`, and with the hostile-query and paging tests beside them an answer waited more
    ///     than 20 s on two cores.
    package static func send(port: Int, _ method: String, _ path: String, headers: [(String, String)] = [],
                     body: String? = nil, host: String? = nil, source: String? = nil, timeout: Int = 90) async throws -> HTTPReply {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
        text += "\r\n" + (body ?? "")
        let request = text
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try exchange(port: port, request: Array(request.utf8), source: source, timeout: timeout) })
            }
        }
    }

    private static func exchange(port: Int, request: [UInt8], source: String?, timeout seconds: Int) throws -> HTTPReply {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawHTTPFailure(description: "socket: \(errno)") }
        defer { close(fd) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { throw RawHTTPFailure(description: "bind to \(source): errno \(errno)") }
        }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawHTTPFailure(description: "connect to port \(port): errno \(errno)") }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            // The server may answer (413) and close before the whole body is written.
            if n <= 0 { break }
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        // Until the peer closes, or the answer is whole by its Content-Length or last chunk (a
        // server may keep the connection open despite `Connection: close`: chromedriver does).
        while !isComplete(received) {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return try parse(received)
    }

    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).lowercased()
        if let line = head.components(separatedBy: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
           let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) {
            return bytes.count - end.upperBound >= length
        }
        if head.contains("transfer-encoding: chunked") {
            return bytes.suffix(5).elementsEqual(Array("0\r\n\r\n".utf8))
        }
        return false
    }

    private static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw RawHTTPFailure(description: "no HTTP answer: \(text.prefix(200))") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw RawHTTPFailure(description: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = String(text[split.upperBound...])
        if headers["transfer-encoding"] == "chunked" { body = dechunk(body) }
        return HTTPReply(status: status, headers: headers, body: body)
    }

    private static func dechunk(_ text: String) -> String {
        var bytes = Array(text.utf8)[...]
        var out: [UInt8] = []
        while let lineEnd = bytes.firstRange(of: Array("\r\n".utf8)) {
            let sizeText = String(decoding: bytes[..<lineEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16), size > 0 else { break }
            let start = lineEnd.upperBound
            out += bytes[start..<min(start + size, bytes.endIndex)]
            bytes = bytes[min(start + size + 2, bytes.endIndex)...]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
