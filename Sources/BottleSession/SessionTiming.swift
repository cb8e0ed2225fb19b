// The time-outs and intervals of a session (PROTOCOL.md 4.6, 7.2; B13).

public struct SessionTiming: Sendable, Equatable {
    /// No chunk within this after START: an empty sync (PROTOCOL.md 4.6, B2: 3 s).
    public var firstChunk: Duration
    /// No next chunk within this after an ACK: the sync stalled (5 s).
    public var betweenChunks: Duration
    /// PING period while something needs the bottle awake: under the 30 s activity timer (B13).
    public var keepAliveInterval: Duration
    /// START at most this many times per connection (each complete round marks records synced,
    /// so more than a few means something is wrong).
    public var maxRounds: Int

    public init(firstChunk: Duration = .seconds(3), betweenChunks: Duration = .seconds(5),
                keepAliveInterval: Duration = .seconds(20), maxRounds: Int = 8) {
        self.firstChunk = firstChunk
        self.betweenChunks = betweenChunks
        self.keepAliveInterval = keepAliveInterval
        self.maxRounds = maxRounds
    }

    public static let standard = SessionTiming()
}
