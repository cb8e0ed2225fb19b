// The activity statistics, fetched after the sync the way the phone app does (docs/protocol.md 6.6):
// one request at a time on Activity Stats — the summary, then each motion-event chunk, then each
// backpack-session chunk. The payload does not say what it is (B16), so each value is read as
// the answer to the one request outstanding; a request the bottle does not answer (an index it
// does not have) ends the fetch after a short wait. What arrived is reported; nothing here can
// hold up or endanger the drinks, which are committed before this starts.

import Timekeeping
import AquavateProtocol

extension BottleSession {
    /// How long one activity request waits for its answer.
    static let activityAnswer: Duration = .seconds(2)

    func fetchActivityStats() async throws {
        guard link.offers(.activityStats) else { return }
        guard (try await optional("subscribe to activity-stats", { try await link.startNotifications(.activityStats) })) != nil else { return }
        guard let summaryBytes = try await request(.getActivitySummary),
              let summary = try? ActivitySummary(decoding: summaryBytes) else {
            logger.notice("\(bottleName): no activity summary; activity not fetched")
            return
        }
        var motion: [MotionEvent] = []
        for index in 0..<summary.motionChunkCount {
            guard let bytes = try await request(.getMotionChunk(UInt8(index))),
                  let chunk = try? MotionEventChunk(decoding: bytes), Int(chunk.chunkIndex) == index else { break }
            motion += chunk.events
            if chunk.isLast { break }
        }
        var backpack: [BackpackSession] = []
        for index in 0..<summary.backpackChunkCount {
            guard let bytes = try await request(.getBackpackChunk(UInt8(index))),
                  let chunk = try? BackpackSessionChunk(decoding: bytes), Int(chunk.chunkIndex) == index else { break }
            backpack += chunk.sessions
            if chunk.isLast { break }
        }
        observer.heardActivity(motion: motion, backpack: backpack, at: clock.now)
    }

    /// Writes one request and waits for the Activity Stats value that answers it (nil: none came).
    private func request(_ command: Command) async throws -> [UInt8]? {
        try await write(.command, command.encoded())
        let deadline = clock.now + Self.activityAnswer
        // Progress: each pass takes one event or ends at the deadline; a lost link throws.
        while let event = try await nextEvent(until: deadline) {
            if case .value(.activityStats, let bytes) = event { return bytes }
        }
        return nil
    }
}
