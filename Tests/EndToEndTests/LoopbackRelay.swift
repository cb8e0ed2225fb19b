// What the tests' relays share: a listener on a free loopback port, one thread that accepts and
// connects each connection to 127.0.0.1:`upstreamPort`, the sockets open (so that a test can end
// them all at once), and one thread a connection copying both ways with poll(2). What becomes of
// a connection (refused, left hanging, relayed) and of the bytes read from it (passed on, held,
// parsed as MQTT and dropped or sent twice) is the relay's own: TCPRelay, LossyMQTTRelay.

import BusTestSupport
import Foundation
import Locking

/// What a relay does with the bytes of one connection; made on that connection's thread, used only there.
protocol RelayStream: AnyObject {
    /// While true nothing is read: the bytes wait where they are.
    var isHeld: Bool { get }
    /// Bytes read from the client (`fromClient`) or from the server, passed on with `send` (which
    /// says whether the write went through); false ends the connection.
    func forward(_ bytes: ArraySlice<UInt8>, fromClient: Bool, send: ([UInt8]) -> Bool) -> Bool
}

final class LoopbackRelay: Sendable {
    /// What becomes of an accepted connection.
    enum Admission: Sendable {
        /// Closed at once (what a host that refuses looks like to the client).
        case close
        /// Accepted and left unanswered until `closeHanging()`.
        case hang
        /// Connected upstream and relayed through the stream `make` gives, on the connection's thread.
        case relay(_ make: @Sendable () -> any RelayStream)
    }

    let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private struct Sockets {
        var open: Set<Int32> = []
        var hanging: [Int32] = []
        var stopped = false
    }
    private let sockets = Locked(Sockets())

    /// Listens on a free loopback port; `admit` judges each accepted connection (its number, from
    /// 1). Nil if it cannot listen.
    init?(to upstreamPort: Int, admit: @escaping @Sendable (_ index: Int) -> Admission) {
        guard let listening = LoopbackListener() else { return nil }
        listener = listening.descriptor
        port = listening.port
        self.upstreamPort = upstreamPort
        Thread { [self] in acceptLoop(admit) }.start()
    }

    /// Ends every relayed connection (their clients see it closed).
    func cutAll() {
        for socket in sockets.withLock({ $0.open }) { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    /// Closes the connections left hanging.
    func closeHanging() {
        let hanging = sockets.withLock { sockets -> [Int32] in
            defer { sockets.hanging.removeAll() }
            return sockets.hanging
        }
        for socket in hanging { close(socket) }
    }

    func stop() {
        sockets.withLock { $0.stopped = true }
        closeHanging()
        cutAll()
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop(_ admit: @Sendable (Int) -> Admission) {
        var index = 0
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            if sockets.withLock({ $0.stopped }) {
                close(client)
                return
            }
            index += 1
            switch admit(index) {
            case .close:
                close(client)
            case .hang:
                sockets.withLock { $0.hanging.append(client) }
            case let .relay(make):
                guard let server = connectUpstream() else {
                    close(client)
                    continue
                }
                sockets.withLock { $0.open.formUnion([client, server]) }
                Thread { [self] in pump(client, server, make()) }.start()
            }
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

    /// Copies both ways through `stream` until either side closes, a cut, or the stream ends it.
    private func pump(_ client: Int32, _ server: Int32, _ stream: any RelayStream) {
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 16_384)
        loop: while true {
            if stream.isHeld {
                _ = poll(nil, 0, 50)
                continue
            }
            guard poll(&fds, 2, 50) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where fds[index].revents != 0 {
                let to = fds[1 - index].fd
                let count = read(fds[index].fd, &buffer, buffer.count)
                guard count > 0, stream.forward(buffer[0..<count], fromClient: index == 0, send: { Self.write($0, to: to) }) else { break loop }
            }
        }
        sockets.withLock { $0.open.subtract([client, server]) }
        close(client)
        close(server)
    }

    private static func write(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.write(socket, $0.baseAddress! + sent, bytes.count - sent) }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }
}
