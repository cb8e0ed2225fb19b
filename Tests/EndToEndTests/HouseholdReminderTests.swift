// A person is reminded once across a hand-over (docs/design.md 6), with real parts: a real
// mosquitto, three `aquavate-bridge run` daemons, each with its own private bus and an
// `aquavate-sim` of the one shared bottle, and a scheduled intake (docs/reminders.md 3) due at the
// same whole minute in every daemon's engine. The last syncer is SIGKILLed before it fires: the
// others' engines all fire, and exactly one bridge delivers.

import BusTestSupport
import Foundation
import History
import Locking
import Logging
import ProcessSupport
@testable import Sinks
import TestFixtures
import Testing

@Suite("a household reminds a person once, across a hand-over")
struct HouseholdReminderTests {
    let rooms = HouseholdRoomsTests()

    /// The daemon of `room`, its reminders in UTC.
    func daemon(_ room: HouseholdRoomsTests.Room, port: Int) throws -> ChildProcess {
        try room.bus.spawn(LiveCommandTests.bridge, [
            "run", "--db", room.db, "--cooldown", "1", "--failure-pause", "1", "--set", "timezone=UTC",
            "--set", "mqtt.url=mqtt://127.0.0.1:\(port)", "--set", "bridge.id=\(room.name)", "--set", "desktop.enabled=false",
        ] + HouseholdTestKey.option, logName: room.name)
    }

    /// Whether this room's bridge synced the shared bottle: adopted under its serial, and a session
    /// through this room's simulator ended (with nothing new to sync, a sync leaves no `last_sync`).
    func synced(_ room: HouseholdRoomsTests.Room) -> Bool {
        guard let history = try? DrinkHistory(path: room.db), let bottles = try? history.bottles.all(),
              bottles.contains(where: { $0.id == HouseholdRoomsTests.serial && $0.address != nil }) else { return false }
        return room.bus.log(room.name).contains("had nothing to sync") || bottles.contains { $0.lastSync != nil }
    }

    /// The journal lines of a delivery of notification `id` in this room's log (JournalSink).
    func deliveries(_ room: HouseholdRoomsTests.Room, _ id: String) -> Int {
        room.bus.log(room.name).split(separator: "\n").filter { $0.contains("notification id=\(id) ") }.count
    }

    /// Whether this room's engine fired notification `id` (its delivered log has it, delivered here or withheld).
    func fired(_ room: HouseholdRoomsTests.Room, _ id: String) -> Bool {
        guard let history = try? DrinkHistory(path: room.db), let log = try? history.reminders.delivered() else { return false }
        return log.contains { $0.id == id }
    }

    @Test("the last syncer killed before a scheduled reminder is due: every other engine fires it, exactly one bridge delivers it, once")
    func remindedOnceAcrossHandOver() async throws {
        try await rooms.withRooms(["kitchen", "office", "attic"], records: 5) { rooms, folder in
            // Due at the next whole minute at least 40 s away (three syncs happen before), the same in every room.
            let now = Date().timeIntervalSince1970
            let due = ((now + 40) / 60).rounded(.up) * 60
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
            let first = formatter.string(from: Date(timeIntervalSince1970: due))
            let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date(timeIntervalSince1970: due))
            let id = "reminder-HO-\(parts.hour!)-\(parts.minute!)"
            for room in rooms {
                let added = try await runTool(LiveCommandTests.bridge, [
                    "schedule", "add", "--id", "HO", "--name", "Hand-over", "--intake", "zinc", "--frequency", "daily",
                    "--first", first, "--db", room.db, "--set", "timezone=UTC",
                ])
                #expect(added.status == 0, "\(added)")
            }
            let port = try freeTCPPort()
            let mosquitto = try self.rooms.broker(rooms[0].bus, folder, port: port)
            defer { mosquitto.killNow() }
            // Each room syncs the bottle in turn (the one before no longer hears it): every bridge
            // runs the bottle's reminders, and the attic synced it last.
            var bridges: [ChildProcess] = []
            for (index, room) in rooms.enumerated() {
                bridges.append(try daemon(room, port: port))
                do {
                    try await waitUntil(.seconds(30), "the \(room.name) to sync the bottle") { synced(room) }
                } catch {
                    Issue.record("\(room.name.uppercased()):\n\(room.bus.log(room.name))\nSIM:\n\(room.bus.log("\(room.name)-sim").suffix(3000))")
                    throw error
                }
                if index < rooms.count - 1 { try await self.rooms.hook(room, "Sleep") }
            }
            // The attic's sync is told to the household just after its session ends: killed before
            // the others heard it, the attic never was their last syncer (then the office, alive,
            // rightly reminds). So the others hear it first.
            try await waitUntil(.seconds(30), "the kitchen and the office to hear the attic synced last") {
                rooms.prefix(2).allSatisfy { $0.bus.log($0.name).contains("bridge attic synced bottle") }
            }
            #expect(Date().timeIntervalSince1970 < due - 5, "set up before the reminder is due (else raise the lead)")
            // The last syncer dies before the reminder is due: its last will says it is offline.
            bridges[2].killNow()
            _ = await bridges[2].waitForExit(timeout: .seconds(10))
            try await self.rooms.hook(rooms[2], "DropLink")
            let alive = Array(rooms.prefix(2))
            do {
                try await waitUntil(.seconds(120), "both living engines to fire \(id)") { alive.allSatisfy { fired($0, id) } }
                // A delivery line, if any, follows the engine's record at once; a hand-over within seconds.
                try await waitUntil(.seconds(20), "a bridge to deliver \(id)") { alive.map { deliveries($0, id) }.reduce(0, +) >= 1 }
            } catch {
                Issue.record("KITCHEN:\n\(rooms[0].bus.log("kitchen"))\nOFFICE:\n\(rooms[1].bus.log("office"))")
                throw error
            }
            // Both living bridges stop cleanly (their logs complete), then count.
            await self.rooms.stop(Array(bridges.prefix(2)))
            let counts = rooms.map { deliveries($0, id) }
            if counts != [1, 0, 0] {
                Issue.record("KITCHEN:\n\(rooms[0].bus.log("kitchen"))\nOFFICE:\n\(rooms[1].bus.log("office"))\nATTIC:\n\(rooms[2].bus.log("attic"))")
            }
            #expect(counts.reduce(0, +) == 1, "exactly one bridge delivered \(id), once: \(counts)")
            #expect(counts[0] == 1, "the kitchen (the smallest alive bridge.id that runs the bottle's reminders) delivered it: \(counts)")
            #expect(!fired(rooms[2], id), "the killed attic never fired it")
        }
    }
}
