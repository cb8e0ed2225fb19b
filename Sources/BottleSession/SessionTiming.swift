// The time-outs and intervals of a session (docs/protocol.md 4.6, 7.2; B13).

package struct SessionTiming: Sendable, Equatable {
    /// No chunk within this after START: an empty sync (docs/protocol.md 4.6, B2: 3 s).
    package var firstChunk: Duration
    /// No next chunk within this after an ACK: the sync stalled (5 s).
    package var betweenChunks: Duration
    /// PING period while something needs the bottle awake: under the 30 s activity timer (B13).
    package var keepAliveInterval: Duration
    /// START at most this many times per connection (each complete round marks records synced,
    /// so more than a few means something is wrong).
    package var maxRounds: Int
    /// A whole session (set-up, every round, the commands after it; a `holdFor` comes on top)
    /// ends by then whatever the bottle sends: 600 records a chunk at a time over a slow link
    /// take about a minute, so 3 minutes means something is wrong (a bottle that keeps
    /// talking, a spoofed one).
    package var sessionLimit: Duration

    package init(firstChunk: Duration = .seconds(3), betweenChunks: Duration = .seconds(5),
                keepAliveInterval: Duration = .seconds(20), maxRounds: Int = 8, sessionLimit: Duration = .seconds(180)) {
        self.sessionLimit = sessionLimit
        self.firstChunk = firstChunk
        self.betweenChunks = betweenChunks
        self.keepAliveInterval = keepAliveInterval
        self.maxRounds = maxRounds
    }

    package static let standard = SessionTiming()
}
