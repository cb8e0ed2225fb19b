// A connected device's GATT, the way the rest of the bridge uses it: characteristics found by
// UUID, read, write (with response), notifications, the MTU, the battery, and one ordered
// stream of what happens on the link.
//
// GATT calls go over a private connection to the system bus, one per BLE session (docs/bluez.md
// F8, 7.7; nothing to do with the desktop's session bus): BlueZ ties notify sessions to the
// connection that asked, so closing it at the end releases them and the next session starts
// clean. Signals keep arriving through the client's cache connection, in BlueZ's order, and are
// turned into `GATTEvent`s here.

import DBus
import Logging
import Locking
import Timekeeping

/// What happens on a connected link, in the order BlueZ reported it.
package enum GATTEvent: Sendable, Equatable {
    /// A characteristic with notifications started got a new value: a notification, or the echo
    /// of a read (docs/bluez.md 7.2). `uuid` is lower case.
    case value(uuid: String, [UInt8])
    /// `org.bluez.Battery1.Percentage` changed (battery plugin active).
    case battery(Int)
    /// The link ended.
    case linkLost(LinkLoss)
}

package final class GATTConnection: Sendable {
    package let client: BlueZClient
    package let device: DBusObjectPath
    package let address: String
    package let name: String?
    package let policy: ConnectPolicy
    /// Every event of the link, in order; ends after `.linkLost`.
    package let events: EventQueue<GATTEvent>

    /// This BLE session's own connection to the system bus (the one bluetoothd is on); closed
    /// when the link ends, which releases its notify sessions.
    private let privateSystemBus: BusConnection
    private let logger: Logger
    private let state = Locked(LinkState())
    private let pump = Locked<Task<Void, Never>?>(nil)
    /// The characteristics the device had when the connection was made (lower-case UUIDs).
    private let knownAtConnection: Set<String>

    private struct LinkState {
        /// Characteristics (by path) whose `Value` changes are notifications to us.
        var notifying: [DBusObjectPath: String] = [:]
        var watchingBattery = false
        var lost: LinkLoss?
        /// Our own Disconnect is under way.
        var disconnecting = false
        /// A reply said the link is down (Not connected, the object gone, no reply) while BlueZ's
        /// signal saying so may still be on its way.
        var replySaidDown = false
    }

    init(client: BlueZClient, device: DBusObjectPath, privateSystemBus: BusConnection, watch: ChangeWatch,
         view: DeviceView, policy: ConnectPolicy, logger: Logger) {
        self.client = client
        self.events = EventQueue(timer: client.clock)
        self.device = device
        self.privateSystemBus = privateSystemBus
        self.policy = policy
        self.logger = logger
        let known = client.objects.device(device)
        self.knownAtConnection = Set(client.objects.characteristics(of: device).map { $0.uuid.lowercased() })
        self.address = known?.address ?? BlueZDevice.address(fromPath: device)
        self.name = known?.displayName
        let task = Task { [weak self] in
            var view = view
            // Progress: one change a pass, awaited; ends when the link is gone or the watch ends.
            while let change = await watch.changes.next() {
                guard let self else { return }
                if self.handle(change, view: &view) { break }
            }
            watch.cancel()
        }
        pump.withLock { $0 = task }
    }

    /// Applies one change; returns true once the link is gone.
    private func handle(_ change: BlueZChange, view: inout DeviceView) -> Bool {
        if view.apply(change) {
            // 7.3: a removed device object is a lost link even without Connected=false.
            var loss: LinkLoss? = view.serviceLost ? .serviceLost : !view.exists ? .vanished : !view.connected ? .disconnected : nil
            // BlueZ sends Connected=false before it replies to our own Disconnect (docs/bluez.md 7.8):
            // that is the disconnect we asked for, not a dropped link.
            if loss == .disconnected, state.withLock({ $0.disconnecting }) { loss = .local }
            if let loss {
                markLost(loss)
                return true
            }
            return false
        }
        switch change {
        case .propertiesChanged(let path, BlueZNames.characteristicInterface, let changed, _):
            guard let value = changed["Value"]?.bytes else { return false }
            if let uuid = state.withLock({ $0.notifying[path] }) {
                events.push(.value(uuid: uuid, value))
            }
        case .propertiesChanged(let path, BlueZNames.batteryInterface, let changed, _) where path == device:
            if let percentage = changed["Percentage"]?.byte, state.withLock({ $0.watchingBattery }) {
                events.push(.battery(Int(percentage)))
            }
        default:
            break
        }
        return false
    }

    private func markLost(_ loss: LinkLoss) {
        state.withLock { state in
            if state.lost == nil { state.lost = loss }
        }
        events.push(.linkLost(loss))
        events.finish()
    }

    /// Why the link ended, or nil while it is up.
    package var lostReason: LinkLoss? { state.withLock { $0.lost } }

    // MARK: Characteristics

    /// The device's characteristics as the cache knows them now.
    package var characteristics: [GATTCharacteristicInfo] { client.objects.characteristics(of: device) }

    /// The characteristic with `uuid` (any case), or nil.
    package func characteristic(_ uuid: String) -> GATTCharacteristicInfo? {
        client.objects.characteristic(of: device, uuid: uuid)
    }

    /// The characteristic, or why it is not there. The cache can drop a characteristic a moment
    /// before this connection hears that the link went (the device vanished, or with
    /// `Cache = no` the objects go with ServicesResolved=false): that is a lost link too.
    ///
    /// BlueZ removes a connected device's GATT objects only when the link goes, and the signal
    /// that removes them can come before the one that says how (the device object vanishing a
    /// moment later): a characteristic that was there at connection and is gone now is a lost
    /// link, whose reason is awaited briefly (at most 1 s) so that it can be told.
    private func require(_ uuid: String) async throws -> GATTCharacteristicInfo {
        if let info = characteristic(uuid) { return info }
        if knownAtConnection.contains(uuid.lowercased()) {
            let deadline = client.clock.deadline(after: .seconds(1))
            // Progress: each pass sleeps 20 ms until the loss is known or the second is over.
            while lostReason == nil, client.objects.device(device) != nil, client.clock.instant < deadline {
                try? await client.clock.sleep(for: .milliseconds(20))
            }
        }
        if let lost = lostReason { throw LinkLost(device: address, reason: lost) }
        guard let current = client.objects.device(device) else { throw LinkLost(device: address, reason: .vanished) }
        if !current.connected || !current.servicesResolved || knownAtConnection.contains(uuid.lowercased()) {
            throw LinkLost(device: address, reason: .disconnected)
        }
        throw CharacteristicNotFound(uuid: uuid, device: address)
    }

    /// The ATT MTU (docs/bluez.md F13): the `MTU` property BlueZ ≥ 5.62 puts on the characteristics
    /// while connected, asked for with `Get` if the cache lacks it; nil when BlueZ does not say,
    /// which callers must treat as the default 23 (`ChunkSizing.recordsPerChunk(mtu: nil)` = 1).
    package func mtu() async -> Int? {
        let known = characteristics
        if let mtu = known.lazy.compactMap(\.mtu).first { return mtu }
        guard let first = known.first else { return nil }
        let reply = try? await privateSystemBus.call(
            destination: BlueZNames.service, path: first.path, interface: BlueZNames.propertiesInterface,
            method: "Get", arguments: [.string(BlueZNames.characteristicInterface), .string("MTU")],
            timeout: .seconds(2))
        return reply?.first?.uint16.map(Int.init)
    }

    // MARK: Operations

    /// `ReadValue({})`.
    package func read(_ uuid: String) async throws -> [UInt8] {
        let info = try await require(uuid)
        let reply = try await perform("read", info) { bus in
            try await bus.call(
                destination: BlueZNames.service, path: info.path, interface: BlueZNames.characteristicInterface,
                method: "ReadValue", arguments: [.variantDictionary([:])], timeout: self.policy.gattOperationTimeout)
        }
        guard let bytes = reply.first?.bytes else {
            throw GATTOperationFailed(operation: "read", characteristic: info.uuid, detail: "the reply held no bytes")
        }
        return bytes
    }

    /// How a write travels.
    package enum WriteType: String, Sendable {
        /// ATT Write Request: the bottle's only writable kind (docs/protocol.md 0).
        case request
        /// ATT Write Command (without response).
        case command
    }

    /// `WriteValue(value, {type})`.
    package func write(_ uuid: String, _ value: [UInt8], type: WriteType = .request) async throws {
        let info = try await require(uuid)
        _ = try await perform("write", info) { bus in
            try await bus.call(
                destination: BlueZNames.service, path: info.path, interface: BlueZNames.characteristicInterface,
                method: "WriteValue", arguments: [.bytes(value), .variantDictionary(["type": .string(type.rawValue)])],
                timeout: self.policy.gattOperationTimeout)
        }
    }

    /// Starts notifications: the values arrive on `events`, in order with everything else on the
    /// link. There is no stream per characteristic: one delivery path keeps a value from being
    /// handled (or buffered unread) twice.
    ///
    /// docs/bluez.md F10: the handler is registered BEFORE `StartNotify` is called, so a notification
    /// that races the reply (the bottle answers a write before its write response, docs/protocol.md 0)
    /// is delivered, not lost.
    package func startNotify(_ uuid: String) async throws {
        let info = try await require(uuid)
        state.withLock { $0.notifying[info.path] = info.uuid }
        do {
            _ = try await perform("start notifications", info) { bus in
                try await bus.call(
                    destination: BlueZNames.service, path: info.path, interface: BlueZNames.characteristicInterface,
                    method: "StartNotify", timeout: self.policy.gattOperationTimeout)
            }
        } catch {
            state.withLock { $0.notifying[info.path] = nil }
            throw error
        }
    }

    /// The battery percentage, and from now on its changes as events: `org.bluez.Battery1` when
    /// BlueZ's battery plugin hides the Battery service (5.48–5.79, docs/bluez.md 7.8), else the GATT
    /// Battery Level, read and then notified. Nil when the device offers neither.
    package func startBatteryReports(batteryLevelUUID: String = "00002a19-0000-1000-8000-00805f9b34fb") async throws -> Int? {
        if let percentage = client.objects.device(device)?.batteryPercentage {
            state.withLock { $0.watchingBattery = true }
            return percentage
        }
        guard characteristic(batteryLevelUUID) != nil else { return nil }
        try await startNotify(batteryLevelUUID)
        return try await read(batteryLevelUUID).first.map(Int.init)
    }

    /// Runs a BlueZ call with the GATT workarounds.
    ///
    /// docs/bluez.md F2: `org.bluez.Error.InProgress` means another GATT operation is in flight; there
    /// is no signal for "ready", so poll every 10 ms until the operation's deadline (bleak).
    /// A reply saying the object is gone or not connected is a lost link, not a GATT failure.
    private func perform(
        _ operation: String, _ info: GATTCharacteristicInfo, _ body: (BusConnection) async throws -> [DBusValue]
    ) async throws -> [DBusValue] {
        let deadline = client.clock.deadline(after: policy.gattOperationTimeout)
        // Progress: each pass is one BlueZ call; only InProgress comes round again, after a
        // pause, until the operation's deadline.
        while true {
            if let lost = lostReason { throw LinkLost(device: address, reason: lost) }
            do {
                return try await body(privateSystemBus)
            } catch let failure as DBusFailure where failure.name == BlueZNames.Error.inProgress {
                guard client.clock.instant < deadline else {
                    throw GATTOperationFailed(operation: operation, characteristic: info.uuid,
                                              detail: "BlueZ stayed busy (InProgress) for \(policy.gattOperationTimeout)")
                }
                try await client.clock.sleep(for: policy.inProgressRetryInterval)
            } catch let failure as DBusFailure where failure.name == DBusFailure.noReplyName {
                // From the bus, not a local time-out (that is DBusCallTimedOut): bluetoothd left
                // the bus while it owed us this reply — a crash or a restart.
                state.withLock { $0.replySaidDown = true }
                throw LinkLost(device: address, reason: lostReason ?? .serviceLost)
            } catch let failure as DBusFailure where failure.meansObjectGone || failure.meansNotConnected {
                state.withLock { $0.replySaidDown = true }
                throw LinkLost(device: address, reason: lostReason ?? (failure.meansObjectGone ? .vanished : .disconnected))
            } catch let failure as DBusFailure {
                // A call in flight when the link went gets whatever BlueZ makes of it (Failed,
                // "Operation canceled", …): the lost link is the truth, not the call's failure.
                if let lost = lostReason { throw LinkLost(device: address, reason: lost) }
                throw GATTOperationFailed(operation: operation, characteristic: info.uuid, detail: failure.description)
            } catch let timedOut as DBusCallTimedOut {
                if let lost = lostReason { throw LinkLost(device: address, reason: lost) }
                throw GATTOperationFailed(operation: operation, characteristic: info.uuid, detail: timedOut.description)
            }
        }
    }

    // MARK: Ending

    /// Disconnects (`Device1.Disconnect`, whose reply BlueZ sends about 2 s later), closes the
    /// session's bus connection (ending its notify sessions) and stops the events.
    package func disconnect() async {
        if lostReason == nil && Task.isCancelled {
            // Shutting down: the call would be cancelled before it is sent, and BlueZ keeps a
            // device connected after its client is gone (bleak's disconnect monitor): send it
            // without waiting for the reply.
            try? client.connection.send(destination: BlueZNames.service, path: device,
                                        interface: BlueZNames.deviceInterface, method: "Disconnect")
        } else if lostReason == nil, await stillUpAfterADownReply() {
            state.withLock { $0.disconnecting = true }
            do {
                _ = try await client.call(device, BlueZNames.deviceInterface, "Disconnect", timeout: policy.disconnectTimeout)
            } catch {
                logger.debug("Disconnect of \(address): \(error)")
            }
        }
        await close(reason: .local)
    }

    /// True unless a reply said the link is down and BlueZ confirms it within a second: its
    /// Connected=false (or the object's removal) usually follows such a reply within milliseconds,
    /// but may come after the session ended. A Disconnect for a link already gone is a needless
    /// call; a link a reply only hiccuped on is still up and gets its Disconnect.
    private func stillUpAfterADownReply() async -> Bool {
        guard state.withLock({ $0.replySaidDown }) else { return true }
        let deadline = client.clock.deadline(after: .seconds(1))
        // Progress: each pass sleeps 20 ms until BlueZ says the link is down or the second is over.
        while lostReason == nil, client.objects.device(device)?.connected == true, client.clock.instant < deadline {
            try? await client.clock.sleep(for: .milliseconds(20))
        }
        return lostReason == nil && client.objects.device(device)?.connected == true
    }

    /// Releases the session without asking BlueZ to disconnect.
    package func close(reason: LinkLoss = .local) async {
        markLost(reason)
        pump.withLock { $0 }?.cancel()
        await privateSystemBus.close()
    }
}
