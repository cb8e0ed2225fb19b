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
// replays the same rates and the same schedule of the test, not the same bytes. The sockets and
// threads are LoopbackRelay's.

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

    private struct State {
        var rates: Rates
        var tally = Tally()
        /// When a packet last went through (either way): the path is quiet when it is long ago.
        var lastPacket = ContinuousClock.now
    }
    private let state: Locked<State>
    private let relay: LoopbackRelay

    var port: Int { relay.port }

    /// Listens on a free loopback port and relays to 127.0.0.1:`upstreamPort`; nil if it cannot listen.
    init?(to upstreamPort: Int, seed: UInt64, rates: Rates) {
        let state = Locked(State(rates: rates))
        guard let relay = LoopbackRelay(to: upstreamPort, admit: { index in
            state.withLock { $0.tally.connections += 1 }
            // The n-th connection's generator: the seed's, moved on n times.
            var generator = SeededGenerator(seed: seed)
            for _ in 0..<index { _ = generator.next() }
            let connectionSeed = generator.next()
            return .relay { Lossy(state: state, seed: connectionSeed) }
        }) else { return nil }
        self.state = state
        self.relay = relay
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
        state.withLock { $0.tally.cuts += 1 }
        relay.cutAll()
    }

    func stop() {
        relay.stop()
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

    /// Whole packets, each way: a PUBLISH dropped, sent twice or followed by a cut at random; a
    /// malformed length ends the connection.
    private final class Lossy: RelayStream {
        let state: Locked<State>
        var generator: SeededGenerator
        var pending: [[UInt8]] = [[], []]

        init(state: Locked<State>, seed: UInt64) {
            self.state = state
            generator = SeededGenerator(seed: seed)
        }

        var isHeld: Bool { false }

        func forward(_ bytes: ArraySlice<UInt8>, fromClient: Bool, send: ([UInt8]) -> Bool) -> Bool {
            let index = fromClient ? 0 : 1
            pending[index].append(contentsOf: bytes)
            while !pending[index].isEmpty {
                guard let length = LossyMQTTRelay.packetLength(pending[index][...]) else { return false }
                guard let length else { break }
                let packet = Array(pending[index][0..<length])
                pending[index].removeFirst(length)
                let rates = state.withLock { state -> Rates in
                    state.lastPacket = .now
                    return state.rates
                }
                guard packet[0] >> 4 == 3 else {
                    state.withLock { $0.tally.bytes += packet.count }
                    guard send(packet) else { return false }
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
                    guard send(packet), !twice || send(packet) else { return false }
                }
                if cut {
                    state.withLock { $0.tally.cuts += 1 }
                    return false
                }
            }
            return true
        }
    }
}
