// A link that breaks the way another BlueZ (or another order of events) shows it, beside the
// order `dropLink` follows. An independently written BlueZ model sends `Connected=false` and
// `ServicesResolved=false` in ONE PropertiesChanged, then removes every GATT object, and only then
// answers the write that was pending — successfully. A simulator that always fails pending writes
// first never takes the session down that path, so a session loop that treats a lost link as
// "just another event" would pass its tests and spin on a real link; this order is here to reach it.
import AquavateProtocol
import DBus

/// How the link goes down (docs/bluez.md 7.3, 7.8; docs/design.md 4).
package enum LinkBreakStyle: String, Sendable, CaseIterable {
    /// A supervision time-out with `Cache = no`: Connected=false and ServicesResolved=false in one
    /// signal, then InterfacesRemoved for every descriptor, characteristic and service; the device
    /// object stays.
    case supervisionObjectsRemoved = "supervision-removed"
    /// A supervision time-out with `Cache = always`: the same signal, every GATT object kept.
    case supervisionObjectsKept = "supervision-kept"
    /// The device object is removed with no Connected=false (RemoveDevice).
    case vanish
    /// bluetoothd restarts: `org.bluez` loses its owner with no other word, calls in flight get
    /// NoReply, and a moment later every object is exported anew (RestartBluetoothd.swift).
    case bluetoothdRestart = "bluetoothd-restart"
}

/// What BlueZ answers to the calls that were waiting for the bottle when the link broke.
package enum PendingReplies: String, Sendable, CaseIterable {
    /// org.bluez.Error.Failed, before the link's signals (the order `dropLink` follows).
    case failFirst = "fail-first"
    /// org.bluez.Error.Failed, after the signals.
    case failAfter = "fail-after"
    /// A successful reply after the signals: the ATT write had gone out before the link did.
    case succeedAfter = "succeed-after"
}

extension SimulatedBlueZ {
    /// Breaks a live link in `style`, answering the calls in flight as `pending` says. Does
    /// nothing when no link is up.
    func breakLink(_ style: LinkBreakStyle, pending: PendingReplies, reason: String, _ state: inout SimulatorState) {
        if style == .bluetoothdRestart {
            restartBluetoothd(&state)
            return
        }
        guard state.link == .connected || state.link == .disconnecting else { return }
        log("event: link down (\(reason); \(style.rawValue), replies \(pending.rawValue))")
        var replies = takeInFlightReplies(&state)
        if pending == .failFirst {
            answer(replies, .failFirst)
            replies = []
        }
        if style == .vanish {
            vanish(&state)
            answer(replies, pending)
            return
        }
        state.link = .idle
        state.gattReady = false
        if var device = state.device {
            var changed: [String: DBusValue] = [:]
            if device.servicesResolved { changed["ServicesResolved"] = .bool(false) }
            if device.connectedShown { changed["Connected"] = .bool(false) }
            device.servicesResolved = false
            device.connectedShown = false
            state.device = device
            if !changed.isEmpty { setProperties(devicePath, Interface.device, changed) }
            if style == .supervisionObjectsRemoved {
                removeGattObjects(&state)
                state.sessions.removeAll()
                state.notifying.removeAll()
            } else {
                for service in state.exportedServices {
                    for characteristic in service.characteristics {
                        setProperties(characteristic.path, Interface.characteristic, [:], invalidated: ["MTU"], emit: false)
                    }
                }
                for path in state.sessions.keys {
                    state.sessions[path] = state.sessions[path]?.map { NotifySession(owner: $0.owner, registered: false) }
                }
            }
            if device.battery1 {
                state.device?.battery1 = false
                unexport(devicePath, interfaces: [Interface.battery])
            }
        }
        if let connect = state.pendingConnect {
            state.pendingConnect = nil
            connect.fail(BlueZError.failed(BlueZError.abortByLocal))
        }
        state.model.linkDropped()
        for responder in state.pendingDisconnects { responder.reply([]) }
        state.pendingDisconnects.removeAll()
        answer(replies, pending)
    }

    func takeInFlightReplies(_ state: inout SimulatorState) -> [DBusResponder] {
        let replies = Array(state.inFlightReplies.values) + state.heldReplies
        state.inFlightReplies.removeAll()
        state.heldReplies.removeAll()
        state.writesInFlight.removeAll()
        return replies
    }

    private func answer(_ replies: [DBusResponder], _ pending: PendingReplies) {
        for responder in replies {
            if pending == .succeedAfter { responder.reply([]) } else { responder.fail(BlueZError.failed("Operation failed")) }
        }
    }
}
