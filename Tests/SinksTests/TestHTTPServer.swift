// A tiny HTTP/1.1 server on 127.0.0.1 for the push tests: records every request and answers
// with scripted statuses (the last one repeats), or never answers at all (`silent`). A 3xx
// carries `Location: <location>`.

import BusTestSupport
import Foundation

final class TestHTTPServer: @unchecked Sendable {
    struct Request: Sendable {
        var method: String
        var path: String
        /// Field names in lower case.
        var headers: [String: String]
        var body: [UInt8]
        var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    let port: Int
    let requests = Recorder<Request>()
    private let listener: Int32
    private let lock = NSLock()
    private var statuses: [Int]
    private let silent: Bool
    private let location: String?
    private var open: [Int32] = []

    init(statuses: [Int] = [200], silent: Bool = false, location: String? = nil) throws {
        self.statuses = statuses
        self.silent = silent
        self.location = location
        guard let socket = LoopbackListener() else {
            throw MosquittoBroker.BrokerFailed(reason: "test HTTP server: cannot listen (\(errno))")
        }
        listener = socket.descriptor
        port = socket.port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        lock.lock()
        let connections = open
        open.removeAll()
        lock.unlock()
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private func nextStatus() -> Int {
        lock.lock()
        defer { lock.unlock() }
        return statuses.count > 1 ? statuses.removeFirst() : statuses[0]
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            lock.lock()
            open.append(connection)
            lock.unlock()
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        func readMore() -> Bool {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0 else { return false }
            buffer += chunk[0..<count]
            return true
        }
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        while headerEnd == nil {
            guard readMore() else { close(connection); return }
            headerEnd = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == separator }
        }
        let head = String(decoding: buffer[0..<headerEnd!], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = head[0].split(separator: " ")
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            _ = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headerEnd! + 4
        while buffer.count - bodyStart < length {
            guard readMore() else { break }
        }
        let body = Array(buffer[bodyStart..<min(buffer.count, bodyStart + length)])
        requests.append(Request(method: String(requestLine.first ?? ""), path: String(requestLine.dropFirst().first ?? ""),
                                headers: headers, body: body))
        if silent { return }  // never answers; stop() shuts the socket
        let status = nextStatus()
        let redirect = (300..<400).contains(status) ? location.map { "Location: \($0)\r\n" } ?? "" : ""
        let response = "HTTP/1.1 \(status) Scripted\r\n\(redirect)Content-Length: 0\r\nConnection: close\r\n\r\n"
        _ = Array(response.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        close(connection)
        lock.lock()
        open.removeAll { $0 == connection }
        lock.unlock()
    }
}
