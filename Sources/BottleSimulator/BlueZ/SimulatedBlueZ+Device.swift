// The device object and the link: Connect (Connected, then the GATT objects, then
// ServicesResolved, then the reply), Disconnect (the reply ~2 s later, after ServicesResolved=false
// and before Connected=false), supervision time-outs, the battery plugin, and the connect faults.
import AquavateProtocol
import DBus
import Timekeeping

extension SimulatedBlueZ {
    func deviceInterface(_ device: DeviceObject) -> ExportedInterface {
        let name = configuration.effectiveName
        let plain: @Sendable (DBusMethodCall, DBusFailure?) throws -> [DBusValue] = { call, failure in
            self.logCall(call)
            if let failure { throw failure }
            return []
        }
        return ExportedInterface(Interface.device, methods: [
            ExportedMethod("Connect", handler: .deferred { [self] call, responder in
                logCall(call)
                mutate { connect(responder, &$0) }
            }),
            ExportedMethod("Disconnect", handler: .deferred { [self] call, responder in
                logCall(call)
                mutate { disconnect(responder, &$0) }
            }),
            ExportedMethod("Pair", handler: .immediate { try plain($0, BlueZError.authenticationFailed()) }),
            ExportedMethod("CancelPairing", handler: .immediate { try plain($0, BlueZError.doesNotExist()) }),
            ExportedMethod("ConnectProfile", input: "s", inputNames: ["UUID"],
                           handler: .immediate { try plain($0, BlueZError.notSupported()) }),
            ExportedMethod("DisconnectProfile", input: "s", inputNames: ["UUID"],
                           handler: .immediate { try plain($0, BlueZError.notSupported()) }),
        ], properties: [
            ExportedProperty("Address", signature: "s", value: .string(configuration.address.uppercased())),
            ExportedProperty("AddressType", signature: "s", value: .string("public")),
            ExportedProperty("Name", signature: "s", value: .string(name)),
            ExportedProperty("Alias", signature: "s", access: .readwrite, value: .string(name)),
            ExportedProperty("Paired", signature: "b", value: .bool(false)),
            ExportedProperty("Bonded", signature: "b", value: .bool(false)),
            ExportedProperty("Trusted", signature: "b", access: .readwrite, value: .bool(false)),
            ExportedProperty("Blocked", signature: "b", access: .readwrite, value: .bool(false)),
            ExportedProperty("LegacyPairing", signature: "b", value: .bool(false)),
            ExportedProperty("RSSI", signature: "n", value: device.rssiShown ? .int16(configuration.rssi) : nil),
            ExportedProperty("Connected", signature: "b", value: .bool(false)),
            ExportedProperty("UUIDs", signature: "as", value: .strings(device.uuids)),
            ExportedProperty("Adapter", signature: "o", value: .objectPath(adapterPath)),
            ExportedProperty("ServicesResolved", signature: "b", value: .bool(false)),
            ExportedProperty("AdvertisingFlags", signature: "ay", value: .bytes([0x06])),
        ])
    }

    private func batteryInterface(_ percent: UInt8) -> ExportedInterface {
        ExportedInterface(Interface.battery, properties: [
            ExportedProperty("Percentage", signature: "y", value: .byte(percent)),
            ExportedProperty("Source", signature: "s", value: .string("GATT Battery Service")),
        ])
    }

    // MARK: - Connect

    private func connect(_ responder: DBusResponder, _ state: inout SimulatorState) {
        if FaultBudget.take(&state.faults.unknownObject) {
            log("fault: unknown-object: the device object is gone before Connect")
            cancelConnect(&state)
            removeDevice(&state)
            return responder.fail(BlueZError.unknownObject(devicePath))
        }
        guard state.powered else { return responder.fail(BlueZError.notReady()) }
        switch state.link {
        case .connected: return responder.fail(BlueZError.alreadyConnected())
        case .connecting, .disconnecting: return responder.fail(BlueZError.inProgress())
        case .idle: break
        }
        planChaos(&state)
        state.link = .connecting
        state.pendingConnect = responder
        state.connectDeadline = clock.deadline(after: configuration.connectTimeout)
        if FaultBudget.take(&state.faults.removeDuringConnect) {
            schedule(after: configuration.connectDelay / 2) { [self] state in
                guard state.link == .connecting else { return }
                log("fault: remove-during-connect: the device is removed while Connect is pending")
                state.link = .idle
                state.connectDeadline = nil
                let pending = state.pendingConnect
                state.pendingConnect = nil
                removeDevice(&state)
                pending?.fail(BlueZError.failed("Device removed"))
            }
            return
        }
        let abort = FaultBudget.take(&state.faults.abortOnConnect)
        schedule(after: configuration.connectDelay) { [self] state in
            attemptLink(abort: abort, &state)
        }
    }

