// The live session's side of the one ingest path: the session's events go to `BottleIngest`
// (the same component replay feeds), what it reports is logged, and what it tells the reminders
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

struct SessionEventSink: Sendable {
    let ingest: BottleIngest
    private let desk: ReminderDesk
    private let syncs: SyncTally?
    private let inputs: AsyncStream<ReminderInput>.Continuation
    private let consumer: Task<Void, Never>

    init(history: DrinkHistory, desk: ReminderDesk, bottleID: String, syncs: SyncTally? = nil, logger: Logger) {
        self.desk = desk
        self.syncs = syncs
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
        ingest = BottleIngest(history: history, bottleID: bottleID, logger: logger,
                              emit: { event in
                                  Self.log(event, timeZone: timeZone, logger: logger)
                                  if case .command(let command) = event { desk.publish(command) }
                              }, remind: { continuation.yield($0) })
    }

    /// One event of the session, as it happens.
    func handle(_ event: SessionEvent) {
        switch event {
        case .currentState(let state, let time): ingest.heard(state, at: time)
        case .battery(let percent, let time): ingest.heardBattery(percent, at: time)
        case .bottleConfig(let config, let time): ingest.heard(config, at: time)
        case .stored: break  // the ingest stored the chunk itself (it is the session's DrinkStore)
        case .syncEnded(let round):
            ingest.syncEnded(round.outcome, records: round.records, chunks: round.chunks, refusal: round.refusal, at: round.endedAt)
            syncs?.count(bottle: ingest.bottleID, outcome: round.outcome.rawValue)
        case .identity(let identity, let time):
            ingest.heard(identity, at: time)
            // Before any drink of this session is published: the sinks name the bottle by it.
            if let bottle = try? ingest.history.bottleState(id: ingest.bottleID) { desk.identifyNow(bottle) }
        case .deviceSettings(let settings, let time): ingest.heard(settings, at: time)
        case .clockOffset(let offset, let time): ingest.heard(offset, at: time)
        case .activity(let motion, let backpack, let time): ingest.heardActivity(motion: motion, backpack: backpack, at: time)
        }
    }

    /// The session ended: what is pending is written, the reminders have heard everything.
    func finish(at time: Double) async {
        ingest.disconnected(at: time)
        inputs.finish()
        await consumer.value
    }

    /// The daemon's journal lines for what the ingest reports, a drink's time local to `timeZone`.
    private static func log(_ event: BridgeEvent, timeZone: TimeZone, logger: Logger) {
        switch event {
        case .drink(let drink) where drink.isNew:
            let when = LocalTimeText.format(Double(drink.timestamp), in: timeZone)
            logger.info("drink #\(drink.recordID) at \(when): \(drink.amountML) ml\(drink.deleted ? " (deleted)" : "")")
        case .sync(let sync):
            let quarantined = sync.quarantined > 0 ? ", \(sync.quarantined) quarantined" : ""
            logger.info("sync \(sync.outcome.rawValue): \(sync.records) record(s) in \(sync.chunks) chunk(s)\(quarantined)")
        default:
            break
        }
    }
}
