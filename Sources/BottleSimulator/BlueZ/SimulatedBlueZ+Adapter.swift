// `/org/bluez` and `/org/bluez/hci0`: the managers and the adapter, discovery (sessions per
// client, filters, the bottle's advertisements turning into a device object or an RSSI update),
// RemoveDevice, and Powered.
import AquavateProtocol
import DBus
import Timekeeping

extension SimulatedBlueZ {
    // MARK: - The static part of the tree

    func exportStaticObjects() throws {
        try connection.addObjectManager(at: Self.rootPath)
        try connection.export(Self.rootPath, [simulatorInterface()])
        try connection.export(Self.bluezPath, [
            ExportedInterface(Interface.agentManager, methods: [
                stub("RegisterAgent", "os"), stub("UnregisterAgent", "o"), stub("RequestDefaultAgent", "o"),
            ]),
            ExportedInterface(Interface.profileManager, methods: [
                stub("RegisterProfile", "osa{sv}"), stub("UnregisterProfile", "o"),
            ]),
        ])
        let powered = state.withLock { $0.powered }
        try exportAdapter(powered: powered)
    }

    /// The adapter object (again, after a bluetoothd restart).
    func exportAdapter(powered: Bool) throws {
        try connection.export(adapterPath, [
            adapterInterface(powered: powered),
            ExportedInterface(Interface.gattManager, methods: [
                stub("RegisterApplication", "oa{sv}"), stub("UnregisterApplication", "o"),
            ]),
        ])
    }

    /// A method that accepts its arguments and does nothing (agents, profiles, applications).
    func stub(_ name: String, _ input: DBusSignature) -> ExportedMethod {
        ExportedMethod(name, input: input, handler: .immediate { [self] call in
            logCall(call)
            return []
        })
    }

    private func adapterInterface(powered: Bool) -> ExportedInterface {
        ExportedInterface(Interface.adapter, methods: [
            ExportedMethod("StartDiscovery", handler: .deferred { [self] call, responder in
                logCall(call)
                guard mutate({ startDiscovery(call.sender, responder, &$0) }) == true else { return }
                forEachSibling { sibling in sibling.mutate { sibling.startDiscovery(call.sender, nil, &$0) } }
            }),
            ExportedMethod("StopDiscovery", handler: .deferred { [self] call, responder in
                logCall(call)
                guard mutate({ stopDiscovery(call.sender, responder, &$0) }) == true else { return }
                forEachSibling { sibling in sibling.mutate { sibling.stopDiscovery(call.sender, nil, &$0) } }
            }),
            ExportedMethod("SetDiscoveryFilter", input: "a{sv}", inputNames: ["properties"], handler: .immediate { [self] call in
                logCall(call)
                let filter = try Self.parseFilter(call.arguments[0])
                mutate { $0.filters[call.sender] = filter }
                forEachSibling { sibling in sibling.mutate { $0.filters[call.sender] = filter } }
                return []
            }),
            ExportedMethod("GetDiscoveryFilters", output: "as", outputNames: ["filters"], handler: .immediate { [self] call in
                logCall(call)
                return [.strings(["UUIDs", "RSSI", "Pathloss", "Transport", "DuplicateData", "Discoverable", "Pattern"])]
            }),
            ExportedMethod("RemoveDevice", input: "o", inputNames: ["device"], handler: .deferred { [self] call, responder in
                logCall(call)
                let path = call.arguments[0].objectPath
                let bottle = siblings.withLock { $0 }.first { $0.devicePath == path } ?? self
                bottle.mutate { bottle.requestRemoval(path, responder, &$0) }
            }),
        ], properties: [
            ExportedProperty("Address", signature: "s", value: .string(configuration.adapterAddress)),
            ExportedProperty("AddressType", signature: "s", value: .string("public")),
            ExportedProperty("Name", signature: "s", value: .string(configuration.adapterName)),
            ExportedProperty("Alias", signature: "s", access: .readwrite, value: .string(configuration.adapterName)),
            ExportedProperty("Class", signature: "u", value: .uint32(0x6c0000)),
            ExportedProperty("Powered", signature: "b", access: .readwrite, value: .bool(powered), onSet: { [self] value, call in
                logCall(DBusMethodCall(sender: call.sender, path: call.path, interface: "org.freedesktop.DBus.Properties",
                                       member: "Set", arguments: [.string("Powered"), value]))
                mutate { setPowered(value.bool ?? true, &$0) }
                forEachSibling { sibling in sibling.mutate { sibling.setPowered(value.bool ?? true, &$0) } }
            }),
            ExportedProperty("PowerState", signature: "s", value: .string(powered ? "on" : "off")),
            ExportedProperty("Discoverable", signature: "b", access: .readwrite, value: .bool(false)),
            ExportedProperty("DiscoverableTimeout", signature: "u", access: .readwrite, value: .uint32(180)),
            ExportedProperty("Pairable", signature: "b", access: .readwrite, value: .bool(true)),
            ExportedProperty("PairableTimeout", signature: "u", access: .readwrite, value: .uint32(0)),
            ExportedProperty("Discovering", signature: "b", value: .bool(false)),
            ExportedProperty("UUIDs", signature: "as", value: .strings([
                GattLayout.uuid16(0x1800), GattLayout.uuid16(0x1801), GattLayout.uuid16(0x180A),
            ])),
            ExportedProperty("Modalias", signature: "s", value: .string("usb:v1D6Bp0246d0542")),
            ExportedProperty("Roles", signature: "as", value: .strings(["central", "peripheral"])),
        ])
    }

