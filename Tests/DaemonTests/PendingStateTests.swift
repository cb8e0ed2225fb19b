// What the desk publishes of a bottle's commands waiting for its next connection (Home Assistant's
// "pending goal" and "pending shake-to-empty"): what the queued commands ask, as the one parser of
// the queue (`StoredCommand.action`) reads them, the newest of each kind.

import BusTestSupport
@testable import Daemon
import Foundation
import History
import Locking
import Logging
import Settings
import Sinks
import TestFixtures
import Testing
import Timekeeping

/// A sink that keeps the states the hub hands it.
final class StateSink: NotificationSink {
    let name = "state"
    var publishesState: Bool { true }
    let states = Locked<[BridgeSnapshot]>([])
    func deliver(_ notification: SinkNotification) async throws {}
    func publish(_ snapshot: BridgeSnapshot) async throws { states.withLock { $0.append(snapshot) } }
}

@Suite struct PendingStateTests {
    @Test("the published state carries the newest waiting goal and switch; an argument nothing could queue says nothing")
    func pendingCommandsInTheState() async throws {
        let folder = TemporaryFolder()
        let history = try DrinkHistory(path: folder.path + "/h.sqlite")
        let bottle = "AQ-ANA-0001"
        let time = WallInstant(secondsSince1970: 1_795_186_800)
        try history.bottles.save(BottleRecord(id: bottle, serial: bottle, address: "AA:00:00:00:00:01", goalML: 2000, lastSeen: time))
        let control = BottleControl(history: history)
        try control.queue(.goal(2200), bottle: bottle, at: time)
        try control.queue(.shakeToEmpty(true), bottle: bottle, at: time)
        try control.queue(.goal(2400), bottle: bottle, at: time)
        let sink = StateSink()
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let hub = SinkHub(sinks: [sink], logger: logger)
        await hub.start()
        let desk = ReminderDesk(history: history, configuration: Configuration(), logger: logger, hub: hub)

        await desk.connection(true, at: time, bottle: bottle)
        try await waitUntil(.seconds(60), "the connected state to reach the sink") { sink.states.withLock { $0.contains { $0.bottleConnected } } }
        var state = try #require(sink.states.withLock { $0.last { $0.bottleConnected } })
        #expect(state.pendingGoalML == 2400 && state.pendingShakeToEmpty == true && state.pendingCommands == 2, "\(state)")

        // A stored switch nothing could have queued (a hand parse read any word but "on" as off).
        _ = try history.commands.queue(bottle: bottle, command: "shake-to-empty", argument: "yes", replacing: true, at: time + .seconds(60))
        await desk.connection(false, at: time + .seconds(60), bottle: bottle)
        try await waitUntil(.seconds(60), "the disconnected state to reach the sink") { sink.states.withLock { $0.last?.bottleConnected == false } }
        state = try #require(sink.states.withLock { $0.last })
        #expect(state.pendingShakeToEmpty == nil, "\(state)")
        #expect(state.pendingGoalML == 2400)
        await hub.stop()
    }
}
