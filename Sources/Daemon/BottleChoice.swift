// Which advertising bottles the daemon talks to. A household can have several `Aquavate-`
// bottles in range; the bridge syncs every bottle it adopted (docs/design.md 6), one
// connection at a time, and ignores the others unless told otherwise (`--bottle ADDRESS`,
// `--adopt`). A bottle just synced rests for the cool-down (talking keeps it awake) while the
// others may still be synced.

import BlueZ
import History
import Timekeeping

struct BottleChoice: Sendable {
    /// `--bottle`: only this address.
    let pinned: String?
    /// `--adopt`: the next new bottle seen, whoever it is (the adopted ones still sync meanwhile).
    private(set) var adoptNext: Bool
    /// The adopted bottles' addresses (upper case); none: the first bottle seen is adopted.
    private(set) var adopted: Set<String>
    /// Bottles left alone until then, after a session.
    private var resting: [String: MonotonicInstant] = [:]
    /// What a rest is measured on (the daemon's clock).
    private let clock: any MonotonicClock
    /// The history's adopted bottles when last read (`forgetAllBut`).
    private var lastRemembered: Set<String>
    /// The bottles `bottle forget` removed while this run goes on. Never taken back by the rule
    /// "none adopted: the first bottle seen is": forgetting a bridge's only bottle while it is in
    /// range would otherwise adopt it again at its next advertisement, and with it its row, its
    /// syncs and its person's reminders. `--adopt` and `--bottle` still take it.
    private var forgotten: Set<String> = []

    init(pinned: String?, adoptNext: Bool, remembered: [String], clock: any MonotonicClock = SystemClock()) {
        self.clock = clock
        self.pinned = pinned?.uppercased()
        self.adoptNext = adoptNext
        self.adopted = Set(remembered.map { $0.uppercased() })
        self.lastRemembered = adopted
    }

    /// The addresses of the bottles the history knows (each was adopted by a connection;
    /// `bottle forget` removes one).
    static func remembered(in bottles: BottleStore) -> [String] {
        ((try? bottles.all()) ?? []).compactMap(\.address)
    }

    func accepts(_ sighting: Sighting, at now: MonotonicInstant? = nil) -> Bool {
        accepts(address: sighting.address, at: now)
    }

    func accepts(address: String, at now: MonotonicInstant? = nil) -> Bool {
        let address = address.uppercased()
        if isResting(address, at: now) { return false }
        if let pinned { return address == pinned }
        if adoptNext { return true }
        if forgotten.contains(address) { return false }
        return adopted.isEmpty || adopted.contains(address)
    }

    /// Whether `address` was forgotten (`bottle forget`) while this run goes on.
    func isForgotten(_ address: String) -> Bool {
        forgotten.contains(address.uppercased())
    }

    /// Whether `address` is an adopted bottle left alone after its last session.
    func isResting(_ address: String, at now: MonotonicInstant? = nil) -> Bool {
        let now = now ?? clock.instant
        return resting[address.uppercased()].map { now < $0 } ?? false
    }

    /// When `address`'s rest ends (nil: it is not resting).
    func restEnd(_ address: String, at now: MonotonicInstant? = nil) -> MonotonicInstant? {
        let now = now ?? clock.instant
        return resting[address.uppercased()].flatMap { now < $0 ? $0 : nil }
    }

    /// The bottles it waits for, in words (for messages).
    var wanted: String {
        pinned ?? (adopted.isEmpty || adoptNext ? "any" : adopted.sorted().joined(separator: ", "))
    }

    /// Whether more than one bottle may be synced (the loop then pauses briefly between
    /// sessions, and each bottle rests on its own).
    var several: Bool { pinned == nil && (adopted.count > 1 || adoptNext) }

    /// Remembers the bottle a session was opened with; a new one ends `--adopt`'s search.
    mutating func adopt(_ address: String) {
        guard pinned == nil else { return }
        let address = address.uppercased()
        if !adopted.contains(address) { adoptNext = false }
        adopted.insert(address)
        forgotten.remove(address)
    }

    /// Stops adopting the bottles that were in the history and are no longer (`remembered`, the
    /// history's, re-read before each cycle: `bottle forget` may have removed one while the
    /// daemon runs); returns them. A bottle adopted in this run whose connection the history
    /// failed to record was never remembered, so it is not dropped for that.
    mutating func forgetAllBut(_ remembered: [String]) -> [String] {
        let now = Set(remembered.map { $0.uppercased() })
        let gone = adopted.intersection(lastRemembered.subtracting(now))
        lastRemembered = now
        adopted.subtract(gone)
        forgotten.formUnion(gone)
        forgotten.subtract(now)  // adopted again through the history (another process)
        for address in gone { resting[address] = nil }
        return gone.sorted()
    }

    /// Leaves `address` alone until `until`.
    mutating func rest(_ address: String, until: MonotonicInstant) {
        resting[address.uppercased()] = until
    }
}
