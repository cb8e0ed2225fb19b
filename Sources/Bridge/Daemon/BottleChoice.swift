// Which advertising bottle the daemon talks to. A household can have several `Aquavate-`
// bottles in range; the bridge adopts one and ignores the others unless told otherwise
// (`--bottle ADDRESS`, `--adopt`).

import BlueZ
import History

struct BottleChoice: Sendable {
    /// `--bottle`: only this address.
    let pinned: String?
    /// `--adopt`: the next bottle seen, whoever it is.
    private(set) var adoptNext: Bool
    /// The remembered bottle.
    private(set) var adopted: String?

    init(pinned: String?, adoptNext: Bool, remembered: String?) {
        self.pinned = pinned?.uppercased()
        self.adoptNext = adoptNext
        self.adopted = remembered?.uppercased()
    }

    /// The bottle the history last synced (or saw) that has an address.
    static func remembered(in history: DrinkHistory) -> String? {
        let bottles = (try? history.bottles()) ?? []
        return bottles.filter { $0.address != nil }
            .max { ($0.lastSync ?? $0.lastSeen ?? 0) < ($1.lastSync ?? $1.lastSeen ?? 0) }?.address
    }

    func accepts(_ sighting: Sighting) -> Bool {
        let address = sighting.address.uppercased()
        if let pinned { return address == pinned }
        if adoptNext { return true }
        return adopted.map { $0 == address } ?? true
    }

    /// The bottle it waits for, in words (for messages).
    var wanted: String {
        pinned ?? adopted ?? "any"
    }

    /// Remembers the bottle a session was opened with.
    mutating func adopt(_ address: String) {
        guard pinned == nil else { return }
        adopted = address.uppercased()
        adoptNext = false
    }
}