    /// SetDiscoveryFilter's dictionary, checked the way bluetoothd checks it.
    static func parseFilter(_ argument: DBusValue) throws -> DiscoveryFilter {
        guard let entries = argument.stringDictionary else { throw BlueZError.invalidArguments() }
        var filter = DiscoveryFilter()
        for (key, value) in entries {
            switch key {
            case "UUIDs":
                guard let uuids = value.strings else { throw BlueZError.invalidArguments() }
                filter.uuids = uuids
            case "Transport":
                guard let transport = value.string, ["auto", "bredr", "le"].contains(transport) else {
                    throw BlueZError.invalidArguments()
                }
                filter.transport = transport
            case "RSSI": guard value.int16 != nil else { throw BlueZError.invalidArguments() }
            case "Pathloss": guard value.uint16 != nil else { throw BlueZError.invalidArguments() }
            case "DuplicateData", "Discoverable": guard value.bool != nil else { throw BlueZError.invalidArguments() }
            case "Pattern": guard value.string != nil else { throw BlueZError.invalidArguments() }
            default: throw BlueZError.invalidArguments()
            }
        }
        return filter
    }

    // MARK: - Discovery

    /// The other bottles on this bus, each in turn (outside this core's lock).
    func forEachSibling(_ body: (SimulatedBlueZ) -> Void) {
        for sibling in siblings.withLock({ $0 }) { body(sibling) }
    }

    /// bluetoothd replies first, then announces Discovering=true (start_discovery_complete).
    /// A sibling bottle follows its adapter's discovery with no responder and no adapter property.
    /// - Returns: whether the discovery session started.
    private func startDiscovery(_ client: String, _ responder: DBusResponder?, _ state: inout SimulatorState) -> Bool {
        guard state.powered else {
            responder?.fail(BlueZError.notReady())
            return false
        }
        guard !state.discoveryClients.contains(client) else {
            responder?.fail(BlueZError.inProgress())
            return false
        }
        state.discoveryClients.insert(client)
        responder?.reply([])
        guard !state.discovering else { return true }
        state.discovering = true
        state.scannerDeaf = FaultBudget.take(&state.faults.deafScanner)
        if state.scannerDeaf { log("fault: deaf-scanner: this discovery hears no advertisement") }
        if ownsAdapter { setProperties(adapterPath, Interface.adapter, ["Discovering": .bool(true)]) }
        state.nextAdvertisement = clock.deadline(after: configuration.firstAdvertisementDelay)
        if configuration.firstAdvertisementOnTime {
            // Not at the next 20 ms tick: a benchmark of one-shot syncs would wait 10 ms on average.
            schedule(after: configuration.firstAdvertisementDelay) { [self] state in advertiseIfDue(now: clock.instant, &state) }
        }
        return true
    }

    /// - Returns: whether the client's discovery session ended.
    private func stopDiscovery(_ client: String, _ responder: DBusResponder?, _ state: inout SimulatorState) -> Bool {
        guard state.powered, state.discoveryClients.contains(client) else {
            responder?.fail(BlueZError.notReady())
            return false
        }
        state.discoveryClients.remove(client)
        responder?.reply([])
        if state.discoveryClients.isEmpty { endDiscovery(&state) }
        return true
    }

    /// Discovering=false; BlueZ drops RSSI of the devices it found (a re-scan sets it again,
    /// docs/bluez.md 7.5) and starts the temporary-device timer.
    func endDiscovery(_ state: inout SimulatorState) {
        state.discoveryClients.removeAll()
        state.nextAdvertisement = nil
        guard state.discovering else { return }
        state.discovering = false
        if ownsAdapter { setProperties(adapterPath, Interface.adapter, ["Discovering": .bool(false)]) }
        guard var device = state.device else { return }
        if device.rssiShown {
            device.rssiShown = false
            setProperties(devicePath, Interface.device, [:], invalidated: ["RSSI"])
        }
        if device.temporary && state.link == .idle { device.removalDue = clock.deadline(after: configuration.temporaryTimeout) }
        state.device = device
    }

