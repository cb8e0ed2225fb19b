// `run` reads BlueZ's objects while it opens the history. The two wait on different things (the
// history on the disk: a new one syncs its file seven times; BlueZ on bluetoothd's replies), and
// one after the other they were about a tenth of a one-shot sync (Benchmarks/once-timeline.sh,
// phases "database" and "bluez"). The daemon's loop takes the client begun here at its first
// pass; when there was none, or it failed, the loop connects itself as it always did, so a
// failure here is reported and retried exactly as one there.

import BlueZ
import DBus
import Locking

package final class BlueZHeadStart: Sendable {
    private let connecting: Task<BlueZClient, any Error>
    private let taken = Locked(false)

    /// Starts connecting to BlueZ on `bus` now.
    package init(bus: BusAddress) {
        connecting = Task { try await BlueZClient.connect(bus: bus) }
    }

    /// The client begun at `init`, the first time (its error if it failed); nil after that.
    package func take() async throws -> BlueZClient? {
        guard claim() else { return nil }
        return try await connecting.value
    }

    /// Closes the client when nobody took it (the run ended before the daemon's first pass).
    package func discard() async {
        guard claim() else { return }
        connecting.cancel()
        if let client = try? await connecting.value { await client.close() }
    }

    private func claim() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
