// One scan for advertising bottles, shared by `scan` (prints each bottle as it appears) and
// `setup` (offers the bottles seen to adopt).

import BlueZ
import Foundation
import Timekeeping

enum BottleScan {
    /// Scans on `adapter` (nil: the first powered one) for `seconds`, calling `onNew` with each
    /// bottle the first time it is seen. Returns the adapter's name and the bottles, in the order
    /// seen. Throws BlueZ's errors (no bluetoothd, no adapter, adapter off).
    static func run(adapter: String?, seconds: Double, onNew: (Sighting) -> Void = { _ in }) async throws
        -> (adapter: String, bottles: [Sighting]) {
        let client = try await BlueZClient.connect()
        let chosen = try client.chooseAdapter(named: adapter)
        let discovery = Discovery(client: client, adapter: chosen)
        let sightings = discovery.sightings()
        try await discovery.start()
        let clock = client.clock
        let deadline = clock.deadline(after: .milliseconds(Int64(seconds * 1000)))
        var seen = Set<String>()
        var bottles: [Sighting] = []
        while case let remaining = clock.timeLeft(until: deadline), remaining > .zero,
              let sighting = await sightings.next(within: remaining) {
            guard seen.insert(sighting.address.uppercased()).inserted else { continue }
            bottles.append(sighting)
            onNew(sighting)
        }
        sightings.cancel()
        await discovery.stop()
        await client.close()
        return (chosen.name, bottles)
    }
}
