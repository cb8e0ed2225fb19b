// bluetoothd restarting (a crash, `systemctl restart bluetooth`, an upgrade; docs/design.md 4): the
// process and its objects are gone at once — a dead process sends no InterfacesRemoved and no
// Connected=false, only the bus announces that `org.bluez` has no owner, and the calls it was
// answering end with NoReply. A moment later the new bluetoothd owns the name again and exports
// every object anew: the adapter, and the device from its storage (it had connected, so it is
// remembered), not connected, not advertising, its GATT objects back only at the next connection.
import DBus
import Timekeeping

extension SimulatedBlueZ {
    func restartBluetoothd(_ state: inout SimulatorState) {
        log("event: bluetoothd restarts")
        var replies = takeInFlightReplies(&state)
        if let connect = state.pendingConnect { replies.append(connect) }
        replies += state.pendingDisconnects + state.pendingRemovals
        state.pendingConnect = nil
        state.connectDeadline = nil
        state.pendingDisconnects.removeAll()
        state.pendingRemovals.removeAll()
        state.link = .idle
        state.gattReady = false
        state.sessions.removeAll()
        state.notifying.removeAll()
        state.discoveryClients.removeAll()
        state.filters.removeAll()
        state.discovering = false
        state.nextAdvertisement = nil
        state.model.linkDropped()
        removeGattObjects(&state, emit: false)
        if state.device != nil { unexport(devicePath, emit: false) }
        let remembered = state.device.map { !$0.temporary } ?? false
        state.device = nil
        state.restarting = true
        unexport(adapterPath, emit: false)
        // What the bus says to callers whose peer left (the `NoReply` of a departed name).
        for responder in replies {
            responder.fail(DBusFailure(name: DBusFailure.noReplyName,
                                       message: "Message recipient disconnected from message bus without replying"))
        }
        spawn { [self] in
            // Each bus call under a time limit, the pair retried: a restart that never comes back
            // would leave a test waiting for a bluetoothd that is not there (seen once under load).
            for attempt in 1...5 {
                do {
                    let released = try await Self.limited(on: clock) { try await self.connection.releaseName(Self.bluezName) }
                    log("event: bluetoothd released \(Self.bluezName) (\(released))")
                    try await clock.sleep(for: .milliseconds(500))
                    let owned = try await Self.limited(on: clock) {
                        try await self.connection.requestName(Self.bluezName, flags: [.doNotQueue])
                    }
                    log("event: bluetoothd owns \(Self.bluezName) again (\(owned))")
                    break
                } catch is CancellationError {
                    return
                } catch {
                    log("warning: the restart of bluetoothd, attempt \(attempt): \(error)")
                }
            }
            mutate { state in
                state.restarting = false
                do { try exportAdapter(powered: state.powered) } catch { log("warning: cannot export the adapter: \(error)") }
                if remembered {
                    createDevice(&state, rssi: false)
                    state.device?.temporary = false
                }
                log("event: bluetoothd is back on the bus")
            }
        }
    }

    /// `body`, or a `RestartStepTimedOut` after two seconds of `clock`'s time.
    private static func limited<T: Sendable>(on clock: any WallClock,
                                             _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await clock.sleep(for: .seconds(2))
                throw RestartStepTimedOut()
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw RestartStepTimedOut() }
            return first
        }
    }
}

/// A bus call of the simulated restart took more than two seconds.
struct RestartStepTimedOut: Error, CustomStringConvertible {
    var description: String { "a bus call took more than 2 s" }
}
