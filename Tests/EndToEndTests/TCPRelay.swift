// A TCP relay on loopback that a test can cut and restore: a bridge pointed at it reaches the
// broker while it is whole; `cut()` closes every relayed connection and refuses new ones (what a
// Wi-Fi outage looks like to the bridge: its connection ends and reconnecting fails), `restore()`
// lets connections through again. `freeze()` is a host that vanished: nothing is forwarded and
// nothing is closed (new connections are accepted and left hanging), so the broker learns of it
// only when the client's keep-alive runs out; `thaw()` ends it. One thread accepts; each
// connection has one thread pumping both ways with poll(2).

import BusTestSupport
import Foundation
import Locking

final class TCPRelay: Sendable {
    let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private struct State {
        var open = true
        var frozen = false
        var stopped = false
        var sockets: Set<Int32> = []
        /// Connections accepted while frozen, never forwarded.
        var hanging: [Int32] = []
    }
    private let state = Locked(State())

    /// Listens on a free loopback port and relays to 127.0.0.1:`upstreamPort`; nil if it cannot listen.
    init?(to upstreamPort: Int) {
        guard let listening = LoopbackListener() else { return nil }
        listener = listening.descriptor
        port = listening.port
        self.upstreamPort = upstreamPort
        Thread { [self] in acceptLoop() }.start()
    }

    /// Ends every relayed connection and refuses new ones until `restore()`.
    func cut() {
        let sockets = state.withLock { state -> Set<Int32> in
            state.open = false
            return state.sockets
        }
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    func restore() {
        state.withLock { $0.open = true }
    }

    /// Forwards nothing and closes nothing until `thaw()`.
    func freeze() {
        state.withLock { $0.frozen = true }
    }

    /// Forwards again; the connections that hung while frozen are closed (their clients retry).
    func thaw() {
        let hanging = state.withLock { state -> [Int32] in
            state.frozen = false
            defer { state.hanging.removeAll() }
            return state.hanging
        }
        for socket in hanging { close(socket) }
    }

    func stop() {
        thaw()
        cut()
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            let (open, frozen, stopped) = state.withLock { ($0.open, $0.frozen, $0.stopped) }
            if stopped { close(client); return }
            if frozen {
                state.withLock { $0.hanging.append(client) }
                continue
            }
            guard open, let server = connectUpstream() else {
                close(client)
                continue
            }
            state.withLock { $0.sockets.formUnion([client, server]) }
            Thread { [self] in pump(client, server) }.start()
        }
    }

    private func connectUpstream() -> Int32? {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard server >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(upstreamPort).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(server)
            return nil
        }
        return server
    }

    /// Copies bytes both ways until either side closes (or `cut()` shuts both down).
    private func pump(_ client: Int32, _ server: Int32) {
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16_384)
        loop: while true {
            if state.withLock({ $0.frozen }) {
                _ = poll(nil, 0, 50)  // leave the bytes where they are
                continue
            }
            guard poll(&fds, 2, 50) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where fds[index].revents != 0 {
                let from = fds[index].fd, to = fds[1 - index].fd
                let count = read(from, &buffer, buffer.count)
                guard count > 0 else { break loop }
                var sent = 0
                while sent < count {
                    let written = buffer.withUnsafeBytes { write(to, $0.baseAddress! + sent, count - sent) }
                    guard written > 0 else { break loop }
                    sent += written
                }
            }
        }
        state.withLock { $0.sockets.subtract([client, server]) }
        close(client)
        close(server)
    }
}
