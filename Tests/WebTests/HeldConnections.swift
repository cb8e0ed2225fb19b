// A hostile client's connections, held open against the real server: idle ones (connect, send
// nothing), slow-loris ones that send a request's head a byte at a time, and slow-body ones that
// send a whole head and then drip the body. Non-blocking sockets, so that opening hundreds never
// waits on the server's backlog.

import BusTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class HeldConnections: @unchecked Sendable {
    enum Kind: Sendable { case idle, slowHead, slowBody }

    private(set) var sockets: [(fd: Int32, kind: Kind)] = []
    private var closed: Set<Int32> = []

    /// Opens `count` connections of `kind` to 127.0.0.1:`port`.
    func open(_ count: Int, _ kind: Kind, port: Int) throws {
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard fd >= 0 else { throw RawHTTPFailure(description: "socket: errno \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 || errno == EINPROGRESS else { close(fd); throw RawHTTPFailure(description: "connect: errno \(errno)") }
            sockets.append((fd, kind))
        }
    }

    /// The start of each slow connection's request: the head's first line for slow-head ones,
    /// the whole head (announcing a body) for slow-body ones.
    func begin() {
        for (fd, kind) in sockets {
            switch kind {
            case .idle: break
            case .slowHead: send(fd, "GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            case .slowBody: send(fd, "POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000\r\n\r\n")
            }
        }
    }

    /// One more byte on every slow connection still open.
    func drip() {
        for (fd, kind) in sockets where kind != .idle && !closed.contains(fd) {
            send(fd, "a")
        }
    }

    /// How many the server has closed (end of stream or reset when read).
    func closedByServer() -> Int {
        var buffer = [UInt8](repeating: 0, count: 4096)
        for (fd, _) in sockets where !closed.contains(fd) {
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n > 0 { continue }
                if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { closed.insert(fd) }
                break
            }
        }
        return closed.count
    }

    func closeAll() {
        for (fd, _) in sockets { close(fd) }
        sockets = []
    }

    private func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}