    /// The discovery filters of the clients scanning now; the bottle is reported if any admits it.
    private func filterAdmitsBottle(_ state: SimulatorState) -> Bool {
        state.discoveryClients.contains { client in
            (state.filters[client] ?? DiscoveryFilter()).admits(advertisedUUIDs)
        }
    }

    /// One advertisement of the bottle reached the scanning adapter.
    func advertisementHeard(_ state: inout SimulatorState) {
        guard state.powered, state.bottleAdvertising, !state.scannerDeaf, filterAdmitsBottle(state) else { return }
        if var device = state.device {
            device.removalDue = nil
            if !device.rssiShown {
                device.rssiShown = true
                setProperties(devicePath, Interface.device, ["RSSI": .int16(configuration.rssi)])
            }
            state.device = device
        } else {
            log("event: advertisement from \(configuration.address): device object created")
            createDevice(&state, rssi: true)
        }
    }

    // MARK: - The device object

    func createDevice(_ state: inout SimulatorState, rssi: Bool) {
        let device = DeviceObject(temporary: true, rssiShown: rssi, uuids: advertisedUUIDs)
        state.device = device
        export(devicePath, [deviceInterface(device)])
    }

    /// Removes the device with its GATT objects (InterfacesRemoved, descriptors first), with no
    /// Connected=false: what a client sees after RemoveDevice or a bluetoothd restart.
    func removeDevice(_ state: inout SimulatorState) {
        guard state.device != nil else { return }
        removeGattObjects(&state)
        state.sessions.removeAll()
        state.notifying.removeAll()
        state.device = nil
        state.faults.staleCache = false  // the cache went with the device
        unexport(devicePath)
        for responder in state.pendingRemovals { responder.reply([]) }
        state.pendingRemovals.removeAll()
    }

    /// Adapter1.RemoveDevice: at once when not linked; otherwise BlueZ disconnects first (after its
    /// disconnect timer) and replies once the object is gone.
    func requestRemoval(_ path: DBusObjectPath?, _ responder: DBusResponder, _ state: inout SimulatorState) {
        guard let path, path == devicePath, state.device != nil else { return responder.fail(BlueZError.doesNotExist()) }
        switch state.link {
        case .idle:
            removeDevice(&state)
            responder.reply([])
        case .connecting:
            cancelConnect(&state)
            removeDevice(&state)
            responder.reply([])
        case .connected, .disconnecting:
            state.pendingRemovals.append(responder)
            guard state.link == .connected else { return }
            state.link = .disconnecting
            schedule(after: configuration.disconnectDelay) { [self] state in
                dropLink(reason: "RemoveDevice", &state)
                removeDevice(&state)
            }
        }
    }

    // MARK: - Power

    func setPowered(_ on: Bool, _ state: inout SimulatorState) {
        guard state.powered != on else { return }
        state.powered = on
        if ownsAdapter {
            setProperties(adapterPath, Interface.adapter, ["Powered": .bool(on), "PowerState": .string(on ? "on" : "off")])
        }
        guard !on else { return }
        endDiscovery(&state)
        switch state.link {
        case .idle: break
        case .connecting: cancelConnect(&state)
        case .connected, .disconnecting: dropLink(reason: "adapter powered off", &state)
        }
    }

    // MARK: - Clients leaving the bus

    /// BlueZ ends the departed client's notify sessions and discovery session. The sessions end in
    /// the characteristics' order (their paths follow the handles), as bluetoothd ended the
    /// bridge's on the real-BlueZ test bed; a dictionary's order changes from one process to the
    /// next, and the comparison with the real stack (docs/bluez.md 8.6) failed now and then on it.
    func peerLeft(_ name: String, _ state: inout SimulatorState) {
        for path in state.sessions.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let sessions = state.sessions[path], sessions.contains(where: { $0.owner == name }) else { continue }
            state.sessions[path] = sessions.filter { $0.owner != name }
            log("event: \(name) left the bus: its notify session on \(path) ends")
            updateNotifying(path, &state)
        }
        state.filters[name] = nil
        if state.discoveryClients.remove(name) != nil {
            log("event: \(name) left the bus: its discovery session ends")
            if state.discoveryClients.isEmpty { endDiscovery(&state) }
        }
    }
}
