// The GATT objects: services, characteristics and CCCD descriptors as gatt-client.c exports them,
// ReadValue (a long read returns the whole value, and the read updates Value, so it echoes as a
// notification), WriteValue (the bottle's notifications come before the reply), notify sessions
// per D-Bus connection, and notifications truncated to MTU − 3.
import AquavateProtocol
import DBus

extension SimulatedBlueZ {
    // MARK: - Objects

    func exportGattObjects(_ state: inout SimulatorState) {
        let services = layout.exported(batteryPlugin: configuration.battery == .plugin, stale: state.faults.staleCache)
        if state.faults.staleCache { log("fault: stale-cache: the Aquavate service is missing") }
        let mtu = UInt16(state.faults.mtu)
        for service in services {
            export(service.path, [ExportedInterface(Interface.service, properties: [
                ExportedProperty("UUID", signature: "s", value: .string(service.uuid)),
                ExportedProperty("Device", signature: "o", value: .objectPath(devicePath)),
                ExportedProperty("Primary", signature: "b", value: .bool(true)),
                ExportedProperty("Includes", signature: "ao", value: .objectPaths([])),
                ExportedProperty("Handle", signature: "q", value: .uint16(service.handle)),
            ])])
            for characteristic in service.characteristics {
                export(characteristic.path, [characteristicInterface(characteristic, mtu: mtu)])
                if let cccd = characteristic.cccd {
                    export(cccd.path, [descriptorInterface(cccd, of: characteristic)])
                }
            }
        }
        state.exportedServices = services
        state.valueShown.removeAll()
    }

    /// Descriptors, then their characteristic, then the service (unregister_service's order).
    func removeGattObjects(_ state: inout SimulatorState, emit: Bool = true) {
        for service in state.exportedServices {
            for characteristic in service.characteristics {
                if let cccd = characteristic.cccd { unexport(cccd.path, emit: emit) }
                unexport(characteristic.path, emit: emit)
            }
            unexport(service.path, emit: emit)
        }
        state.exportedServices.removeAll()
        state.valueShown.removeAll()
    }

    private func exported(_ path: DBusObjectPath, _ state: SimulatorState) -> Bool {
        state.exportedServices.contains { $0.characteristics.contains { $0.path == path || $0.cccd?.path == path } }
    }

    private func characteristicInterface(_ characteristic: CharacteristicLayout, mtu: UInt16) -> ExportedInterface {
        var properties = [
            ExportedProperty("UUID", signature: "s", value: .string(characteristic.uuid)),
            ExportedProperty("Service", signature: "o", value: .objectPath(characteristic.servicePath)),
            ExportedProperty("Value", signature: "ay"),
        ]
        if characteristic.canNotify {
            properties.append(ExportedProperty("Notifying", signature: "b", value: .bool(false)))
        }
        properties += [
            ExportedProperty("Flags", signature: "as", value: .strings(characteristic.flags)),
            ExportedProperty("MTU", signature: "q", value: .uint16(mtu)),
            ExportedProperty("Handle", signature: "q", value: .uint16(characteristic.handle)),
        ]
        let path = characteristic.path
        return ExportedInterface(Interface.characteristic, methods: [
            ExportedMethod("ReadValue", input: "a{sv}", output: "ay", inputNames: ["options"], outputNames: ["value"],
                           handler: .deferred { [self] call, responder in
                               logCall(call)
                               mutate { readValue(path, call.arguments[0], responder, &$0) }
                           }),
            ExportedMethod("WriteValue", input: "aya{sv}", inputNames: ["value", "options"],
                           handler: .deferred { [self] call, responder in
                               logCall(call)
                               mutate { writeValue(path, call.arguments[0].bytes ?? [], call.arguments[1], responder, &$0) }
                           }),
            ExportedMethod("StartNotify", handler: .deferred { [self] call, responder in
                logCall(call)
                mutate { startNotify(path, call.sender, responder, &$0) }
            }),
            ExportedMethod("StopNotify", handler: .immediate { [self] call in
                logCall(call)
                return try mutate { try stopNotify(path, call.sender, &$0) } ?? []
            }),
            ExportedMethod("AcquireWrite", input: "a{sv}", output: "hq", inputNames: ["options"], outputNames: ["fd", "mtu"],
                           handler: .immediate { [self] call in
                               logCall(call)
                               throw BlueZError.notSupported()
                           }),
            ExportedMethod("AcquireNotify", input: "a{sv}", output: "hq", inputNames: ["options"], outputNames: ["fd", "mtu"],
                           handler: .immediate { [self] call in
                               logCall(call)
                               throw BlueZError.notSupported()
                           }),
        ], properties: properties)
    }

