// The bottle's activity buffers (docs/protocol.md 3.8, 6.6): wake events and backpack sessions, kept in
// RTC memory (they survive deep sleep), served on request as Activity Stats notifications.
import AquavateProtocol

struct ActivityLog: Sendable, Hashable {
    static let maxMotionEvents = 100
    static let maxBackpackSessions = 20

    var motionEvents: [MotionEvent] = []
    var backpackSessions: [BackpackSession] = []
    /// When the current wake began (bottle time), for its duration at sleep.
    var wakeStarted: UInt32 = 0
    var drinkThisWake = false

    /// `motion` past wakes an hour apart and `backpack` past sessions a day apart, ending at
    /// `now`, plus the current wake ("still awake"): deterministic for a given `now`.
    static func sample(motion: Int, backpack: Int, now: UInt32) -> ActivityLog {
        var log = ActivityLog()
        let pastWakes = max(0, min(motion, maxMotionEvents) - 1)
        for index in 0..<pastWakes {
            let start = now &- UInt32((pastWakes - index) * 3600)
            log.motionEvents.append(MotionEvent(
                timestamp: start, durationSec: UInt16(30 + (index * 7) % 60), wakeReason: index % 5 == 4 ? .timer : .motion,
                sleepTypeRaw: index % 3 == 0 ? 0x80 : 0x00))
        }
        for index in 0..<min(backpack, maxBackpackSessions) {
            let start = now &- UInt32((min(backpack, maxBackpackSessions) - index) * 86_400 + 7200)
            log.backpackSessions.append(BackpackSession(
                startTimestamp: start, durationSec: UInt32(3600 + index * 600), timerWakeCount: UInt16(index + 1),
                exitReason: .motion))
        }
        if motion > 0 { log.beginWake(at: now, reason: .powerOn) }
        return log
    }

    mutating func beginWake(at now: UInt32, reason: WakeReason) {
        wakeStarted = now
        drinkThisWake = false
        motionEvents.append(MotionEvent(timestamp: now, durationSec: 0, wakeReason: reason, sleepTypeRaw: 0x7F))
        if motionEvents.count > Self.maxMotionEvents { motionEvents.removeFirst(motionEvents.count - Self.maxMotionEvents) }
    }

    mutating func endWake(at now: UInt32) {
        guard let last = motionEvents.indices.last, motionEvents[last].sleepType == .stillAwake else { return }
        motionEvents[last].durationSec = UInt16(clamping: Int64(now) - Int64(wakeStarted))
        motionEvents[last].sleepTypeRaw = drinkThisWake ? 0x80 : 0x00
    }

    func summary(clockValid: Bool) -> ActivitySummary {
        ActivitySummary(motionEventCount: UInt8(clamping: motionEvents.count),
                        backpackSessionCount: UInt8(clamping: backpackSessions.count), inBackpackModeRaw: 0,
                        flags: clockValid ? 1 : 0, currentSessionStart: 0, currentTimerWakes: 0)
    }

    /// Motion chunk `index`, or nil when it does not exist (no response at all, B16).
    func motionChunk(_ index: Int) -> MotionEventChunk? {
        let total = max(1, ChunkSizing.totalChunks(records: motionEvents.count, chunkSize: MotionEventChunk.maxEvents))
        guard index < total else { return nil }
        let events = Array(motionEvents.dropFirst(index * MotionEventChunk.maxEvents).prefix(MotionEventChunk.maxEvents))
        return MotionEventChunk(chunkIndex: UInt8(index), totalChunks: UInt8(clamping: total), events: events)
    }

    /// Backpack chunk `index`, or nil when it does not exist.
    func backpackChunk(_ index: Int) -> BackpackSessionChunk? {
        let total = max(1, ChunkSizing.totalChunks(records: backpackSessions.count, chunkSize: BackpackSessionChunk.maxSessions))
        guard index < total else { return nil }
        let sessions = Array(backpackSessions.dropFirst(index * BackpackSessionChunk.maxSessions)
            .prefix(BackpackSessionChunk.maxSessions))
        return BackpackSessionChunk(chunkIndex: UInt8(index), totalChunks: UInt8(clamping: total), sessions: sessions)
    }
}
