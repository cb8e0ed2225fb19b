// A TCP relay on loopback that a test can cut and restore: a bridge pointed at it reaches the
// broker while it is whole; `cut()` closes every relayed connection and refuses new ones (what a
// Wi-Fi outage looks like to the bridge: its connection ends and reconnecting fails), `restore()`
// lets connections through again. `freeze()` is a host that vanished: nothing is forwarded and
// nothing is closed (new connections are accepted and left hanging), so the broker learns of it
// only when the client's keep-alive runs out; `thaw()` ends it. The sockets and threads are
// LoopbackRelay's.

import Foundation
import Locking

final class TCPRelay: Sendable {
    private struct State {
        var open = true
        var frozen = false
    }
    private let state: Locked<State>
    private let relay: LoopbackRelay

    var port: Int { relay.port }

    /// Listens on a free loopback port and relays to 127.0.0.1:`upstreamPort`; nil if it cannot listen.
    init?(to upstreamPort: Int) {
        let state = Locked(State())
        guard let relay = LoopbackRelay(to: upstreamPort, admit: { _ in
            let (open, frozen) = state.withLock { ($0.open, $0.frozen) }
            if frozen { return .hang }
            return open ? .relay { Passing(state: state) } : .close
        }) else { return nil }
        self.state = state
        self.relay = relay
    }

    /// Ends every relayed connection and refuses new ones until `restore()`.
    func cut() {
        state.withLock { $0.open = false }
        relay.cutAll()
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
        state.withLock { $0.frozen = false }
        relay.closeHanging()
    }

    func stop() {
        thaw()
        cut()
        relay.stop()
    }

    /// The bytes as they are, none while frozen.
    private final class Passing: RelayStream {
        let state: Locked<State>
        init(state: Locked<State>) { self.state = state }
        var isHeld: Bool { state.withLock { $0.frozen } }
        func forward(_ bytes: ArraySlice<UInt8>, fromClient: Bool, send: ([UInt8]) -> Bool) -> Bool { send(Array(bytes)) }
    }
}
