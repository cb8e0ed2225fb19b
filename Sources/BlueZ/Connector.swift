// The connect state machine (docs/bluez.md section 5): from a device object to a GATT connection with
// the characteristics we need, surviving BlueZ's failure modes. Each workaround lives in exactly
// one function below and names the BlueZ behaviour it works around.
//
//   attempts ──> attempt ──> connectOrAdopt ──> waitForServices ──> waitForCharacteristics ──> open
//      ^            │        F1 F3 F4 F5 F18    F6 (7.1, 7.3)       7.4, F7
//      └── retry ◀──┘ (transient: 0.25 s; waits for Connected=false first)
//   the whole thing under the outer safety time-out (F18)

import DBus
import Logging
import Timekeeping

package struct Connector: Sendable {
    package let client: BlueZClient
    package let policy: ConnectPolicy
    package let logger: Logger

    package init(client: BlueZClient, policy: ConnectPolicy = .standard, logger: Logger = Logger(label: "bluez")) {
        self.client = client
        self.policy = policy
        self.logger = logger
    }

    /// Connects to `device` and waits until every characteristic in `required` (UUIDs, any
    /// case) is there.
    /// - Throws: `DeviceVanished` (scan again, back off `policy.deviceGoneBackoff`),
    ///   `StaleGATTCache` (the device was removed: scan again), `ConnectFailed`,
    ///   `ConnectTimedOut`, `CancellationError`.
    package func connect(_ device: DBusObjectPath, requiring required: [String]) async throws -> GATTConnection {
        let label = client.objects.device(device)?.address ?? BlueZDevice.address(fromPath: device)
        // docs/bluez.md F18, the outer half: "the dbus connection can stall" (brc BLEAK_SAFETY_TIMEOUT);
        // whatever hangs is cancelled, and a pending Connect is cancelled with Disconnect.
        do {
            return try await withDeadline(policy.safetyTimeout, on: client.clock) {
                try await self.attempts(device, required: required, label: label)
            }
        } catch is DeadlineExceeded {
            await cancelConnect(device, label: label)
            throw ConnectTimedOut(device: label, timeout: policy.safetyTimeout)
        }
    }

    // MARK: Attempts

    /// Why one attempt failed, and whether it counts as transient.
    private struct AttemptFailure: Error {
        var transient: Bool
        var reason: String
    }

    private func attempts(_ device: DBusObjectPath, required: [String], label: String) async throws -> GATTConnection {
        var failures = 0
        var transients = 0
        // Progress: each pass is one Connect attempt; a failed one counts towards maxAttempts or
        // maxTransientErrors and sleeps a back-off; the whole is under safetyTimeout.
        while true {
            try Task.checkCancellation()
            let watch = client.watch()
            var view = DeviceView(path: device, initial: watch.initial)
            do {
                return try await attempt(device, required: required, label: label, watch: watch, view: &view)
            } catch let failure as AttemptFailure {
                watch.cancel()
                if failure.transient { transients += 1 } else { failures += 1 }
                let total = failures + transients
                logger.info("connecting to \(label): attempt \(total) failed (\(failure.reason))")
                if transients >= policy.maxTransientErrors || failures >= policy.maxAttempts {
                    throw ConnectFailed(device: label, attempts: total, reason: failure.reason)
                }
                try await client.clock.sleep(for: policy.transientBackoff)
                await waitForDisconnect(device)
            } catch {
                watch.cancel()
                throw error
            }
        }
    }

    private func attempt(
        _ device: DBusObjectPath, required: [String], label: String, watch: ChangeWatch, view: inout DeviceView
    ) async throws -> GATTConnection {
        guard view.exists else { throw DeviceVanished(device: label) }
        // The session's own connection opens while BlueZ connects and resolves: its handshake
        // with the bus need not wait for them. An attempt that fails drops it, which closes it.
        async let privateSystemBus = client.openPrivateSystemBus()
        try await connectOrAdopt(device, label: label, watch: watch, view: &view)
        try await waitForServices(device, label: label, watch: watch, view: &view)
        try await waitForCharacteristics(device, required: required, label: label)
        return GATTConnection(client: client, device: device, privateSystemBus: try await privateSystemBus, watch: watch, view: view,
                              policy: policy, logger: logger)
    }

    /// `Device1.Connect`, and what its errors mean.
    ///
    /// docs/bluez.md F4: when BlueZ already holds a connection (an earlier run crashed, or BlueZ kept
    /// it: bluez/bluez#89), Connect would fail with AlreadyConnected or do nothing: adopt the
    /// connection instead — whether we see it before calling or from the reply (a race).
    private func connectOrAdopt(
        _ device: DBusObjectPath, label: String, watch: ChangeWatch, view: inout DeviceView
    ) async throws {
        if view.connected {
            logger.info("\(label) is already connected in BlueZ; adopting the connection")
            return
        }
        view.beginAttempt()
        do {
            _ = try await client.call(device, BlueZNames.deviceInterface, "Connect", timeout: policy.attemptTimeout)
        } catch let failure as DBusFailure
            where failure.name == BlueZNames.Error.failed && failure.message.contains(BlueZNames.ConnectFailure.abortByLocal)
        {
            // docs/bluez.md F1 (and 7.1): BlueZ connected briefly and aborted. It set Connected=true,
            // replied with this error, and then sets Connected=false. Wait for that false (it is
            // not a dropped session), then retry (bleak client.py:279-299; transient for brc).
            _ = await waitForView(watch: watch, view: &view, timeout: policy.abortSettleTimeout) { !$0.connected }
            throw AttemptFailure(transient: true, reason: BlueZNames.ConnectFailure.abortByLocal)
        } catch let failure as DBusFailure where failure.meansObjectGone {
            // docs/bluez.md F5: the object is gone (removed after TemporaryTimeout, or RemoveDevice).
            throw DeviceVanished(device: label)
        } catch let failure as DBusFailure where failure.name == BlueZNames.Error.alreadyConnected {
            // F4 (above), raced: it connected between our look and our call.
            logger.info("\(label) was already connected; adopting the connection")
        } catch let failure as DBusFailure where failure.name == BlueZNames.Error.inProgress {
            // docs/bluez.md F3: a stale Connect (a crashed client's, or another app's) is in flight;
            // cancel it with Disconnect and try again (brc#226's force_connect, first half).
            await cancelConnect(device, label: label)
            throw AttemptFailure(transient: true, reason: "another connect was in progress")
        } catch let timedOut as DBusCallTimedOut {
            // docs/bluez.md F18, the per-attempt half: Disconnect cancels a pending Connect (Device1 doc).
            await cancelConnect(device, label: label)
            throw AttemptFailure(transient: false, reason: "no reply to Connect within \(timedOut.timeout)")
        } catch let failure as DBusFailure {
            throw AttemptFailure(transient: false, reason: failure.message.isEmpty ? failure.name : failure.message)
        }
    }

    /// docs/bluez.md F6: waits for `ServicesResolved` while racing `Connected=false` and the device's
    /// removal ("we can get InterfacesRemoved without the Connected property changing", 7.3).
    /// A Connected=false counts only after this attempt saw Connected=true (7.1).
    private func waitForServices(_ device: DBusObjectPath, label: String, watch: ChangeWatch, view: inout DeviceView)
        async throws
    {
        var outcome: String?
        let resolved = await waitForView(watch: watch, view: &view, timeout: policy.attemptTimeout) { view in
            if view.serviceLost || !view.exists { return true }
            if view.sawConnected && !view.connected { return true }
            return view.connected && view.servicesResolved
        }
        if view.serviceLost { throw BluetoothServiceUnavailable(detail: "bluetoothd left the bus while connecting") }
        if !view.exists { throw DeviceVanished(device: label) }
        if resolved && view.connected && view.servicesResolved { return }
        if view.sawConnected && !view.connected {
            outcome = "disconnected during service discovery"
        } else {
            outcome = "services not resolved within \(policy.attemptTimeout)"
            await cancelConnect(device, label: label)
        }
        throw AttemptFailure(transient: false, reason: outcome ?? "")
    }

    /// docs/bluez.md 7.4: `ServicesResolved` can come before the GATT objects (bluez/bluez#1489), so
    /// wait, with a deadline, for the characteristics we need.
    /// docs/bluez.md F7: if they never come, BlueZ's cache (`Cache = always`) is stale: `RemoveDevice`
    /// wipes it (brc `clear_cache`), and the device must be discovered and connected again.
    private func waitForCharacteristics(_ device: DBusObjectPath, required: [String], label: String) async throws {
        enum Readiness: Sendable { case ready, lost }
        let readiness = try? await client.waitUntil("the GATT characteristics of \(label)", timeout: policy.gattObjectsTimeout) {
            objects -> Readiness? in
            guard let state = objects.device(device), state.connected else { return .lost }
            return required.allSatisfy({ objects.characteristic(of: device, uuid: $0) != nil }) ? .ready : nil
        }
        switch readiness {
        case .ready?:
            return
        case .lost?:
            guard client.objects.device(device) != nil else { throw DeviceVanished(device: label) }
            throw AttemptFailure(transient: false, reason: "disconnected before the GATT objects appeared")
        case nil:
            let objects = client.objects
            let missing = required.filter { objects.characteristic(of: device, uuid: $0) == nil }
            logger.warning("\(label): services resolved but \(missing.count) characteristic(s) missing; removing BlueZ's stale copy")
            let adapter = objects.device(device)?.adapter ?? device.parent
            await cancelConnect(device, label: label)
            _ = try? await client.call(adapter, BlueZNames.adapterInterface, "RemoveDevice", [.objectPath(device)],
                                       timeout: policy.disconnectTimeout)
            throw StaleGATTCache(device: label, missing: missing)
        }
    }

    // MARK: Helpers

    /// Applies changes to `view` until `done` holds or `timeout` passes; returns whether it held.
    private func waitForView(
        watch: ChangeWatch, view: inout DeviceView, timeout: Duration, _ done: (DeviceView) -> Bool
    ) async -> Bool {
        let deadline = client.clock.deadline(after: timeout)
        // Progress: each pass awaits one change (an ended watch or the deadline returns).
        while !done(view) {
            let remaining = client.clock.timeLeft(until: deadline)
            guard remaining > .zero, case .element(let change) = await watch.changes.next(within: remaining) else {
                return done(view)
            }
            view.apply(change)
        }
        return true
    }

    /// `Disconnect`, which also cancels a Connect still pending (Device1 doc); errors ignored.
    private func cancelConnect(_ device: DBusObjectPath, label: String) async {
        do {
            _ = try await client.call(device, BlueZNames.deviceInterface, "Disconnect", timeout: policy.disconnectTimeout)
        } catch {
            logger.debug("Disconnect of \(label) while cancelling: \(error)")
        }
    }

    /// brc `wait_for_disconnect`: "if we do not wait, we may end up connecting to the same device
    /// again before it has had time to disconnect".
    private func waitForDisconnect(_ device: DBusObjectPath) async {
        _ = try? await client.waitUntil("disconnect", timeout: policy.abortSettleTimeout) { objects -> Bool? in
            (objects.device(device)?.connected ?? false) ? nil : true
        }
    }
}

extension DBusObjectPath {
    /// `/org/bluez/hci0` for `/org/bluez/hci0/dev_…`.
    var parent: DBusObjectPath {
        let elements = rawValue.split(separator: "/").dropLast()
        return DBusObjectPath("/" + elements.joined(separator: "/"))
    }
}

/// The operation passed its deadline.
struct DeadlineExceeded: Error {}

/// Runs `operation`, cancelling it and throwing `DeadlineExceeded` if it takes longer than
/// `timeout` of `clock`'s time.
func withDeadline<T: Sendable>(_ timeout: Duration, on clock: any WallClock,
                               _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(for: timeout)
            throw DeadlineExceeded()
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw DeadlineExceeded() }
        return first
    }
}
