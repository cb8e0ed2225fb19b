// A stand-in for systemd's notification socket (sd_notify(3)): a unix datagram socket the test
// binds and hands to the bridge as NOTIFY_SOCKET. Read without blocking, so no test thread waits
// in the kernel (the pool has 2 threads here).

import Foundation
#if canImport(Glibc)
import Glibc
#endif

final class NotifySocket: Sendable {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw NotifySocketError(what: "socket", code: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(descriptor)
            throw NotifySocketError(what: "path too long for a unix socket: \(path)", code: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw NotifySocketError(what: "bind \(path)", code: code)
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Every datagram waiting now, oldest first (none: empty).
    func receiveAll() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { return messages }
            messages.append(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }
}

struct NotifySocketError: Error, CustomStringConvertible {
    var what: String
    var code: Int32
    var description: String { "\(what): \(String(cString: strerror(code)))" }
}