    private func descriptorInterface(_ descriptor: DescriptorLayout, of characteristic: CharacteristicLayout)
        -> ExportedInterface
    {
        let path = descriptor.path
        let owner = characteristic.path
        return ExportedInterface(Interface.descriptor, methods: [
            ExportedMethod("ReadValue", input: "a{sv}", output: "ay", inputNames: ["options"], outputNames: ["value"],
                           handler: .immediate { [self] call in
                               logCall(call)
                               return try mutate { state -> [DBusValue] in
                                   guard state.link == .connected || state.link == .disconnecting else {
                                       throw BlueZError.failed("Not connected")
                                   }
                                   let value: [UInt8] = [cccdEnabled(owner, state) ? 1 : 0, 0]
                                   setProperties(path, Interface.descriptor, ["Value": .bytes(value)])
                                   return [.bytes(value)]
                               } ?? []
                           }),
            ExportedMethod("WriteValue", input: "aya{sv}", inputNames: ["value", "options"], handler: .immediate { [self] call in
                logCall(call)
                // gatt-client.c: CCCDs are written only through StartNotify/StopNotify.
                throw BlueZError.notPermitted("Write not permitted")
            }),
        ], properties: [
            ExportedProperty("UUID", signature: "s", value: .string(descriptor.uuid)),
            ExportedProperty("Characteristic", signature: "o", value: .objectPath(owner)),
            ExportedProperty("Value", signature: "ay"),
            ExportedProperty("Handle", signature: "q", value: .uint16(descriptor.handle)),
        ])
    }

    // MARK: - Reading

    /// Counted faults first, then bluetoothd's own checks.
    private func gattFault(_ state: inout SimulatorState, counting inProgress: Bool) -> DBusFailure? {
        if inProgress, FaultBudget.take(&state.faults.inProgress) {
            log("fault: in-progress")
            return BlueZError.inProgress()
        }
        if FaultBudget.take(&state.faults.notConnected) {
            log("fault: not-connected")
            return BlueZError.notConnected()
        }
        return nil
    }

    private var linkedPhases: [LinkPhase] { [.connected, .disconnecting] }

    /// The characteristic a ReadValue or WriteValue at `path` goes to, once the checks both make
    /// in BlueZ's order passed (exported, a GATT fault, linked, the chaos plan); nil when the
    /// call is answered already, or held.
    private func characteristicOfCall(at path: DBusObjectPath, _ responder: DBusResponder,
                                      _ state: inout SimulatorState) -> CharacteristicLayout? {
        guard let characteristic = layout.characteristic(at: path), exported(path, state) else {
            responder.fail(BlueZError.doesNotExist())
            return nil
        }
        if let failure = gattFault(&state, counting: true) {
            responder.fail(failure)
            return nil
        }
        guard linkedPhases.contains(state.link) else {
            responder.fail(BlueZError.failed("Not connected"))
            return nil
        }
        if chaosHolds(responder, &state) { return nil }
        return characteristic
    }