    /// The central's connection request meets the bottle's next advertisement; while the bottle
    /// sleeps the attempt keeps waiting (the tick loop retries and times it out).
    private func attemptLink(abort: Bool, _ state: inout SimulatorState) {
        guard state.link == .connecting, let pending = state.pendingConnect else { return }
        // A sleeping bottle, or one linked to another room's central, does not answer: the attempt
        // waits for an advertisement (the tick loop times it out).
        guard state.model.isAwake, state.shared?.takeLink() ?? true else {
            schedule(after: .milliseconds(50)) { [self] state in attemptLink(abort: abort, &state) }
            return
        }
        if abort {
            // docs/bluez.md 7.1: BlueZ was connected for a moment.
            log("fault: abort-on-connect: Connected=true, Failed le-connection-abort-by-local, Connected=false")
            state.link = .idle
            state.shared?.releaseLink()
            state.pendingConnect = nil
            state.connectDeadline = nil
            setProperties(devicePath, Interface.device, ["Connected": .bool(true)])
            pending.fail(BlueZError.failed(BlueZError.abortByLocal))
            setProperties(devicePath, Interface.device, ["Connected": .bool(false)])
            return
        }
        state.link = .connected
        state.connectDeadline = nil
        state.gattReady = false
        if var device = state.device {
            device.temporary = false
            device.removalDue = nil
            device.connectedShown = true
            state.device = device
        }
        log("event: linked to \(configuration.address), MTU \(state.faults.mtu)")
        setProperties(devicePath, Interface.device, ["Connected": .bool(true)])
        chaosLinked(&state)
        schedule(after: configuration.resolveDelay) { [self] state in resolveServices(&state) }
    }

    /// MTU exchange done, services discovered (or taken from the cache): the GATT objects,
    /// re-armed notify sessions, UUIDs with ServicesResolved=true, the Connect reply, then Battery1.
    private func resolveServices(_ state: inout SimulatorState) {
        guard state.link == .connected, var device = state.device else { return }
        let needsExport = state.exportedServices.isEmpty
        let early = needsExport && state.faults.earlyResolved
        if needsExport && !early {
            exportGattObjects(&state)
        } else {
            for service in state.exportedServices {
                for characteristic in service.characteristics {
                    setProperties(characteristic.path, Interface.characteristic, ["MTU": .uint16(UInt16(state.faults.mtu))])
                }
            }
        }
        let uuids = Array(Set(device.uuids + layout.services.filter { $0.kind != .aquavate || !state.faults.staleCache }
            .map(\.uuid))).sorted()
        // bluetoothd's D-Bus layer sends the properties changed in one turn of its main loop as
        // one PropertiesChanged: the UUIDs the discovery found come with ServicesResolved=true
        // (the real stack, docs/bluez.md 8.6).
        var resolved: [String: DBusValue] = ["ServicesResolved": .bool(true)]
        if uuids != device.uuids {
            device.uuids = uuids
            resolved["UUIDs"] = .strings(uuids)
        }
        if !early { armNotifySessions(&state) }
        device.servicesResolved = true
        state.device = device
        setProperties(devicePath, Interface.device, resolved)
        state.pendingConnect?.reply([])
        state.pendingConnect = nil
        if configuration.battery == .plugin { addBattery1(&state) }
        if early {
            log("fault: early-resolved: ServicesResolved=true before the GATT objects")
            schedule(after: configuration.earlyResolvedLag) { [self] state in
                guard state.link == .connected, state.exportedServices.isEmpty else { return }
                exportGattObjects(&state)
                armNotifySessions(&state)
            }
        }
    }

