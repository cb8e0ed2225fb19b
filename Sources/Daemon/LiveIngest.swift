// The live session's side of the one ingest path: the session tells this `BottleObserver` what
// the bottle said, and it hands each thing to `BottleIngest` (the same component, through the
// same protocol, that replay feeds), adding only what a running daemon does beside it: a
// watchdog mark for each step of progress, the sync tally, the bottle's name for the sinks the
// moment its serial is known. What the ingest reports is logged, and what it tells the reminders
// is handed, in order, to the daemon's reminder actor by a consumer task (the session must not
// wait for the reminders between a chunk's commit and its ACK).

import AquavateProtocol
import BottleSession
import Foundation
import History
import Ingest
import Logging
import Reports
import Timekeeping

final class LiveIngest: BottleObserver {
    let ingest: BottleIngest
    private let desk: ReminderDesk
    private let syncs: SyncTally?
    private let heartbeat: Heartbeat
    private let inputs: AsyncStream<ReminderInput>.Continuation
    private let consumer: Task<Void, Never>

    init(history: DrinkHistory, desk: ReminderDesk, bottleID: String, name: String? = nil, syncs: SyncTally? = nil,
         heartbeat: Heartbeat = .unobserved, logger: Logger) {
        self.desk = desk
        self.syncs = syncs
        self.heartbeat = heartbeat
        let (stream, continuation) = AsyncStream<ReminderInput>.makeStream()
        inputs = continuation
        // The inputs of this session's bottle, by its key as it stands (its serial once read).
        consumer = Task {
            var key = bottleID
            for await input in stream {
                await desk.apply(input, bottle: key)
                if case .identified(_, let serial, _) = input { key = serial }
            }
        }
        let timeZone = desk.timeZone
        ingest = BottleIngest(history: history, bottleID: bottleID, name: name, logger: logger,
                              emit: { event in
                                  Self.log(event, timeZone: timeZone, logger: logger)
                                  if case .command(let command) = event { desk.publish(command) }
                              }, remind: { continuation.yield($0) })
    }

    // MARK: BottleObserver: the ingest's, with a watchdog mark at each step (each is progress)

    func store(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant) throws -> [StoreResult] {
        let results = try ingest.store(records, bottle: bottle, at: storedAt)
        heartbeat.mark("\(results.count) record(s) stored")
        return results
    }

    func committed(_ results: [StoreResult], bottle: String) {
        ingest.committed(results, bottle: bottle)
    }

    func heard(_ current: CurrentState, at time: WallInstant) {
        heartbeat.mark("current state received")
        ingest.heard(current, at: time)
    }

    @discardableResult
    func heard(_ config: BottleConfig, at time: WallInstant) -> Bool {
        heartbeat.mark("bottle config received")
        return ingest.heard(config, at: time)
    }

    func heardBattery(_ percent: Int, at time: WallInstant) {
        heartbeat.mark("battery level received")
        ingest.heardBattery(percent, at: time)
    }

    func heard(_ identity: BottleIdentity, at time: WallInstant) {
        heartbeat.mark("device information read")
        ingest.heard(identity, at: time)
        // Before any drink of this session is published: the sinks name the bottle by it.
        if let bottle = try? ingest.history.bottles.bottle(id: ingest.bottleID) { desk.identifyNow(bottle) }
    }

    func heard(_ settings: DeviceSettings, at time: WallInstant) {
        heartbeat.mark("device settings read")
        ingest.heard(settings, at: time)
    }

    func heard(_ offset: BottleClockOffset, at time: WallInstant) {
        heartbeat.mark("bottle clock compared")
        ingest.heard(offset, at: time)
    }

    func heardActivity(motion: [MotionEvent], backpack: [BackpackSession], at time: WallInstant) {
        heartbeat.mark("activity fetched")
        ingest.heardActivity(motion: motion, backpack: backpack, at: time)
    }

    func syncEnded(_ outcome: SyncOutcome, records: Int, chunks: Int, refusal: String?, at time: WallInstant) {
        heartbeat.mark("sync round ended (\(outcome.rawValue))")
        ingest.syncEnded(outcome, records: records, chunks: chunks, refusal: refusal, at: time)
        syncs?.count(bottle: ingest.bottleID, outcome: outcome.rawValue)
    }

    func disconnected(at time: WallInstant) {
        ingest.disconnected(at: time)
    }

    /// The session ended (it said `disconnected`): the reminders have heard everything.
    func finish() async {
        inputs.finish()
        await consumer.value
    }

    /// The daemon's journal lines for what the ingest reports, a drink's time local to `timeZone`.
    private static func log(_ event: BridgeEvent, timeZone: TimeZone, logger: Logger) {
        switch event {
        case .drink(let drink) where drink.isNew:
            let when = LocalTimeText.format(WallInstant(secondsSince1970: Double(drink.timestamp)), in: timeZone)
            logger.info("drink #\(drink.recordID) at \(when): \(drink.amountML) ml\(drink.deleted ? " (deleted)" : "")")
        case .sync(let sync):
            let quarantined = sync.quarantined > 0 ? ", \(sync.quarantined) quarantined" : ""
            logger.info("sync \(sync.outcome.rawValue): \(sync.records) record(s) in \(sync.chunks) chunk(s)\(quarantined)")
        default:
            break
        }
    }
}
