// Activity Stats values as the answers to the requests that asked for them (docs/protocol.md 3.8,
// B16): the payload does not say what it is, so a value is read as the reply to the one request
// outstanding — a summary, a motion-event chunk or a backpack-session chunk — and a value with
// no request outstanding (a read echo, B5) is nothing. Replay follows a recorded fetch with it.

public struct ActivityReplies: Sendable, Equatable {
    public private(set) var motion: [MotionEvent] = []
    public private(set) var backpack: [BackpackSession] = []
    public private(set) var summary: ActivitySummary?
    private var outstanding: Command?

    public init() {}

    /// Whether anything was gathered.
    public var isEmpty: Bool { summary == nil && motion.isEmpty && backpack.isEmpty }

    /// A write to Command: an activity request becomes the one outstanding.
    public mutating func requested(_ command: Command) {
        switch command {
        case .getActivitySummary, .getMotionChunk, .getBackpackChunk: outstanding = command
        default: break
        }
    }

    /// An Activity Stats value; false when it answered nothing or did not decode.
    @discardableResult
    public mutating func received(_ bytes: [UInt8]) -> Bool {
        guard let request = outstanding else { return false }
        outstanding = nil
        switch request {
        case .getActivitySummary:
            guard let decoded = try? ActivitySummary(decoding: bytes) else { return false }
            summary = decoded
        case .getMotionChunk(let index):
            guard let chunk = try? MotionEventChunk(decoding: bytes), chunk.chunkIndex == index else { return false }
            motion += chunk.events
        case .getBackpackChunk(let index):
            guard let chunk = try? BackpackSessionChunk(decoding: bytes), chunk.chunkIndex == index else { return false }
            backpack += chunk.sessions
        default:
            return false
        }
        return true
    }
}
