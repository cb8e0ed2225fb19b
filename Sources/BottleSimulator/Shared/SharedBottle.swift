// One physical bottle heard in several rooms: several simulator processes (each on its own bus,
// standing for one room's bluetoothd) share the bottle's drink store and its single LE link
// through three files in a directory, named after the bottle's address:
//
//   F4-12-FA-00-A3-F4.ring   the ring (records, flags, the id counter) as JSON;
//   F4-12-FA-00-A3-F4.lock   flock'ed around every change of the simulator's state; its first 8
//                            bytes count the ring's rewrites, so a process reloads the ring only
//                            when another one changed it;
//   F4-12-FA-00-A3-F4.link   flock'ed by the process whose central holds the link, for as long as
//                            it does (the kernel lets go when that process dies, as a real bottle's
//                            supervision time-out would).
//
// The ring is one store: records drained by one room's sync are synced for every room, and a
// drink added through any simulator is one record. Only one link at a time: while another room
// holds it the bottle does not advertise here (a connected peripheral stops advertising) and a
// Connect waits and fails as BlueZ fails it for a bottle that never answers. Everything else
// (the sync engine's RAM, the water, the daily total, calibration) is each room's own: a room
// that connects after another starts its own sync from the ring as it is.
//
// Every test of and change to the link happens while the store's lock is held, so a process that
// probes the link (flock LOCK_NB, then LOCK_UN) can never make another's Connect fail.
import AquavateProtocol
import Foundation
import Glibc

struct SharedBottle: Sendable {
    let ringURL: URL
    let storeLock: Int32
    let linkLock: Int32
    /// The ring's rewrite count when this process last read or wrote it.
    private var generation: UInt64 = .max
    /// The ring as this process last read or wrote it.
    private var ring: DrinkRing?
    /// This process's central holds the link.
    private(set) var holdsLink = false
    /// Another room's central holds the link (as of the last `begin`).
    private(set) var linkedElsewhere = false

    /// Opens (creating) the bottle's files in `directory`.
    /// - Throws: `SharedBottleUnusable` when the directory or a file cannot be opened.
    init(directory: URL, address: String) throws {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stem = address.uppercased().replacingOccurrences(of: ":", with: "-")
        ringURL = directory.appendingPathComponent(stem + ".ring")
        func open(_ suffix: String) throws -> Int32 {
            let path = directory.appendingPathComponent(stem + suffix).path
            let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw SharedBottleUnusable(reason: "cannot open \(path): \(String(cString: strerror(errno)))")
            }
            return fd
        }
        storeLock = try open(".lock")
        do {
            linkLock = try open(".link")
        } catch {
            Glibc.close(storeLock)
            throw error
        }
    }

    /// Takes the store's lock and brings `ring` up to date with the store (the first process to
    /// come seeds the store with its own ring at `end`). Also learns whether another room holds
    /// the link.
    /// - Returns: the store's ring when it differs from what this process last saw, else nil.
    mutating func begin() -> DrinkRing? {
        while flock(storeLock, LOCK_EX) != 0 && errno == EINTR {}
        if !holdsLink {
            if flock(linkLock, LOCK_EX | LOCK_NB) == 0 {
                flock(linkLock, LOCK_UN)
                linkedElsewhere = false
            } else {
                linkedElsewhere = true
            }
        }
        var stored: UInt64 = 0
        let read = pread(storeLock, &stored, 8, 0)
        guard read == 8, stored != generation else { return nil }
        generation = stored
        guard let data = try? Data(contentsOf: ringURL), let file = try? JSONDecoder().decode(SharedRingFile.self, from: data)
        else { return nil }
        ring = file.ring
        return file.ring
    }

    /// Writes `current` to the store if it changed, then lets go of the store's lock.
    mutating func end(_ current: DrinkRing) {
        defer { flock(storeLock, LOCK_UN) }
        guard current != ring else { return }
        do {
            try JSONEncoder().encode(SharedRingFile(current)).write(to: ringURL, options: .atomic)
        } catch {
            return  // the next change tries again; the other rooms keep the ring they have
        }
        var stored: UInt64 = 0
        if pread(storeLock, &stored, 8, 0) != 8 { stored = 0 }
        stored = stored == .max - 1 ? 0 : stored + 1
        guard pwrite(storeLock, &stored, 8, 0) == 8 else { return }
        generation = stored
        ring = current
    }

    /// The link, if no other room holds it (call between `begin` and `end`).
    mutating func takeLink() -> Bool {
        guard !holdsLink else { return true }
        guard flock(linkLock, LOCK_EX | LOCK_NB) == 0 else {
            linkedElsewhere = true
            return false
        }
        holdsLink = true
        linkedElsewhere = false
        return true
    }

    mutating func releaseLink() {
        guard holdsLink else { return }
        flock(linkLock, LOCK_UN)
        holdsLink = false
    }

    func close() {
        Glibc.close(storeLock)
        Glibc.close(linkLock)
    }
}

/// The `.ring` file: the records as the state file lists them, and the id counter.
struct SharedRingFile: Codable {
    var records: [BottleStateSnapshot.Record]
    var nextRecordID: UInt32

    enum CodingKeys: String, CodingKey {
        case records, nextRecordID = "next_record_id"
    }

    init(_ ring: DrinkRing) {
        records = ring.records.map(BottleStateSnapshot.Record.init)
        nextRecordID = ring.nextRecordID
    }

    var ring: DrinkRing {
        DrinkRing(records: records.map(\.stored.record), nextRecordID: nextRecordID)
    }
}

/// `--shared-bottle DIR` cannot be used.
package struct SharedBottleUnusable: Error, CustomStringConvertible {
    package var reason: String
    package var description: String { "shared bottle: \(reason)" }
}
