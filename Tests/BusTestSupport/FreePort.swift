// A TCP port for a server a test starts (a mosquitto, a web server), free on 127.0.0.1 now.
//
// Why not "bind port 0" and hand the number on: that yields an ephemeral port (32768-60999 by
// default), which an outgoing connection of another test (an MQTT client) can take before the
// server binds it; in a full run the broker then failed to listen, seen as a client that never
// connects. Why not a random number alone: tests of one process run side by side, and two
// brokers drawn on one port made two households hear each other. So: below the ephemeral range,
// never handed out twice in this process, and bindable at the moment it is handed out.

import Foundation
import Glibc
import Locking

package struct NoFreePort: Error, CustomStringConvertible {
    package var description: String { "no free TCP port found in 20000-31999 on 127.0.0.1" }
}

/// A TCP port free on 127.0.0.1 now, below the ephemeral range, and never handed out before in
/// this process.
package func freeTCPPort() throws -> Int {
    for _ in 0..<400 {
        let port = Int.random(in: 20_000..<32_000)
        let fresh = handedOutPorts.withLock { $0.insert(port).inserted }
        if fresh, portIsFree(port) { return port }
    }
    throw NoFreePort()
}

private let handedOutPorts = Locked(Set<Int>())

/// Whether `port` can be bound on 127.0.0.1 right now.
private func portIsFree(_ port: Int) -> Bool {
    withLoopbackSocket(port) { socket, address, length in bind(socket, address, length) == 0 }
}

/// Whether something accepts a TCP connection on 127.0.0.1:`port` now.
package func canConnect(port: Int) -> Bool {
    withLoopbackSocket(port) { socket, address, length in connect(socket, address, length) == 0 }
}

/// `body` with a new TCP socket and the address 127.0.0.1:`port`; false when no socket could be made.
private func withLoopbackSocket(_ port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool) -> Bool {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { return false }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
}
