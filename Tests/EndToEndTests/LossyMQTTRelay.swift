// A lossy path between MQTT clients and a real broker, for the household's chaos test: a TCP relay
// on loopback that reads MQTT's framing (a fixed header byte, the remaining length as a variable
// byte integer, then that many bytes) in both directions and, at random from a seed, drops or
// duplicates whole PUBLISH packets, and cuts connections. Everything else (CONNECT, SUBSCRIBE,
// the acknowledgements, pings) passes untouched, so the loss is what a broker's dropped queue or a
// lost session looks like, not a broken stream.
//
// A dropped QoS 1 PUBLISH is never sent again by either side until the connection is made again
// (MQTT resends what is unacknowledged only at a reconnection), so the relay also cuts a
// connection now and then: the client reconnects, resumes its session and the broker or the client
// delivers what was in flight (a duplicate, or older than what followed it, which the household's
// replay guard then refuses: a loss the digests must repair).
//
// The seed fixes each connection's decisions (the n-th connection's generator is the seed's,
// moved on n times); which packet a decision meets depends on the threads' timing, so a seed
// replays the same rates and the same schedule of the test, not the same bytes.

import BusTestSupport
import Foundation
import Locking

final class LossyMQTTRelay: Sendable {
    /// How lossy the path is: each PUBLISH is dropped with `drop`, else sent twice with
    /// `duplicate`; each PUBLISH also ends its connection with `cut` (after being forwarded).
    struct Rates: Sendable, Equatable {
        var drop = 0.0
        var duplicate = 0.0
        var cut = 0.0
        static let none = Rates()
    }

    /// What the relay did, for the test's log and its checks.
    struct Tally: Sendable, Equatable {
        var connections = 0
        var published = 0
        var dropped = 0
        var duplicated = 0
        var cuts = 0
        /// Bytes forwarded (every packet, both ways, duplicates twice): what the broker exchanged
        /// with the clients.
        var bytes = 0
        /// Of which PUBLISH packets.
        var publishBytes = 0
    }

    let port: Int
    private let upstreamPort: Int
    private let listener: Int32
    private let seed: UInt64
    private struct State {
        var rates: Rates
        var stopped = false
        var sockets: Set<Int32> = []
        var tally = Tally()
        /// When a packet last went through (either way): the path is quiet when it is long ago.
        var lastPacket = ContinuousClock.now
    }
    private let state: Locked<State>

    /// Listens on a free loopback port and relays to 127.0.0.1:`upstreamPort`; nil if it cannot listen.
    init?(to upstreamPort: Int, seed: UInt64, rates: Rates) {
        guard let listening = LoopbackListener() else { return nil }
        listener = listening.descriptor
        port = listening.port
        self.upstreamPort = upstreamPort
        self.seed = seed
        state = Locked(State(rates: rates))
        Thread { [self] in acceptLoop() }.start()
    }

    var rates: Rates {
        get { state.withLock { $0.rates } }
        set { state.withLock { $0.rates = newValue } }
    }

    var tally: Tally { state.withLock { $0.tally } }

    /// Starts the tally again from zero (a measurement from here on).
    func resetTally() {
        state.withLock { $0.tally = Tally() }
    }

    /// Whether no packet went through for `quiet`: what was in flight has arrived.
    func isQuiet(for quiet: Duration) -> Bool {
        state.withLock { ContinuousClock.now - $0.lastPacket >= quiet }
    }

    /// Ends every relayed connection (the clients reconnect through the relay).
    func cutAll() {
        let sockets = state.withLock { state -> Set<Int32> in
            state.tally.cuts += 1
            return state.sockets
        }
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        cutAll()
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
            let (stopped, index) = state.withLock { state -> (Bool, Int) in
                state.tally.connections += 1
                return (state.stopped, state.tally.connections)
            }
            guard !stopped, let server = connectUpstream() else {
                close(client)
                if stopped { return }
                continue
            }
            state.withLock { $0.sockets.formUnion([client, server]) }
            var generator = SeededGenerator(seed: seed)
            for _ in 0..<index { _ = generator.next() }
            let connectionSeed = generator.next()
            Thread { [self] in pump(client, server, seed: connectionSeed) }.start()
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

    /// The length of the first whole packet in `bytes`, nil while it is incomplete (or the
    /// remaining length is malformed: more than 4 bytes, which ends the connection as a broker would).
    static func packetLength(_ bytes: ArraySlice<UInt8>) -> Int?? {
        var multiplier = 1, remaining = 0, index = bytes.startIndex + 1
        for lengthByte in 0..<4 {
            guard index < bytes.endIndex else { return .some(nil) }
            let byte = Int(bytes[index])
            remaining += (byte & 0x7F) * multiplier
            multiplier *= 128
            index += 1
            if byte & 0x80 == 0 {
                let total = 1 + (lengthByte + 1) + remaining
                return bytes.count >= total ? .some(total) : .some(nil)
            }
        }
        return nil
    }

    /// Copies whole packets both ways until either side closes, a cut, or a malformed length.
    private func pump(_ client: Int32, _ server: Int32, seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var fds = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: server, events: Int16(POLLIN), revents: 0)]
        var pending: [[UInt8]] = [[], []]
        var buffer = [UInt8](repeating: 0, count: 16_384)
        loop: while true {
            guard poll(&fds, 2, 50) >= 0 || errno == EINTR else { break }
            for index in 0..<2 where fds[index].revents != 0 {
                let from = fds[index].fd, to = fds[1 - index].fd
                let count = read(from, &buffer, buffer.count)
                guard count > 0 else { break loop }
                pending[index].append(contentsOf: buffer[0..<count])
                while !pending[index].isEmpty {
                    guard let length = Self.packetLength(pending[index][...]) else { break loop }
                    guard let length else { break }
                    let packet = Array(pending[index][0..<length])
                    pending[index].removeFirst(length)
                    let rates = state.withLock { state -> Rates in
                        state.lastPacket = .now
                        return state.rates
                    }
                    guard packet[0] >> 4 == 3 else {
                        state.withLock { $0.tally.bytes += packet.count }
                        guard Self.write(packet, to: to) else { break loop }
                        continue
                    }
                    let roll = Double.random(in: 0..<1, using: &generator)
                    let cut = Double.random(in: 0..<1, using: &generator) < rates.cut
                    if roll < rates.drop {
                        state.withLock { $0.tally.published += 1; $0.tally.dropped += 1 }
                    } else {
                        let twice = roll < rates.drop + rates.duplicate
                        state.withLock { state in
                            state.tally.published += 1
                            if twice { state.tally.duplicated += 1 }
                            state.tally.bytes += packet.count * (twice ? 2 : 1)
                            state.tally.publishBytes += packet.count * (twice ? 2 : 1)
                        }
                        guard Self.write(packet, to: to), !twice || Self.write(packet, to: to) else { break loop }
                    }
                    if cut {
                        state.withLock { $0.tally.cuts += 1 }
                        break loop
                    }
                }
            }
        }
        state.withLock { $0.sockets.subtract([client, server]) }
        close(client)
        close(server)
    }

    private static func write(_ packet: [UInt8], to socket: Int32) -> Bool {
        var sent = 0
        while sent < packet.count {
            let written = packet.withUnsafeBytes { Foundation.write(socket, $0.baseAddress! + sent, packet.count - sent) }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }
}
