// One thing waiting in a sink's queue.

import AquavateProtocol

enum SinkItem: Sendable {
    case notification(SinkNotification)
    case snapshot(BridgeSnapshot)
    case drink(Drink)
    case commandResult(SinkCommandResult)
    case bottle(SinkBottle)

    var isSnapshot: Bool {
        if case .snapshot = self { return true }
        return false
    }

    /// For a snapshot: the bottle it is about (`.some(nil)`: the bridge's bottle); nil otherwise.
    var snapshotBottle: String?? {
        if case let .snapshot(snapshot) = self { return .some(snapshot.bottle?.uppercased()) }
        return nil
    }

    /// For log lines: says which item without its whole text.
    var summary: String {
        switch self {
        case let .notification(notification): return "notification id=\(notification.id) kind=\(notification.kind)"
        case .snapshot: return "state snapshot"
        case let .drink(drink): return "drink record_id=\(drink.recordID)"
        case let .commandResult(result): return "command \(result.command) \(result.status)"
        case .bottle: return "bottle identity"
        }
    }

    func send(to sink: any NotificationSink) async throws {
        switch self {
        case let .notification(notification): try await sink.deliver(notification)
        case let .snapshot(snapshot): try await sink.publish(snapshot)
        case let .drink(drink): try await sink.publish(drink)
        case let .commandResult(result): try await sink.publish(result)
        case let .bottle(bottle): await sink.identify(bottle)
        }
    }
}
