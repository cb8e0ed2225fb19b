// The daemon's reminder desk: deliveries reach the sinks, the person's commands from a sink
// (a notification button, `config set`, `log`) reach the engine and the database.

import BusTestSupport
@testable import Daemon
import Foundation
import History
import Locking
import Logging
@testable import Settings
import Sinks
import TestFixtures
import Testing
import Timekeeping

/// A sink that records what it gets and reaches a person.
final class RecordingSink: NotificationSink {
    let name = "recording"
    let received = Locked<[SinkNotification]>([])
    func deliver(_ notification: SinkNotification) async throws {
        received.withLock { $0.append(notification) }
    }
}

@Suite("Reminder desk (daemon)")
struct ReminderDeskTests {
    @Test("a ritual reaches the sinks; Did This and Start Ritual pressed in a sink are recorded and answered")
    func ritualButtons() async throws {
        let folder = TemporaryFolder()
        let file = folder.write("bridge.toml", """
            timezone = "Europe/Madrid"
            [reminders]
            enabled = false
            [rituals]
            enabled = true
            morning = "08:30"
            terrain = "cold_deficient"
            nickname = "Low Flame"
            """)
        let history = try DrinkHistory(path: folder.path + "/h.sqlite")
        let configuration = try Configuration.load(file: file, mustExist: true)
        let sink = RecordingSink()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let hub = SinkHub(sinks: [sink], logger: logger)
        await hub.start()
        let desk = ReminderDesk(history: history, configuration: configuration, logger: logger, hub: hub)
        let sunday0800: WallInstant = WallInstant(secondsSince1970: 1_795_330_800) // 2026-11-22 08:00 Madrid
        await desk.advance(to: sunday0800)
        // Minute by minute, as the daemon's ticker: a longer gap is a clock jump (a restart).
        for minute in (sunday0800 + .seconds(60)).everyMinute(through: sunday0800 + .seconds(3600)) {
            await desk.advance(to: minute)
        }
        // The hub delivers on its own task: a deadline, not a measure. 10 s ran out twice with the
        // machine's load at 20 (two test targets, four builds and the chaos seeds at once).
        try await waitUntil(.seconds(60), "the morning ritual to reach the sink") {
            sink.received.withLock { $0.contains { $0.kind == "ritual" } }
        }
        let ritual = try #require(sink.received.withLock { $0.first { $0.kind == "ritual" } })
        #expect(ritual.title.contains("Low Flame"))
        #expect(ritual.actions.map(\.id) == ["did-this", "start-ritual"])
        await desk.handle(.action(notificationID: ritual.id, actionID: "did-this"), at: sunday0800 + .seconds(3700))
        #expect(try history.reminders.personEvents().map(\.name) == ["did-this"])
        await desk.handle(.action(notificationID: ritual.id, actionID: "start-ritual"), at: sunday0800 + .seconds(3800))
        try await waitUntil(.seconds(60), "the ritual_started event") {
            sink.received.withLock { $0.contains { $0.kind == "ritual_started" } }
        }
        let started = try #require(sink.received.withLock { $0.first { $0.kind == "ritual_started" } })
        #expect(started.body == ritual.body)
        // config set from a sink is checked, saved, and applied; a bad one changes nothing.
        await desk.handle(.configSet(key: "reminders.daily_limit", value: "false"), at: sunday0800 + .seconds(3900))
        #expect(try history.settings.value("reminders.daily_limit") == "false")
        await desk.handle(.configSet(key: "reminders.daily_limit", value: "maybe"), at: sunday0800 + .seconds(3910))
        #expect(try history.settings.value("reminders.daily_limit") == "false")
        await desk.handle(.log(type: "vitamin-d"), at: sunday0800 + .seconds(4000))
        #expect(try history.reminders.personEvents().map(\.name) == ["did-this", "start-ritual", "vitamin-d"])
        await hub.stop()
    }
}
