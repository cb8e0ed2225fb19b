// A listening TCP socket on 127.0.0.1 at a port the kernel picks: the test HTTP servers and the
// fake MQTT broker that stand in for a peer the bridge talks to.

import Foundation

package struct LoopbackListener: Sendable {
    package let descriptor: Int32
    package let port: Int

    /// Binds and listens, or returns nil (errno says why).
    package init?(backlog: Int32 = 16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return nil }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && getsockname(listener, pointer, &length) == 0
                    && listen(listener, backlog) == 0
            }
        }
        guard listening else {
            close(listener)
            return nil
        }
        descriptor = listener
        port = Int(UInt16(bigEndian: address.sin_port))
    }
}
