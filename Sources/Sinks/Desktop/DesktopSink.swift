// Desktop notifications through `org.freedesktop.Notifications` on the session bus (the
// Desktop Notifications Specification), with action buttons.
//
// * A notification whose id was shown before replaces it on screen (`replaces_id`), as the
//   engine's fixed ids expect (docs/reminders.md 1: "replace on same id").
// * Buttons: the spec's `actions` list of (key, label) pairs; `ActionInvoked(u id, s key)` comes
//   back as a `SinkCommand.action` with the bridge's own notification id — only when it comes
//   from the unique name that owns `org.freedesktop.Notifications` (GetNameOwner, asked at each
//   signal, so a restarted server counts): a signal carries its sender, and any other client of
//   the session bus can emit one with the same path and interface. The sink listens
//   to no other signal of the server (NotificationClosed changes nothing in the bridge).
// * No session bus (a headless Pi), or no notification server on it, is `unavailable`: the hub
//   logs it once per outage and retries with back-off. The connection is opened lazily and
//   reopened after the bus goes away.

import DBus
import Foundation
import Locking
import Logging
import MQTT

package final class DesktopSink: NotificationSink, Sendable {
    package let name = "desktop"
    private let bus: BusAddress
    private let appName: String
    private let state = Locked(State())

    private static let service = "org.freedesktop.Notifications"
    private static let path: DBusObjectPath = "/org/freedesktop/Notifications"

    private struct State {
        var connection: BusConnection?
        var context: SinkContext?
        var actionWatcher: Task<Void, Never>?
        /// The server's id of each notification we showed, by our id, and back.
        var serverIDs: [String: UInt32] = [:]
        var bridgeIDs: [UInt32: String] = [:]
    }

    /// - Parameter bus: the session bus (`DBUS_SESSION_BUS_ADDRESS`) unless told otherwise.
    package init(bus: BusAddress = .session, appName: String = "aquavate-bridge") {
        self.bus = bus
        self.appName = appName
    }

    package func start(_ context: SinkContext) async {
        state.withLock { $0.context = context }
    }

    package func stop() async {
        let (connection, watcher) = state.withLock { state -> (BusConnection?, Task<Void, Never>?) in
            defer { state.connection = nil; state.actionWatcher = nil }
            return (state.connection, state.actionWatcher)
        }
        watcher?.cancel()
        await connection?.close()
    }

    package func deliver(_ notification: SinkNotification) async throws {
        let connection = try await connected()
        let replaces = state.withLock { $0.serverIDs[notification.id] } ?? 0
        var actions: [String] = []
        for action in notification.actions {
            actions += [action.id, action.label]
        }
        // Urgency hint of the spec: 0 low, 1 normal, 2 critical.
        let urgency: UInt8 = notification.priority >= .urgent ? 2 : (notification.priority <= .low ? 0 : 1)
        let reply: [DBusValue]
        do {
            reply = try await connection.call(
                destination: Self.service, path: Self.path, interface: Self.service, method: "Notify",
                arguments: [.string(appName), .uint32(replaces), .string("dialog-information"), .string(notification.title),
                            .string(notification.body), .strings(actions),
                            .variantDictionary(["urgency": .byte(urgency), "category": .string("x-aquavate.\(notification.kind)")]),
                            .int32(-1)],
                timeout: .seconds(10))
        } catch let failure as DBusFailure where failure.name == "org.freedesktop.DBus.Error.ServiceUnknown" {
            throw SinkDeliveryError.unavailable("no desktop notification server on the session bus (\(failure.message))")
        } catch let failure as DBusFailure {
            throw SinkDeliveryError.unavailable("the notification server refused: \(failure.name): \(failure.message)")
        } catch {
            forgetConnection()
            throw SinkDeliveryError.unavailable("desktop notifications: \(error)")
        }
        guard let serverID = reply.first?.uint32 else {
            throw SinkDeliveryError.rejected("the notification server answered Notify without an id")
        }
        state.withLock {
            $0.serverIDs[notification.id] = serverID
            $0.bridgeIDs[serverID] = notification.id
        }
    }

    /// The open connection, or a new one with the ActionInvoked watcher subscribed first.
    private func connected() async throws -> BusConnection {
        if let connection = state.withLock({ $0.connection }), connection.isConnected {
            return connection
        }
        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(bus)
        } catch {
            throw SinkDeliveryError.unavailable("no session bus for desktop notifications (\(error))")
        }
        let actions = try await connection.subscribe(MatchRule(path: Self.path, interface: Self.service, member: "ActionInvoked"))
        let watcher = Task { [weak self] in
            for await signal in actions {
                guard let self, signal.arguments.count >= 2, let serverID = signal.arguments[0].uint32,
                      let key = signal.arguments[1].string else { continue }
                let owner = try? await connection.nameOwner(Self.service)
                guard signal.sender == owner else {
                    self.state.withLock { $0.context }?.logger.warning(
                        "desktop: ignored ActionInvoked from \(signal.sender): not the notification server (\(owner ?? "none"))")
                    continue
                }
                self.actionInvoked(serverID: serverID, key: key)
            }
        }
        let old = state.withLock { state -> Task<Void, Never>? in
            let old = state.actionWatcher
            state.connection = connection
            state.actionWatcher = watcher
            return old
        }
        old?.cancel()
        return connection
    }

    private func actionInvoked(serverID: UInt32, key: String) {
        let (bridgeID, context) = state.withLock { ($0.bridgeIDs[serverID], $0.context) }
        guard let bridgeID, let context else { return }
        context.logger.info("desktop: action \(key) on \(bridgeID)")
        context.command(.action(notificationID: bridgeID, actionID: key))
    }

    private func forgetConnection() {
        let watcher = state.withLock { state -> Task<Void, Never>? in
            defer { state.connection = nil; state.actionWatcher = nil }
            return state.actionWatcher
        }
        watcher?.cancel()
    }
}