    private func readValue(_ path: DBusObjectPath, _ options: DBusValue, _ responder: DBusResponder,
                           _ state: inout SimulatorState) {
        guard let characteristic = characteristicOfCall(at: path, responder, &state) else { return }
        guard characteristic.canRead else { return responder.fail(BlueZError.notPermitted("Read not permitted")) }
        let offset = Int(options.stringDictionary?["offset"]?.uint16 ?? 0)
        let value = readSource(characteristic.source, &state)
        guard offset <= value.count else { return responder.fail(BlueZError.invalidArguments("Invalid offset")) }
        // The read lands in Value first (PropertiesChanged), then the reply (docs/bluez.md 7.2).
        showValue(path, value, &state)
        responder.reply([.bytes(Array(value[offset...]))])
    }

    private func readSource(_ source: AttributeSource, _ state: inout SimulatorState) -> [UInt8] {
        switch source {
        case .aquavate(let characteristic): return state.model.read(characteristic)
        case .deviceInformation(let item): return state.model.deviceInformation(item)
        case .deviceName: return Array(configuration.effectiveName.utf8)
        case .appearance: return [0, 0]
        case .serviceChanged: return []
        }
    }

    private func showValue(_ path: DBusObjectPath, _ value: [UInt8], _ state: inout SimulatorState) {
        state.valueShown.insert(path)
        setProperties(path, Interface.characteristic, ["Value": .bytes(value)])
    }

    // MARK: - Writing

    private func writeValue(_ path: DBusObjectPath, _ value: [UInt8], _ options: DBusValue, _ responder: DBusResponder,
                            _ state: inout SimulatorState) {
        guard let characteristic = characteristicOfCall(at: path, responder, &state) else { return }
        let type = options.stringDictionary?["type"]?.string
        if let type, !["request", "command", "reliable"].contains(type) { return responder.fail(BlueZError.notSupported()) }
        guard !state.writesInFlight.contains(path) else { return responder.fail(BlueZError.inProgress()) }
        let withoutResponse = type == "command" || (type == nil && !characteristic.canWrite
            && characteristic.canWriteWithoutResponse)
        if type == nil && !characteristic.canWrite && !characteristic.canWriteWithoutResponse {
            return responder.fail(BlueZError.notSupported())
        }
        if withoutResponse {
            guard value.count <= state.faults.mtu - 3 else { return responder.fail(BlueZError.failed("Failed to initiate write")) }
            // A write command is answered at once; whatever the bottle sends comes afterwards.
            responder.reply([])
            if characteristic.canWrite { applyWrite(characteristic, value, &state) }
            return
        }
        guard characteristic.canWrite else { return responder.fail(BlueZError.notPermitted("Write not permitted")) }
        guard case .aquavate(let target) = characteristic.source else { return responder.reply([]) }
        if target == .syncControl, let k = state.faults.sleepInReply, state.lastChunkNotified == k,
           value == SyncControl.ack.encoded() {
            state.faults.sleepInReply = nil
            log("fault: sleep-in-reply=\(k): the bottle falls asleep on the ACK, its reply pending")
            state.model.sleep()
            state.writesInFlight.insert(path)
            state.inFlightReplies[path] = responder
            schedule(after: .milliseconds(100)) { [self] state in
                breakLink(.supervisionObjectsRemoved, pending: .succeedAfter, reason: "supervision time-out", &state)
            }
            schedule(after: .milliseconds(1100)) { [self] state in
                log("event: the bottle wakes")
                state.model.wake()
            }
            return
        }
        let outcome = state.model.write(target, value)
        var afterReply: [ChunkFault] = []
        for event in outcome.events { afterReply += deliverInWrite(event, &state) }
        var delay = (state.faults.slowWrites ?? .zero) + chaosWriteDelay(state)
        if let blocking = outcome.blockingSeconds { delay += .milliseconds(Int64(blocking * 1000)) }
        guard delay > .zero else {
            responder.reply([])
            for fault in afterReply { apply(fault, &state) }
            return
        }
        state.writesInFlight.insert(path)
        state.inFlightReplies[path] = responder
        let measuring = outcome.blockingSeconds != nil
        let faults = afterReply
        schedule(after: delay) { [self] state in
            guard let responder = state.inFlightReplies.removeValue(forKey: path) else { return }
            state.writesInFlight.remove(path)
            if measuring { for event in state.model.finishMeasurement() { deliver(event, &state) } }
            persistIfChanged(&state)
            responder.reply([])
            for fault in faults { apply(fault, &state) }
        }
    }