    private func addBattery1(_ state: inout SimulatorState) {
        guard var device = state.device, !device.battery1 else { return }
        device.battery1 = true
        state.device = device
        export(devicePath, [batteryInterface(state.model.read(.batteryLevel)[0])])
    }

    // MARK: - Disconnect

    private func disconnect(_ responder: DBusResponder, _ state: inout SimulatorState) {
        switch state.link {
        case .idle:
            responder.fail(BlueZError.notConnected())
        case .connecting:
            // Disconnect cancels a pending Connect (org.bluez.Device doc).
            cancelConnect(&state)
            responder.reply([])
        case .disconnecting:
            state.pendingDisconnects.append(responder)
        case .connected:
            state.link = .disconnecting
            state.pendingDisconnects.append(responder)
            schedule(after: configuration.disconnectDelay) { [self] state in
                guard state.link == .disconnecting else { return }
                dropLink(reason: "Disconnect()", &state)
            }
        }
    }

    /// Gives up a pending Connect.
    func cancelConnect(_ state: inout SimulatorState) {
        guard state.link == .connecting else { return }
        state.link = .idle
        state.connectDeadline = nil
        state.pendingConnect?.fail(BlueZError.failed(BlueZError.abortByLocal))
        state.pendingConnect = nil
    }

    /// The link goes down, in bluetoothd's order: Battery1 goes (the battery plugin is removed
    /// with the link), ServicesResolved=false (with `Cache=always` the objects stay and MTU
    /// silently disappears; with `Cache=no` they are removed), pending Disconnect calls are
    /// answered, then Connected=false.
    func dropLink(reason: String, _ state: inout SimulatorState) {
        guard state.link == .connected || state.link == .disconnecting else { return }
        log("event: link down (\(reason))")
        linkGone(&state)
        if var device = state.device {
            if device.battery1 {
                device.battery1 = false
                unexport(devicePath, interfaces: [Interface.battery])
            }
            if device.servicesResolved {
                device.servicesResolved = false
                setProperties(devicePath, Interface.device, ["ServicesResolved": .bool(false)])
            }
            if configuration.gattCache == .always {
                for service in state.exportedServices {
                    for characteristic in service.characteristics {
                        setProperties(characteristic.path, Interface.characteristic, [:], invalidated: ["MTU"], emit: false)
                    }
                }
                for path in state.sessions.keys {
                    state.sessions[path] = state.sessions[path]?.map { NotifySession(owner: $0.owner, registered: false) }
                }
            } else {
                removeGattObjects(&state)
                state.sessions.removeAll()
                state.notifying.removeAll()
            }
            state.device = device
        }
        if let pending = state.pendingConnect {
            state.pendingConnect = nil
            pending.fail(BlueZError.failed(BlueZError.abortByLocal))
        }
        state.model.linkDropped()
        persistIfChanged(&state)
        for responder in state.pendingDisconnects { responder.reply([]) }
        state.pendingDisconnects.removeAll()
        if state.device?.connectedShown == true {
            state.device?.connectedShown = false
            setProperties(devicePath, Interface.device, ["Connected": .bool(false)])
        }
    }

    /// The bottle's side vanished without a goodbye: a supervision time-out (the object stays).
    func supervisionTimeout(_ state: inout SimulatorState) {
        dropLink(reason: "supervision time-out", &state)
    }

    /// What a lost link and a vanished device both end: the link, the shared bottle's hold on it,
    /// GATT, and every call in flight (failed, as BlueZ fails them).
    private func linkGone(_ state: inout SimulatorState) {
        state.link = .idle
        state.shared?.releaseLink()
        state.gattReady = false
        for (path, responder) in state.inFlightReplies {
            responder.fail(BlueZError.failed("Operation failed"))
            state.writesInFlight.remove(path)
        }
        state.inFlightReplies.removeAll()
    }

    /// The device object disappears while linked, with no Connected=false (docs/bluez.md 7.3).
    func vanish(_ state: inout SimulatorState) {
        log("event: the device object vanishes (no Connected=false)")
        if state.link == .connecting { cancelConnect(&state) }
        linkGone(&state)
        for responder in state.pendingDisconnects { responder.fail(BlueZError.failed("Device removed")) }
        state.pendingDisconnects.removeAll()
        removeDevice(&state)
        state.model.linkDropped()
    }
}
