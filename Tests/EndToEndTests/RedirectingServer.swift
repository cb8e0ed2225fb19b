// A one-purpose HTTP server on 127.0.0.1 for `notify test`: it answers a request for `/landing`
// with 200 and every other with a redirect there, and counts the requests. Following the
// redirect is what made `notify test` say "delivered", and would carry the bearer token to
// wherever the redirect points. Plain sockets and a thread, like the push sink's own test server
// in SinksTests.

import BusTestSupport
import Foundation
import Locking

final class RedirectingServer: Sendable {
    let port: Int
    private let listener: Int32
    private let received = Locked<Int>(0)

    init(status: Int) throws {
        guard let socket = LoopbackListener(backlog: 8) else { throw CocoaError(.fileWriteUnknown) }
        let listener = socket.descriptor
        self.listener = listener
        port = socket.port
        let port = self.port
        let redirect = Array("HTTP/1.1 \(status) Redirect\r\nLocation: http://127.0.0.1:\(port)/landing\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        let landed = Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        let received = self.received
        Thread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                // Read the request head (the push body is small), then answer.
                var buffer = [UInt8](repeating: 0, count: 65_536)
                let count = max(0, read(connection, &buffer, buffer.count))
                let head = String(decoding: buffer[0..<count], as: UTF8.self)
                received.withLock { $0 += 1 }
                let response = head.contains(" /landing ") ? landed : redirect
                _ = response.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                close(connection)
            }
        }.start()
    }

    var requests: Int { received.withLock { $0 } }

    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