    private func applyWrite(_ characteristic: CharacteristicLayout, _ value: [UInt8], _ state: inout SimulatorState) {
        guard case .aquavate(let target) = characteristic.source else { return }
        let outcome = state.model.write(target, value)
        for event in outcome.events { deliver(event, &state) }
        if outcome.blockingSeconds != nil {
            schedule(after: .milliseconds(Int64((outcome.blockingSeconds ?? 0) * 1000))) { [self] state in
                for event in state.model.finishMeasurement() { deliver(event, &state) }
            }
        }
    }

    /// Delivers a notification sent inside a write handler. A chunk fault that fires on it takes
    /// effect after the write's reply: returned here as the events to run then.
    private func deliverInWrite(_ event: BottleEvent, _ state: inout SimulatorState) -> [ChunkFault] {
        if case .notification(.drinkData, let value) = event, state.hostile != nil || state.faults.badTotal {
            deliver(.notification(.drinkData, badTotal(hostile(value, &state), state)), &state)
            hostileFlood(&state)
        } else {
            deliver(event, &state)
        }
        guard case .notification(.drinkData, let value) = event, value.count >= 2 else { return [] }
        let index = Int(value[0]) | Int(value[1]) << 8
        state.lastChunkNotified = index
        if chaosStrikesAfterChunk(index, state) { return [.chaos] }
        if let k = state.faults.dropAfterChunk, k == index {
            state.faults.dropAfterChunk = nil
            log("fault: drop-after-chunk=\(k): the link is lost")
            return [.dropLink]
        }
        if let k = state.faults.sleepMidSync, k == index {
            state.faults.sleepMidSync = nil
            log("fault: sleep-mid-sync=\(k): the bottle falls asleep")
            return [.sleep]
        }
        if let k = state.faults.vanishMidSync, k == index {
            state.faults.vanishMidSync = nil
            log("fault: vanish-mid-sync=\(k): the device object vanishes")
            return [.vanish]
        }
        return []
    }

    // MARK: - Notifications

    /// Whether the bottle's CCCD for `path` is on: linked, and some notify session registered (or,
    /// for Battery Level behind the battery plugin, always: the plugin subscribes itself).
    func cccdEnabled(_ path: DBusObjectPath, _ state: SimulatorState) -> Bool {
        guard state.link == .connected || state.link == .disconnecting else { return false }
        return state.sessions[path]?.contains { $0.registered } ?? false
    }

    /// Something the bottle did: a notification reaches BlueZ when the CCCD is on, cut to MTU − 3
    /// bytes (docs/protocol.md 1.5); a sleep or a lost link drops the connection.
    func deliver(_ event: BottleEvent, _ state: inout SimulatorState) {
        switch event {
        case .notification(let characteristic, let value):
            if characteristic == .batteryLevel, configuration.battery == .plugin {
                if state.device?.battery1 == true, linkedPhases.contains(state.link), let percent = value.first {
                    setProperties(devicePath, Interface.battery, ["Percentage": .byte(percent)])
                }
                return
            }
            guard let layout = layout.layout(of: characteristic), exported(layout.path, state),
                cccdEnabled(layout.path, state)
            else { return }
            let sent = Array(value.prefix(state.faults.mtu - 3))
            if sent.count < value.count {
                log("event: \(characteristic.rawValue) notification of \(value.count) bytes truncated to \(sent.count) (MTU \(state.faults.mtu))")
            }
            showValue(layout.path, sent, &state)
            // One line per notification (the live benchmark times chunk → ACK from these lines).
            if configuration.log != nil { log("event: \(characteristic.rawValue) notified (\(sent.count) bytes)") }
        case .fellAsleep:
            log("event: the bottle falls asleep")
            supervisionTimeout(&state)
        }
    }

