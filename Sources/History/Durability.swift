// How hard a commit tries to reach the disk before `store` returns.

/// What a committed write survives.
///
/// The live bridge ACKs a chunk only after `store` returns (docs/design.md 1), so for it a commit must
/// survive power loss, not just a crash of the process: `.full`. Replay and benchmarks rebuild
/// their history from a capture and may trade that for speed: `.normal`.
package enum Durability: Sendable, Hashable {
    /// `PRAGMA synchronous = FULL`: the WAL is synced at every commit; survives power loss.
    case full
    /// `PRAGMA synchronous = NORMAL` (GRDB's WAL default): survives a crash of the process, may
    /// lose the last commits on power loss.
    case normal

    var pragmaValue: String {
        switch self {
        case .full: "FULL"
        case .normal: "NORMAL"
        }
    }
}