    /// What a chunk fault does once the write that carried the chunk has been answered.
    enum ChunkFault {
        case dropLink, sleep, vanish
        /// The fault injector's plan for this connection.
        case chaos
    }

    func apply(_ fault: ChunkFault, _ state: inout SimulatorState) {
        switch fault {
        case .dropLink:
            supervisionTimeout(&state)
        case .sleep:
            state.model.sleep()
            supervisionTimeout(&state)
        case .vanish:
            vanish(&state)
        case .chaos:
            strikeChaos(&state)
        }
    }

    // MARK: - Notify sessions

    private func startNotify(_ path: DBusObjectPath, _ owner: String, _ responder: DBusResponder,
                             _ state: inout SimulatorState) {
        guard let characteristic = layout.characteristic(at: path), exported(path, state) else {
            return responder.fail(BlueZError.doesNotExist())
        }
        if let failure = gattFault(&state, counting: false) { return responder.fail(failure) }
        if state.link == .disconnecting { return responder.fail(BlueZError.notConnected()) }
        if state.link == .connected, chaosHolds(responder, &state) { return }
        guard characteristic.canNotify else { return responder.fail(BlueZError.notSupported()) }
        if let existing = state.sessions[path]?.first(where: { $0.owner == owner }) {
            return existing.registered ? responder.reply([]) : responder.fail(BlueZError.inProgress())
        }
        let linked = state.link == .connected && state.gattReady
        state.sessions[path, default: []].append(NotifySession(owner: owner, registered: linked))
        guard linked else { return responder.reply([]) }  // registered at the next connection
        if state.faults.notifyBeforeReply, case .aquavate(let source) = characteristic.source {
            log("fault: notify-before-reply: \(source.rawValue) notifies before the StartNotify reply")
            deliver(.notification(source, state.model.value(of: source)), &state)
        }
        setNotifying(path, true, &state)
        responder.reply([])
    }

    private func stopNotify(_ path: DBusObjectPath, _ owner: String, _ state: inout SimulatorState) throws -> [DBusValue] {
        guard exported(path, state) else { throw BlueZError.doesNotExist() }
        guard var sessions = state.sessions[path], let index = sessions.firstIndex(where: { $0.owner == owner }) else {
            throw BlueZError.failed("No notify session started")
        }
        sessions.remove(at: index)
        state.sessions[path] = sessions
        updateNotifying(path, &state)
        return []
    }

    /// Re-registers every session when the GATT client becomes ready (gatt-client.c register_notify).
    func armNotifySessions(_ state: inout SimulatorState) {
        state.gattReady = true
        for path in state.sessions.keys.sorted() {
            state.sessions[path] = state.sessions[path]?.map { NotifySession(owner: $0.owner, registered: true) }
            if state.sessions[path]?.isEmpty == false { setNotifying(path, true, &state) }
        }
    }

    private func setNotifying(_ path: DBusObjectPath, _ value: Bool, _ state: inout SimulatorState) {
        guard (state.notifying[path] ?? false) != value else { return }
        state.notifying[path] = value
        setProperties(path, Interface.characteristic, ["Notifying": .bool(value)])
    }

    /// gatt-client.c update_notifying: Notifying drops only when no registered session is left.
    func updateNotifying(_ path: DBusObjectPath, _ state: inout SimulatorState) {
        guard state.notifying[path] == true, !(state.sessions[path]?.contains { $0.registered } ?? false) else { return }
        setNotifying(path, false, &state)
    }
}
